package io.kubeboot.sample.storage;

import java.util.LinkedHashMap;
import java.util.Map;

import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketSpec;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The ConfigMap each StorageBucket owns: the bucket's connection details (name, endpoint,
 * region) for the applications that use the bucket, mounted or read as environment
 * variables. Named {@code <bucket>-connection}, labelled as managed by this operator (the
 * controller caches only ConfigMaps with that label) and controlled by the bucket, so
 * deleting the bucket deletes it and a change to it reconciles the bucket, which puts it
 * back.
 */
final class BucketConnection {

	/** The label every ConfigMap of this operator carries. */
	static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";

	/** The label's value. */
	static final String MANAGED_BY = "sample-operator";

	/** The selector of the ConfigMaps this operator owns. */
	static final String SELECTOR = MANAGED_BY_LABEL + "=" + MANAGED_BY;

	private BucketConnection() {
	}

	/**
	 * Names a bucket's ConfigMap.
	 * @param bucket the bucket
	 * @return a ConfigMap with only its namespace and name set
	 */
	static V1ConfigMap named(StorageBucket bucket) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(bucket.getMetadata().getNamespace())
			.name(bucket.getMetadata().getName() + "-connection"));
	}

	/**
	 * Makes a ConfigMap hold the bucket's connection details and the operator's label,
	 * leaving what others added (other labels, annotations) alone.
	 * @param bucket the bucket
	 * @param configMap the ConfigMap as read, or named if it is new
	 */
	static void describe(StorageBucket bucket, V1ConfigMap configMap) {
		configMap.getMetadata().putLabelsItem(MANAGED_BY_LABEL, MANAGED_BY);
		StorageBucketSpec spec = bucket.getSpec();
		Map<String, String> data = new LinkedHashMap<>();
		data.put("bucketName", spec.getBucketName());
		data.put("endpoint", spec.getEndpoint());
		if (spec.getRegion() != null) {
			data.put("region", spec.getRegion());
		}
		configMap.setData(data);
	}

}
