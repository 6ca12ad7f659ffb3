package io.kubeboot.operator.autoconfigure.docs.model;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;

/**
 * The custom resource of the documentation, as the sample operator has it.
 */
@KubernetesKind(group = "storage.example.com", version = "v1alpha1", kind = "StorageBucket")
public class StorageBucket extends CustomResource<StorageBucketSpec, StorageBucketStatus> {

}
