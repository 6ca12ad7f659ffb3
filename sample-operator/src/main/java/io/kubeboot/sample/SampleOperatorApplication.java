package io.kubeboot.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The sample operator: every {@code @Reconciles} bean in this package and below becomes a
 * controller of the auto-configured manager, every {@code Runnable} bean a runnable of
 * it.
 * <ul>
 * <li>{@code storage.StorageBucketReconciler} watches over buckets of an object store
 * outside the cluster, probing them on a timer;</li>
 * <li>{@code storage.BucketInventoryLogger} logs the buckets on every replica;</li>
 * <li>{@link PodLogger}, with {@code sample.pod-logger.enabled=true}, logs every Pod it
 * reconciles.</li>
 * </ul>
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SampleOperatorApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleOperatorApplication.class, args);
	}

}
