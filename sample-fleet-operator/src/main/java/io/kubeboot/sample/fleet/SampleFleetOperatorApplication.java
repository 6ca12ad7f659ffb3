package io.kubeboot.sample.fleet;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The sample fleet operator: a hub (its home cluster) holds {@code FleetConfig}s, and
 * {@link FleetConfigReconciler} keeps each one's ConfigMap in every member cluster that a
 * kubeconfig Secret of the hub names.
 */
@SpringBootApplication
public class SampleFleetOperatorApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleFleetOperatorApplication.class, args);
	}

}
