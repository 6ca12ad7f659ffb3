package io.kubeboot.operator.cache;

import java.util.List;
import java.util.Optional;

import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * Reads objects from the manager's informer caches: the state the API server had a few
 * milliseconds ago, without a request to it. Only kinds that a controller watches (or
 * that were registered through {@link InformerCache#informer}) are cached; asking for
 * another kind throws {@link IllegalStateException} naming it.
 * <p>
 * The returned objects are the cache's own instances, shared with every other reader:
 * never modify them; build a new object (or a patch) to change anything. All methods are
 * thread-safe and never block on the network.
 */
public interface Cache {

	/**
	 * Returns the cached object named by the request.
	 * @param <T> the model type
	 * @param type the model class of the kind
	 * @param request the namespace and name
	 * @return the object, or empty if it does not exist (or was deleted)
	 */
	<T extends KubernetesObject> Optional<T> get(Class<T> type, Request request);

	/**
	 * Returns the cached objects of a kind in a namespace.
	 * @param <T> the model type
	 * @param type the model class of the kind
	 * @param namespace the namespace, or {@code null} for all namespaces (and for
	 * cluster-scoped kinds)
	 * @return a new list of the objects, in no particular order
	 */
	<T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace);

}
