package io.kubeboot.operator.cache;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * What makes two informers the same: the kind, the namespace and the label selector.
 *
 * @param type the model class
 * @param namespace the namespace, or {@code null} for all namespaces
 * @param labelSelector the label selector, or {@code null} for all objects
 */
public record InformerKey(Class<? extends KubernetesObject> type, @Nullable String namespace,
		@Nullable String labelSelector) {

	public InformerKey {
		namespace = (namespace == null || namespace.isBlank()) ? null : namespace.trim();
		labelSelector = (labelSelector == null || labelSelector.isBlank()) ? null : labelSelector.trim();
	}

	@Override
	public String toString() {
		return this.type.getSimpleName() + "[namespace=" + ((this.namespace != null) ? this.namespace : "*")
				+ ((this.labelSelector != null) ? ", labelSelector=" + this.labelSelector : "") + "]";
	}

}
