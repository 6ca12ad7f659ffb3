package io.kubeboot.operator.cache.internal;

import java.util.Map;
import java.util.Objects;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import org.jspecify.annotations.Nullable;

/**
 * A custom resource with a typed spec, for the tests of objects that do not decode:
 * {@code spec.replicas} is an integer.
 */
@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Gadget")
public class Gadget extends CustomResource<Gadget.Spec, Map<String, Object>> {

	/**
	 * The spec.
	 */
	public static class Spec {

		private @Nullable Integer replicas;

		public @Nullable Integer getReplicas() {
			return this.replicas;
		}

		public void setReplicas(@Nullable Integer replicas) {
			this.replicas = replicas;
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof Spec that && Objects.equals(this.replicas, that.replicas);
		}

		@Override
		public int hashCode() {
			return Objects.hashCode(this.replicas);
		}

	}

}
