package io.kubeboot.operator.it;

import java.util.Map;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;

/**
 * A custom resource for tests, served by the CRD {@link Widgets#install installs}. It has
 * no list class: the framework reads its lists as a {@code CustomResourceList}.
 */
@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Widget")
public class Widget extends CustomResource<Map<String, Object>, Map<String, Object>> {

}
