package io.kubeboot.operator.cache.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.cache.CacheIndex;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link CacheIndex} of one {@link ObjectStore}: the store's objects by the keys the
 * index function gives them. Keys are filed per namespace as controller-runtime files
 * them ({@code KeyToNamespacedKey}): an object of namespace {@code ns} under
 * {@code ns/key} and again under {@code __all_namespaces/key}, a cluster-scoped object
 * under {@code __all_namespaces/key} only, so that a lookup in one namespace and one in
 * all namespaces each read one entry. No namespace can be named {@code __all_namespaces}:
 * Kubernetes' names have no underscores.
 * <p>
 * Within a key, objects are kept by uid (the object's own string: no key is built per
 * object), or by namespace and name for an object without one.
 * <p>
 * Its store writes it under the store's lock, from the informer's one event thread; reads
 * never lock. An update files the new version under its keys before it takes the old one
 * off the keys it left, so that a concurrent lookup finds the object under a key it
 * keeps. The function is trusted with nothing: one that throws files the object under no
 * key (logged at most once a minute), and an object whose old keys cannot be told is
 * taken off every key.
 *
 * @param <T> the model type stored
 */
final class StoreIndex<T extends KubernetesObject> {

	private static final Logger logger = LoggerFactory.getLogger(StoreIndex.class);

	/** Where the keys of every namespace are filed again, controller-runtime's name. */
	static final String ALL_NAMESPACES = "__all_namespaces";

	private static final long FAILURE_LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

	private final CacheIndex<T> declared;

	/** Objects by namespaced key, then by uid. */
	private final Map<String, Map<String, T>> entries = new ConcurrentHashMap<>();

	private final AtomicLong failureLoggedAt = new AtomicLong();

	private final AtomicLong unreportedFailures = new AtomicLong();

	StoreIndex(CacheIndex<T> declared) {
		this.declared = declared;
	}

	/**
	 * Returns the index this keeps.
	 * @return the declared index
	 */
	CacheIndex<T> declared() {
		return this.declared;
	}

	/**
	 * Files a new object, or a new version of one.
	 * @param previous the version it replaces, {@code null} for a new object
	 * @param object the version stored
	 */
	void update(@Nullable T previous, T object) {
		List<String> keys = keysOf(object);
		for (String key : keys) {
			this.entries.computeIfAbsent(key, (created) -> new ConcurrentHashMap<>()).put(idOf(object), object);
		}
		if (previous != null) {
			List<String> left = keysOf(previous, true);
			if (left == null) {
				removeEverywhere(previous);
				return;
			}
			String previousId = idOf(previous);
			boolean sameId = previousId.equals(idOf(object));
			for (String key : left) {
				if (!sameId || !keys.contains(key)) {
					remove(key, previousId);
				}
			}
		}
	}

	/**
	 * Takes an object off every key it is filed under.
	 * @param stored the object as stored
	 */
	void remove(T stored) {
		List<String> keys = keysOf(stored, true);
		if (keys == null) {
			removeEverywhere(stored);
			return;
		}
		String id = idOf(stored);
		for (String key : keys) {
			remove(key, id);
		}
	}

	/**
	 * Returns the objects filed under a key.
	 * @param namespace the namespace, {@code null} (or empty) for all namespaces
	 * @param key the key as the function gives it
	 * @return a new list
	 */
	List<T> lookup(@Nullable String namespace, String key) {
		Map<String, T> found = this.entries.get(namespaced(namespace, key));
		return (found != null) ? new ArrayList<>(found.values()) : new ArrayList<>();
	}

	/**
	 * Returns how many keys hold objects, for tests.
	 * @return the number of namespaced keys
	 */
	int keyCount() {
		return this.entries.size();
	}

	private void remove(String key, String id) {
		Map<String, T> objects = this.entries.get(key);
		if (objects != null) {
			objects.remove(id);
			if (objects.isEmpty()) {
				this.entries.remove(key, objects);
			}
		}
	}

	/**
	 * Takes an object off every key that holds this very version: a key that holds its
	 * replacement already keeps it.
	 */
	private void removeEverywhere(T stored) {
		String id = idOf(stored);
		for (Map.Entry<String, Map<String, T>> entry : this.entries.entrySet()) {
			if (entry.getValue().get(id) == stored) {
				remove(entry.getKey(), id);
			}
		}
	}

	private List<String> keysOf(T object) {
		List<String> keys = keysOf(object, false);
		return (keys != null) ? keys : List.of();
	}

	/**
	 * The namespaced keys of an object, {@code null} if the function failed.
	 */
	private @Nullable List<String> keysOf(T object, boolean removing) {
		List<String> values;
		try {
			values = this.declared.keys(object);
		}
		catch (RuntimeException ex) {
			failed(object, removing, ex);
			return null;
		}
		String namespace = object.getMetadata().getNamespace();
		boolean namespaced = namespace != null && !namespace.isEmpty();
		List<String> keys = new ArrayList<>(namespaced ? values.size() * 2 : values.size());
		for (String value : values) {
			keys.add(namespaced(namespace, value));
			if (namespaced) {
				keys.add(namespaced(null, value));
			}
		}
		return keys;
	}

	static String namespaced(@Nullable String namespace, String key) {
		return ((namespace != null && !namespace.isEmpty()) ? namespace : ALL_NAMESPACES) + "/" + key;
	}

	private static String idOf(KubernetesObject object) {
		String uid = object.getMetadata().getUid();
		if (uid != null) {
			return uid;
		}
		String namespace = object.getMetadata().getNamespace();
		return ((namespace != null) ? namespace : "") + "/" + object.getMetadata().getName();
	}

	private void failed(T object, boolean removing, RuntimeException ex) {
		long now = System.nanoTime();
		long last = this.failureLoggedAt.get();
		if (last != 0 && now - last < FAILURE_LOG_INTERVAL_NANOS || !this.failureLoggedAt.compareAndSet(last, now)) {
			this.unreportedFailures.incrementAndGet();
			return;
		}
		String namespace = object.getMetadata().getNamespace();
		logger.error("Cache index function failed, object {}: index={} object={} unreportedFailures={}",
				removing ? "taken off every key" : "filed under no key", this.declared,
				((namespace != null) ? namespace + "/" : "") + object.getMetadata().getName(),
				this.unreportedFailures.getAndSet(0), ex);
	}

}
