package io.kubeboot.sample.storage;

import io.kubeboot.operator.webhook.Defaulter;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import org.springframework.stereotype.Component;

/**
 * Writes the operator's probe timeout ({@code sample.buckets.probe-timeout}) into a
 * StorageBucket that does not set {@code spec.probeTimeoutSeconds}, so that
 * {@code kubectl get storagebucket -o yaml} shows the timeout its probes use. The starter
 * serves it as the mutating admission webhook of StorageBucket.
 */
@Component
class StorageBucketDefaulter implements Defaulter<StorageBucket> {

	private final BucketProperties properties;

	StorageBucketDefaulter(BucketProperties properties) {
		this.properties = properties;
	}

	@Override
	public void applyDefaults(StorageBucket bucket) {
		if (bucket.getSpec() != null && bucket.getSpec().getProbeTimeoutSeconds() == null) {
			long seconds = Math.max(1, Math.min(60, this.properties.probeTimeout().toSeconds()));
			bucket.getSpec().probeTimeoutSeconds((int) seconds);
		}
	}

}
