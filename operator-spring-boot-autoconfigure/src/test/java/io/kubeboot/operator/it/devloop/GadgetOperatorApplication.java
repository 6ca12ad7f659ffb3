package io.kubeboot.operator.it.devloop;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An operator of {@link Gadget}s, as a user writes it.
 */
@SpringBootApplication
public class GadgetOperatorApplication {

	public static void main(String[] args) {
		SpringApplication.run(GadgetOperatorApplication.class, args);
	}

}
