package io.kubeboot.sample.storage.v1alpha1;

import io.kubeboot.operator.model.KubernetesKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * A bucket in an object store outside the cluster, described by the custom resource
 * {@code storagebuckets.storage.kubeboot.io} ({@code deploy/crd.yaml}). The operator
 * probes the bucket's endpoint periodically and records the result in {@link #getStatus()
 * status}.
 * <p>
 * A plain class that client-java's Gson reads and writes field by field; the
 * {@link KubernetesKind} annotation tells the starter which kind it is, and
 * {@link StorageBucketList} next to it is found by its name.
 */
@KubernetesKind(group = StorageBucket.GROUP, version = StorageBucket.VERSION, kind = StorageBucket.KIND)
public class StorageBucket implements KubernetesObject {

	/**
	 * The API group.
	 */
	public static final String GROUP = "storage.kubeboot.io";

	/**
	 * The API version within the group.
	 */
	public static final String VERSION = "v1alpha1";

	/**
	 * The kind.
	 */
	public static final String KIND = "StorageBucket";

	/**
	 * The plural resource name, as in URLs and RBAC rules.
	 */
	public static final String PLURAL = "storagebuckets";

	private String apiVersion = GROUP + "/" + VERSION;

	private String kind = KIND;

	private V1ObjectMeta metadata = new V1ObjectMeta();

	private StorageBucketSpec spec;

	private StorageBucketStatus status;

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	@Override
	public V1ObjectMeta getMetadata() {
		return this.metadata;
	}

	public StorageBucket metadata(V1ObjectMeta metadata) {
		this.metadata = metadata;
		return this;
	}

	public StorageBucketSpec getSpec() {
		return this.spec;
	}

	public StorageBucket spec(StorageBucketSpec spec) {
		this.spec = spec;
		return this;
	}

	public StorageBucketStatus getStatus() {
		return this.status;
	}

	public StorageBucket status(StorageBucketStatus status) {
		this.status = status;
		return this;
	}

}
