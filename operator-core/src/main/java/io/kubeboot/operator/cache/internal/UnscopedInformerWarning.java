package io.kubeboot.operator.cache.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.UnscopedInformerPolicy;
import io.kubeboot.operator.client.internal.ResourceKind;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, once per informer, of an informer that caches every object of a kind that is
 * often numerous and large in all namespaces: Secrets, ConfigMaps, Pods and Events,
 * without a namespace, a label selector, a field selector or the metadata-only form to
 * narrow it. Such a watch is how operators are most often killed for memory: it holds
 * every Helm release, every service account token, every Pod spec of the cluster. The
 * WARN names the informer, the runnables that read it and what narrows it, as the
 * {@link UnscopedInformerPolicy}'s advice words it; a kind with a cache transform is
 * reported at INFO, an acknowledged kind not at all.
 */
final class UnscopedInformerWarning {

	private static final Logger logger = LoggerFactory.getLogger(UnscopedInformerWarning.class);

	/** The kinds warned of, as {@code group/kind}; the core group is empty. */
	private static final Set<String> LARGE_KINDS = Set.of("/Secret", "/ConfigMap", "/Pod", "/Event",
			"events.k8s.io/Event");

	/**
	 * The field selector that narrows each kind the most where it applies: Helm keeps
	 * every release, up to a megabyte each, in a Secret of its own type.
	 */
	private static final Map<String, String> FIELD_SELECTORS = Map.of("/Secret", "type!=helm.sh/release.v1", "/Pod",
			"spec.nodeName=<node>", "/Event", "involvedObject.kind=<Kind>", "events.k8s.io/Event",
			"regarding.kind=<Kind>");

	private final Set<InformerKey> warned = ConcurrentHashMap.newKeySet();

	private volatile UnscopedInformerPolicy policy = UnscopedInformerPolicy.DEFAULT;

	/**
	 * Sets how informers are warned of, for those that start from now on.
	 * @param policy the policy
	 */
	void policy(UnscopedInformerPolicy policy) {
		this.policy = policy;
	}

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
	 * Reports an informer that caches every object of a large kind, unless it was
	 * reported before or its kind is acknowledged.
	 * @param key the informer
	 * @param kind its kind, as the API server serves it
	 * @param readers the names of the runnables that read it, if known
	 * @param transformed whether a cache transform applies to its objects
	 * @return {@code true} if it was reported now
	 */
	boolean warnOnce(InformerKey key, ResourceKind<?> kind, List<String> readers, boolean transformed) {
		UnscopedInformerPolicy current = this.policy;
		if (!isUnscoped(key, kind) || current.acknowledges(kind.kind(), kind.group()) || !this.warned.add(key)) {
			return false;
		}
		String field = FIELD_SELECTORS.get(kind.group() + "/" + kind.kind());
		String advice = advice(current, key, readers, field, kind);
		if (transformed) {
			logger.info("Informer caches every object of a kind that is often numerous and large, in all namespaces, "
					+ "unselected, through a cache transform: check that the transform drops what makes them large: "
					+ "informer={} kind={} readBy={} narrowWith=\"{}\"", key, kind, readers, advice);
		}
		else {
			logger.warn("Informer caches every object of a kind that is often numerous and large, in all namespaces, "
					+ "unselected: watch fewer to keep the operator's memory in check: informer={} kind={} readBy={} "
					+ "narrowWith=\"{}\"", key, kind, readers, advice);
		}
		return true;
	}

	private static String advice(UnscopedInformerPolicy policy, InformerKey key, List<String> readers,
			@Nullable String field, ResourceKind<?> kind) {
		String advice = null;
		try {
			advice = policy.advice().advise(key, readers, field);
		}
		catch (RuntimeException ex) {
			logger.debug("Advice on an unscoped informer failed, naming the builder methods instead", ex);
		}
		if (advice != null) {
			return advice;
		}
		String acknowledged = kind.group().isEmpty() ? kind.kind() : kind.kind() + "." + kind.group();
		return "where the informer is declared, a namespace (ManagerBuilder.namespace, ControllerBuilder.namespace), "
				+ "a label selector" + ((field != null) ? ", a field selector such as " + field : "")
				+ " (ControllerBuilder.labelSelector and fieldSelector, or those of owns and watches), the metadata-only "
				+ "form (ownsMetadataOnly, watchesMetadataOnly), or a CacheTransform dropping what no reconciler reads; "
				+ "if intended, acknowledge it with ManagerBuilder.unscopedInformers(new UnscopedInformerPolicy(Set.of(\""
				+ acknowledged + "\"), UnscopedInformerAdvice.BUILDER))";
	}

}
