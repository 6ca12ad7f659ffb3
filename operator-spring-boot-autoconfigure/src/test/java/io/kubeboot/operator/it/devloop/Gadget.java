package io.kubeboot.operator.it.devloop;

import java.util.Map;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;

/**
 * A custom resource whose CRD ({@code devloop/gadgets-crd.yaml}) only the local control
 * plane's CRD locations install.
 */
@KubernetesKind(group = "devloop.test.kubeboot.io", version = "v1", kind = "Gadget")
public class Gadget extends CustomResource<Map<String, Object>, Map<String, Object>> {

}
