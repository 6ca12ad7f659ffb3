package io.kubeboot.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The sample operator: every {@code @Reconciler} bean in this package becomes a
 * controller of the auto-configured manager.
 */
@SpringBootApplication
public class SampleOperatorApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleOperatorApplication.class, args);
	}

}
