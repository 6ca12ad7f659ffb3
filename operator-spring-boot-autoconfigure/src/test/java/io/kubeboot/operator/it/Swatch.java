package io.kubeboot.operator.it;

import java.util.Map;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;

/**
 * A custom resource for the tests of field selectors, served by the CRD
 * {@link Swatches#install installs}: its {@code spec.color} is a selectable field, its
 * {@code spec.shape} is not.
 */
@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Swatch", plural = "swatches")
public class Swatch extends CustomResource<Map<String, Object>, Map<String, Object>> {

}
