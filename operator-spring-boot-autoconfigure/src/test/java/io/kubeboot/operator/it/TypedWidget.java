package io.kubeboot.operator.it;

import java.util.Map;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Widget} kind read through a typed spec: {@code spec.replicas} is an integer.
 * The Widget CRD preserves unknown fields, so the API server accepts widgets whose
 * {@code replicas} is a string, which do not decode into this class. It has no list
 * class: the framework reads its lists as a {@code CustomResourceList}.
 */
@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Widget")
public class TypedWidget extends CustomResource<TypedWidget.Spec, Map<String, Object>> {

	/**
	 * The typed spec.
	 */
	public static class Spec {

		private @Nullable Integer replicas;

		public @Nullable Integer getReplicas() {
			return this.replicas;
		}

		public void setReplicas(@Nullable Integer replicas) {
			this.replicas = replicas;
		}

	}

}
