package io.kubeboot.operator.cache;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * What makes two informers the same: the kind, the namespace, the label selector, the
 * field selector and whether the informer caches the objects' metadata only. A full and a
 * metadata-only informer of the same kind are two informers with two caches, and so are
 * two informers of a kind that differ in a selector.
 * <p>
 * Both selectors are sent to the API server with every list and watch, so an informer
 * holds only the objects that match them. A blank selector is no selector, and a selector
 * is trimmed.
 *
 * @param type the model class of the kind
 * @param namespace the namespace, or {@code null} for all namespaces; an informer asked
 * for without a namespace while the manager watches a set of namespaces
 * ({@link WatchedNamespaces}) has no namespace either, and each of its informers of one
 * namespace has that namespace
 * @param labelSelector the label selector, or {@code null} for all objects
 * @param fieldSelector the field selector, such as {@code spec.nodeName=node-1}, or
 * {@code null} for all objects
 * @param metadataOnly whether the informer caches the objects' metadata only, as
 * {@link io.kubeboot.operator.model.PartialObjectMetadata}
 */
public record InformerKey(Class<? extends KubernetesObject> type, @Nullable String namespace,
		@Nullable String labelSelector, @Nullable String fieldSelector, boolean metadataOnly) {

	public InformerKey {
		namespace = normalize(namespace);
		labelSelector = normalize(labelSelector);
		fieldSelector = normalize(fieldSelector);
	}

	/**
	 * The key of an informer without a field selector.
	 * @param type the model class of the kind
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @param metadataOnly whether the informer caches the objects' metadata only
	 */
	public InformerKey(Class<? extends KubernetesObject> type, @Nullable String namespace,
			@Nullable String labelSelector, boolean metadataOnly) {
		this(type, namespace, labelSelector, null, metadataOnly);
	}

	/**
	 * The key of an informer that caches whole objects, without a field selector.
	 * @param type the model class of the kind
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector the label selector, or {@code null} for all objects
	 */
	public InformerKey(Class<? extends KubernetesObject> type, @Nullable String namespace,
			@Nullable String labelSelector) {
		this(type, namespace, labelSelector, null, false);
	}

	private static @Nullable String normalize(@Nullable String value) {
		return (value == null || value.isBlank()) ? null : value.trim();
	}

	@Override
	public String toString() {
		return this.type.getSimpleName() + "[namespace=" + ((this.namespace != null) ? this.namespace : "*")
				+ ((this.labelSelector != null) ? ", labelSelector=" + this.labelSelector : "")
				+ ((this.fieldSelector != null) ? ", fieldSelector=" + this.fieldSelector : "")
				+ (this.metadataOnly ? ", metadata only" : "") + "]";
	}

}
