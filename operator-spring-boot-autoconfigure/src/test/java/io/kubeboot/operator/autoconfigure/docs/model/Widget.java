package io.kubeboot.operator.autoconfigure.docs.model;

import java.util.Map;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;

/**
 * The custom resource of the sharding examples.
 */
@KubernetesKind(group = "example.com", version = "v1", kind = "Widget")
public class Widget extends CustomResource<Map<String, Object>, Map<String, Object>> {

}
