package io.kubeboot.sample;

import io.kubeboot.operator.autoconfigure.test.LocalControlPlaneConfiguration;
import org.springframework.boot.SpringApplication;

/**
 * The sample operator against a throwaway local control plane, with the
 * {@code StorageBucket} CRD applied and the {@code local} profile's settings
 * ({@code application-local.yaml}): what {@code mvn spring-boot:test-run} runs.
 */
public class TestSampleOperatorApplication {

	public static void main(String[] args) {
		SpringApplication.from(SampleOperatorApplication::main)
			.with(LocalControlPlaneConfiguration.class)
			.withAdditionalProfiles("local")
			.run(args);
	}

}
