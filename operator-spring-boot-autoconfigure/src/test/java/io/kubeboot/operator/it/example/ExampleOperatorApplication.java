package io.kubeboot.operator.it.example;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class ExampleOperatorApplication {

	public static void main(String[] args) {
		SpringApplication.run(ExampleOperatorApplication.class, args);
	}

}
