package io.kubeboot.sample.storage.v1alpha1;

import io.kubeboot.operator.model.AdmissionPolicy;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.model.PrinterColumn;

/**
 * A bucket in an object store outside the cluster, probed periodically by the sample
 * operator.
 * <p>
 * The custom resource {@code storagebuckets.storage.kubeboot.io}: the operator probes the
 * bucket's endpoint periodically and records the result in {@link #getStatus() status}.
 * Its CustomResourceDefinition, {@code deploy/crd.yaml}, is generated from this class and
 * its spec and status classes when they compile: the first paragraph of their javadoc
 * becomes the descriptions, their Jakarta Validation constraints the validation, and the
 * annotations below the names and the columns of {@code kubectl get}.
 * <p>
 * The whole model is this annotated class and its spec and status classes:
 * {@link CustomResource} supplies the metadata, spec and status and their accessors, the
 * {@link KubernetesKind} annotation tells the framework which kind it is, and no list
 * class is needed.
 * <p>
 * A bucket labelled {@code storage.kubeboot.io/protected: "true"} cannot be deleted: the
 * {@link AdmissionPolicy} below, which no rule of the schema could be (rules never see a
 * deletion), becomes {@code deploy/policy.yaml}, a ValidatingAdmissionPolicy and its
 * binding that the API server enforces. Remove the label to delete the bucket.
 */
@KubernetesKind(group = StorageBucket.GROUP, version = StorageBucket.VERSION, kind = StorageBucket.KIND,
		shortNames = "sb")
@PrinterColumn(name = "Bucket", jsonPath = ".spec.bucketName")
@PrinterColumn(name = "Available", jsonPath = ".status.conditions[?(@.type==\"Available\")].status")
@PrinterColumn(name = "Endpoint", jsonPath = ".spec.endpoint")
@PrinterColumn(name = "Age", type = PrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
// the following only with kubectl get -o wide
@PrinterColumn(name = "Reason", jsonPath = ".status.conditions[?(@.type==\"Available\")].reason", priority = 1)
@PrinterColumn(name = "Region", jsonPath = ".spec.region", priority = 1)
@PrinterColumn(name = "Last Probe", type = PrinterColumn.Type.DATE, jsonPath = ".status.lastProbeTime", priority = 1)
@AdmissionPolicy(name = "protected", operations = AdmissionPolicy.Operation.DELETE,
		expression = "!has(oldObject.metadata.labels) || !('storage.kubeboot.io/protected' in oldObject.metadata.labels)"
				+ " || oldObject.metadata.labels['storage.kubeboot.io/protected'] != 'true'",
		message = "the bucket is labelled storage.kubeboot.io/protected=true: remove the label to delete it",
		reason = AdmissionPolicy.Reason.FORBIDDEN)
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
