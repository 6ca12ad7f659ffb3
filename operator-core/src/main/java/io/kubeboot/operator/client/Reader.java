package io.kubeboot.operator.client;

import io.kubeboot.operator.client.internal.LabelSelector;
import java.util.List;
import java.util.Optional;

import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * Reads objects of any kind (a client-java model or a {@code @KubernetesKind} class), the
 * counterpart of controller-runtime's {@code client.Reader}. The manager's cache is one
 * (fast, a few milliseconds behind the API server, only for cached kinds, returning
 * shared instances that must not be modified); {@link Client#uncached()} is another
 * (every call asks the API server).
 */
public interface Reader {

	/**
	 * Returns the object named by the request.
	 * @param <T> the model type
	 * @param type the model class of the kind
	 * @param request the namespace and name
	 * @return the object, or empty if it does not exist
	 */
	<T extends KubernetesObject> Optional<T> get(Class<T> type, Request request);

	/**
	 * Returns the objects of a kind in a namespace.
	 * @param <T> the model type
	 * @param type the model class of the kind
	 * @param namespace the namespace, or {@code null} for all namespaces (and for
	 * cluster-scoped kinds)
	 * @return a new list of the objects, in no particular order
	 */
	<T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace);

	/**
	 * Returns the objects of a kind in a namespace that match a label selector.
	 * @param <T> the model type
	 * @param type the model class of the kind
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector a selector such as {@code app=web,tier!=cache,env in (a,b)}
	 * @return a new list of the matching objects
	 * @throws IllegalArgumentException if the selector cannot be parsed
	 */
	default <T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace, String labelSelector) {
		LabelSelector selector = LabelSelector.parse(labelSelector);
		return list(type, namespace).stream()
			.filter((object) -> selector
				.matches((object.getMetadata() != null) ? object.getMetadata().getLabels() : null))
			.toList();
	}

	/**
	 * Returns the objects of a kind in a namespace that an index of the cache files under
	 * a key, without visiting the others: the counterpart of controller-runtime's
	 * {@code List(ctx, list, client.InNamespace(ns), client.MatchingFields{...})} on an
	 * indexed field. The index is declared per kind with {@code CacheIndex}; only the
	 * manager's cache (and the {@link Client} it serves) can answer, this default
	 * refuses.
	 * @param <T> the model type
	 * @param type the model class of the kind
	 * @param namespace the namespace, or {@code null} for all namespaces (always
	 * {@code null} for a cluster-scoped kind)
	 * @param matching the index and the key, such as
	 * {@code MatchingIndex.of("secretRef", "db-secret")}
	 * @return a new list of the objects the index files under the key
	 * @throws IllegalStateException if the kind has no index of that name
	 * @throws UnsupportedOperationException if this reader keeps no index, as a reader
	 * asking the API server
	 */
	default <T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace,
			MatchingIndex matching) {
		throw new UnsupportedOperationException("Cannot look up index '" + matching.index() + "' of "
				+ type.getSimpleName() + ": only the manager's cache keeps indexes; read through the Cache or the "
				+ "Client, not an uncached reader");
	}

}
