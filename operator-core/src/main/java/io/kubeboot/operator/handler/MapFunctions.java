package io.kubeboot.operator.handler;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * Ready-made {@link MapFunction}s.
 */
public final class MapFunctions {

	private MapFunctions() {
	}

	/**
	 * Maps a changed object to the objects that refer to it, looked up in an index of the
	 * reconciled kind instead of visiting every cached object: "which Apps name this
	 * Secret?" reads the Apps the index files under the Secret's name. The lookup is in
	 * the changed object's namespace; in all namespaces when the changed object is
	 * cluster-scoped or the indexed kind is (a reference across namespaces needs a
	 * {@code MapFunction} of its own, looking up keys such as {@code namespace/name} in
	 * all namespaces with {@code Cache.list}).
	 *
	 * <pre class="code">
	 * CacheIndex&lt;App&gt; bySecret = CacheIndex.of(App.class, "secretRef", App::secretNames);
	 * manager.cache().addIndex(bySecret);
	 * Controller.builder(manager, App.class)
	 *     .watches(V1Secret.class, MapFunctions.byIndex(manager.cache(), bySecret, (secret) -&gt; secret.getMetadata().getName()))
	 *     .complete(reconciler);
	 * </pre> The index must be declared with {@link Cache#addIndex} by the time events
	 * arrive; a lookup of an index that is not fails the event, which is logged and
	 * skipped.
	 * @param <W> the watched model type
	 * @param cache the cache holding the index, the manager's
	 * @param index the index of the reconciled kind
	 * @param key the key a changed object is looked up by, {@code null} for none
	 * @return the mapping function: a request per object the index files under the key
	 */
	public static <W extends KubernetesObject> MapFunction<W> byIndex(Cache cache, CacheIndex<?> index,
			Function<? super W, @Nullable String> key) {
		Objects.requireNonNull(cache, "cache must not be null");
		Objects.requireNonNull(index, "index must not be null");
		Objects.requireNonNull(key, "key must not be null");
		return (object) -> {
			String value = key.apply(object);
			if (value == null) {
				return List.of();
			}
			String namespace = (object.getMetadata() != null) ? object.getMetadata().getNamespace() : null;
			boolean inNamespace = namespace != null && !namespace.isEmpty() && cache.isNamespaced(index.type());
			Collection<? extends KubernetesObject> found = cache.list(index.type(), inNamespace ? namespace : null,
					index.matching(value));
			List<Request> requests = new ArrayList<>(found.size());
			for (KubernetesObject referring : found) {
				requests.add(Request.of(referring));
			}
			return requests;
		};
	}

}
