package io.kubeboot.operator.cache;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import io.kubeboot.operator.client.MatchingIndex;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * An index of the cached objects of one kind: a name and a function from an object to the
 * keys it is filed under, the counterpart of controller-runtime's
 * {@code IndexField(ctx, obj, field, extractValue)} and client-go's indexers. It answers
 * "which objects refer to this one?" without visiting every object, for example which
 * Apps name a Secret:
 *
 * <pre class="code">
 * CacheIndex&lt;App&gt; bySecret = CacheIndex.of(App.class, "secretRef", (app) -&gt; app.secretNames());
 * cache.addIndex(bySecret);
 * List&lt;App&gt; users = cache.list(App.class, namespace, bySecret.matching("db-secret"));
 * </pre>
 *
 * Declared with {@link Cache#addIndex} (with Spring: a bean of this type), it is kept by
 * every informer of the kind's whole objects (not by informers of its metadata only), in
 * the store itself: on every add, update and delete, through relists and the watchdog's
 * restarts. Looked up with {@code Cache.list(type, namespace, matching)} or the same call
 * on the {@code Client}.
 * <p>
 * As in controller-runtime, keys are filed per namespace: a lookup in a namespace finds
 * the objects of that namespace only, a lookup in all namespaces ({@code null}) the
 * objects of every namespace, and the objects of a cluster-scoped kind are found by a
 * lookup in all namespaces. A key that names an object of another namespace is the
 * function's business (return {@code "namespace/name"} and look up in all namespaces).
 * <p>
 * The function is called on the informer's event thread with each object as cached (after
 * any {@link CacheTransform}: a field the transform removes cannot be indexed), for every
 * object of a list and of a watch event, while the informer's store is locked for
 * writing. It must be fast, must not block, should read nothing but the object, must give
 * the same keys for the same object every time, and must not modify the object. One that
 * throws is logged, and the object is filed under no key.
 *
 * @param <T> the model type
 */
public final class CacheIndex<T extends KubernetesObject> {

	private final Class<T> type;

	private final String name;

	private final Function<? super T, ? extends @Nullable Collection<String>> keys;

	private CacheIndex(Class<T> type, String name, Function<? super T, ? extends @Nullable Collection<String>> keys) {
		this.type = type;
		this.name = name;
		this.keys = keys;
	}

	/**
	 * Returns an index of a kind.
	 * @param <T> the model type
	 * @param type the model class of the kind
	 * @param name the index's name, unique among the kind's indexes, such as
	 * {@code secretRef} or {@code spec.nodeName}
	 * @param keys the keys an object is filed under: none (an empty collection or
	 * {@code null}), one or several; {@code null} elements are left out
	 * @return the index
	 * @throws IllegalArgumentException if the class declares no Kubernetes kind or the
	 * name is blank
	 */
	public static <T extends KubernetesObject> CacheIndex<T> of(Class<T> type, String name,
			Function<? super T, ? extends @Nullable Collection<String>> keys) {
		Objects.requireNonNull(type, "type must not be null");
		Objects.requireNonNull(name, "name must not be null");
		Objects.requireNonNull(keys, "keys must not be null");
		KindResolver.declaredKind(type);
		if (name.isBlank()) {
			throw new IllegalArgumentException(
					"The name of an index of " + type.getSimpleName() + " must not be blank");
		}
		return new CacheIndex<>(type, name, keys);
	}

	/**
	 * Returns the model class of the indexed kind.
	 * @return the model class
	 */
	public Class<T> type() {
		return this.type;
	}

	/**
	 * Returns the index's name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Returns the keys an object is filed under, as the function gives them.
	 * @param object an object of the kind
	 * @return the keys, without {@code null}s, possibly empty
	 */
	public List<String> keys(T object) {
		Collection<String> found = this.keys.apply(object);
		if (found == null || found.isEmpty()) {
			return List.of();
		}
		List<String> keys = new ArrayList<>(found.size());
		for (String key : found) {
			if (key != null) {
				keys.add(key);
			}
		}
		return keys;
	}

	/**
	 * Returns the lookup of the objects this index files under a key, for
	 * {@code Cache.list(type, namespace, matching)} and {@code Client.list}.
	 * @param key the key
	 * @return the lookup
	 */
	public MatchingIndex matching(String key) {
		return MatchingIndex.of(this.name, key);
	}

	@Override
	public String toString() {
		return this.type.getSimpleName() + "[index=" + this.name + "]";
	}

}
