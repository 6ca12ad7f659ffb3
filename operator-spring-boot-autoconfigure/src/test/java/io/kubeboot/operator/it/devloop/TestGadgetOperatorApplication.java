package io.kubeboot.operator.it.devloop;

import io.kubeboot.operator.autoconfigure.test.LocalControlPlaneConfiguration;
import org.springframework.boot.SpringApplication;

/**
 * The development loop of {@link GadgetOperatorApplication}, as
 * {@code docs/getting-started.md} writes it: what {@code mvn spring-boot:test-run} runs.
 */
public class TestGadgetOperatorApplication {

	public static void main(String[] args) {
		SpringApplication.from(GadgetOperatorApplication::main).with(LocalControlPlaneConfiguration.class).run(args);
	}

}
