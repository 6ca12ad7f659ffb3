package io.kubeboot.operator.cache.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.internal.ResourceKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, once per informer, of an informer that caches every object of a kind that is
 * often numerous and large in all namespaces: Secrets, ConfigMaps, Pods and Events,
 * without a namespace, a label selector, a field selector or the metadata-only form to
 * narrow it. Such a watch is how operators are most often killed for memory: it holds
 * every Helm release, every service account token, every Pod spec of the cluster. The
 * WARN names the informer, the runnables that read it (the controllers) and what narrows
 * it.
 */
final class UnscopedInformerWarning {

	private static final Logger logger = LoggerFactory.getLogger(UnscopedInformerWarning.class);

	/** The kinds warned of, as {@code group/kind}; the core group is empty. */
	private static final Set<String> LARGE_KINDS = Set.of("/Secret", "/ConfigMap", "/Pod", "/Event",
			"events.k8s.io/Event");

	/** A field selector each kind supports beyond its name and namespace. */
	private static final Map<String, String> FIELD_SELECTORS = Map.of("/Secret", "type=kubernetes.io/tls", "/Pod",
			"spec.nodeName=<node>", "/Event", "involvedObject.kind=<kind>");

	static final String NARROW_WITH = "a namespace (operator.namespace, or the namespace of the controller or the "
			+ "watch); a label selector (@Reconciles labelSelector or ownsLabelSelector, @Watches labelSelector, the "
			+ "builder's labelSelector); a field selector (@Reconciles fieldSelector or ownsFieldSelector, @Watches "
			+ "fieldSelector)%s; or metadata only (@Reconciles ownsMetadataOnly, @Watches metadataOnly, the "
			+ "builder's ownsMetadataOnly and watchesMetadataOnly)";

	private final Set<InformerKey> warned = ConcurrentHashMap.newKeySet();

	/**
	 * Tells whether an informer caches every object of a large kind in all namespaces.
	 * @param key the informer
	 * @param kind its kind, as the API server serves it
	 * @return {@code true} if it is warned of
	 */
	static boolean isUnscoped(InformerKey key, ResourceKind<?> kind) {
		return !key.metadataOnly() && key.namespace() == null && key.labelSelector() == null
				&& key.fieldSelector() == null && kind.namespaced()
				&& LARGE_KINDS.contains(kind.group() + "/" + kind.kind());
	}

	/**
	 * Logs a WARN of an informer that caches every object of a large kind, unless it was
	 * warned of before.
	 * @param key the informer
	 * @param kind its kind, as the API server serves it
	 * @param readers the names of the runnables that read it, if known
	 * @return {@code true} if it was warned of now
	 */
	boolean warnOnce(InformerKey key, ResourceKind<?> kind, List<String> readers) {
		if (!isUnscoped(key, kind) || !this.warned.add(key)) {
			return false;
		}
		String field = FIELD_SELECTORS.get(kind.group() + "/" + kind.kind());
		logger.warn("Informer caches every object of a kind that is often numerous and large, in all namespaces, "
				+ "unselected: watch fewer to keep the operator's memory in check: informer={} kind={} readBy={} "
				+ "narrowWith=\"{}\"", key, kind, readers,
				NARROW_WITH.formatted((field != null) ? ", such as " + field : ""));
		return true;
	}

}
