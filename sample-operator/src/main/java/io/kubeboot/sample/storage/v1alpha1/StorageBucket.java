package io.kubeboot.sample.storage.v1alpha1;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;

/**
 * A bucket in an object store outside the cluster, described by the custom resource
 * {@code storagebuckets.storage.kubeboot.io} ({@code deploy/crd.yaml}). The operator
 * probes the bucket's endpoint periodically and records the result in {@link #getStatus()
 * status}.
 * <p>
 * The whole model is this annotated class and its spec and status classes:
 * {@link CustomResource} supplies the metadata, spec and status and their accessors, the
 * {@link KubernetesKind} annotation tells the framework which kind it is, and no list
 * class is needed.
 */
@KubernetesKind(group = StorageBucket.GROUP, version = StorageBucket.VERSION, kind = StorageBucket.KIND)
public class StorageBucket extends CustomResource<StorageBucketSpec, StorageBucketStatus> {

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

}
