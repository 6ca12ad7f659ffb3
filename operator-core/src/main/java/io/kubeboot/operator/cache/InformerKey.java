package io.kubeboot.operator.cache;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * What makes two informers the same: the kind, the namespace, the label selector and
 * whether the informer caches the objects' metadata only. A full and a metadata-only
 * informer of the same kind are two informers with two caches.
 *
 * @param type the model class of the kind
 * @param namespace the namespace, or {@code null} for all namespaces
 * @param labelSelector the label selector, or {@code null} for all objects
 * @param metadataOnly whether the informer caches the objects' metadata only, as
 * {@link io.kubeboot.operator.model.PartialObjectMetadata}
 */
public record InformerKey(Class<? extends KubernetesObject> type, @Nullable String namespace,
		@Nullable String labelSelector, boolean metadataOnly) {

	public InformerKey {
		namespace = (namespace == null || namespace.isBlank()) ? null : namespace.trim();
		labelSelector = (labelSelector == null || labelSelector.isBlank()) ? null : labelSelector.trim();
	}

	/**
	 * The key of an informer that caches whole objects.
	 * @param type the model class of the kind
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector the label selector, or {@code null} for all objects
	 */
	public InformerKey(Class<? extends KubernetesObject> type, @Nullable String namespace,
			@Nullable String labelSelector) {
		this(type, namespace, labelSelector, false);
	}

	@Override
	public String toString() {
		return this.type.getSimpleName() + "[namespace=" + ((this.namespace != null) ? this.namespace : "*")
				+ ((this.labelSelector != null) ? ", labelSelector=" + this.labelSelector : "")
				+ (this.metadataOnly ? ", metadata only" : "") + "]";
	}

}
