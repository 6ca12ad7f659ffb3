package io.kubeboot.operator.cache.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.random.RandomGenerator;

import io.kubeboot.operator.cache.CacheIndex;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.Indexer;
import org.jspecify.annotations.Nullable;

/**
 * An informer's store: the cached objects by namespace and name, and the cache's indexes
 * of them ({@link StoreIndex}), kept with every write. client-java's {@code Cache} keeps
 * each object under a {@code namespace/name} key built for it and again in a namespace
 * index, some 115 bytes per object beyond the object itself; here the namespace is a map
 * of names to objects, whose keys are the objects' own name strings, so the store costs
 * one map entry per object and the namespace index is the map itself. Keys in
 * client-java's form ({@code namespace/name}, or the name of a cluster-scoped object) are
 * still understood and produced, for the informer's delta queue.
 * <p>
 * Reads never lock and see every write completed before they started; the informer's one
 * event thread writes. Through client-java's {@link Indexer} only the namespace index
 * ({@link Caches#NAMESPACE_INDEX}) is served: the cache's own indexes
 * ({@link CacheIndex}) are read with {@link #byIndex(String, String, String)}. An index
 * added while the store holds objects is built from them at once, under the writers'
 * lock, so it never misses one.
 * <p>
 * It counts its objects as it writes them, and tells its listener after every write that
 * may have changed the count, so that an informer's object budget is checked without
 * visiting the objects ({@link CostTracker}).
 *
 * @param <T> the model type
 */
final class ObjectStore<T extends KubernetesObject> implements Indexer<T> {

	/** The namespace of cluster-scoped objects in the map. */
	private static final String CLUSTER = "";

	private volatile Map<String, Map<String, T>> namespaces = new ConcurrentHashMap<>();

	/** The cache's indexes by name; replaced whole when one is added. */
	private volatile Map<String, StoreIndex<T>> indexes = Map.of();

	/** How many objects the store holds; written under the writers' lock. */
	private volatile int size;

	/** Told after every write that may have changed the number of objects. */
	private final Runnable resized;

	/**
	 * Creates a store without indexes.
	 */
	ObjectStore() {
		this(List.of(), () -> {
		});
	}

	/**
	 * Creates a store that keeps indexes.
	 * @param indexes the indexes, of distinct names
	 */
	ObjectStore(List<CacheIndex<T>> indexes) {
		this(indexes, () -> {
		});
	}

	/**
	 * Creates a store that keeps indexes and tells a listener when its number of objects
	 * may have changed.
	 * @param indexes the indexes, of distinct names
	 * @param resized called on the writing thread after every add of a new object, delete
	 * and replace, under the writers' lock: it must be quick and must not write to the
	 * store
	 */
	ObjectStore(List<CacheIndex<T>> indexes, Runnable resized) {
		this.indexes = newIndexes(indexes);
		this.resized = resized;
	}

	@Override
	public synchronized void add(T object) {
		T previous = this.namespaces.computeIfAbsent(namespaceOf(object), (namespace) -> new ConcurrentHashMap<>())
			.put(nameOf(object), object);
		for (StoreIndex<T> index : this.indexes.values()) {
			index.update(previous, object);
		}
		if (previous == null) {
			this.size++;
			this.resized.run();
		}
	}

	@Override
	public void update(T object) {
		add(object);
	}

	@Override
	public synchronized void delete(T object) {
		String namespace = namespaceOf(object);
		Map<String, T> names = this.namespaces.get(namespace);
		if (names != null) {
			// the stored version, not the one given: a relist's tombstone wraps an
			// object, and the index function knows only the model class
			T removed = names.remove(nameOf(object));
			if (names.isEmpty()) {
				this.namespaces.remove(namespace, names);
			}
			if (removed != null) {
				for (StoreIndex<T> index : this.indexes.values()) {
					index.remove(removed);
				}
				this.size--;
				this.resized.run();
			}
		}
	}

	@Override
	public synchronized void replace(List<T> objects, String resourceVersion) {
		Map<String, Map<String, T>> replaced = new ConcurrentHashMap<>();
		Map<String, StoreIndex<T>> reindexed = newIndexes(
				this.indexes.values().stream().map(StoreIndex::declared).toList());
		int count = 0;
		for (T object : objects) {
			T previous = replaced.computeIfAbsent(namespaceOf(object), (namespace) -> new ConcurrentHashMap<>())
				.put(nameOf(object), object);
			reindexed.values().forEach((index) -> index.update(previous, object));
			if (previous == null) {
				count++;
			}
		}
		this.indexes = reindexed;
		this.namespaces = replaced;
		this.size = count;
		this.resized.run();
	}

	/**
	 * Adds an index, filing every object held now.
	 * @param index the index
	 * @throws IllegalArgumentException if the store keeps another index of that name
	 */
	synchronized void addIndex(CacheIndex<T> index) {
		StoreIndex<T> existing = this.indexes.get(index.name());
		if (existing != null) {
			if (existing.declared() != index) {
				throw new IllegalArgumentException("The store keeps another index named '" + index.name() + "'");
			}
			return;
		}
		StoreIndex<T> built = new StoreIndex<>(index);
		this.namespaces.values().forEach((names) -> names.values().forEach((object) -> built.update(null, object)));
		Map<String, StoreIndex<T>> added = new LinkedHashMap<>(this.indexes);
		added.put(index.name(), built);
		this.indexes = Collections.unmodifiableMap(added);
	}

	/**
	 * Returns the objects an index files under a key.
	 * @param index the name of the index
	 * @param namespace the namespace, {@code null} for all namespaces
	 * @param key the key
	 * @return a new list
	 * @throws IllegalStateException if the store keeps no such index, as while the index
	 * is being added
	 */
	List<T> byIndex(String index, @Nullable String namespace, String key) {
		StoreIndex<T> kept = this.indexes.get(index);
		if (kept == null) {
			throw new IllegalStateException("Index '" + index + "' is not built yet: it is being declared");
		}
		return kept.lookup(namespace, key);
	}

	@Override
	public void resync() {
		// nothing to do: the store is what the informer delivered
	}

	@Override
	public List<String> listKeys() {
		List<String> keys = new ArrayList<>();
		this.namespaces.forEach((namespace, names) -> {
			for (String name : names.keySet()) {
				keys.add(namespace.isEmpty() ? name : namespace + "/" + name);
			}
		});
		return keys;
	}

	@Override
	public @Nullable T get(T object) {
		Map<String, T> names = this.namespaces.get(namespaceOf(object));
		return (names != null) ? names.get(nameOf(object)) : null;
	}

	@Override
	public @Nullable T getByKey(String key) {
		int slash = key.indexOf('/');
		Map<String, T> names = this.namespaces.get((slash >= 0) ? key.substring(0, slash) : CLUSTER);
		return (names != null) ? names.get((slash >= 0) ? key.substring(slash + 1) : key) : null;
	}

	/**
	 * Returns a cached object by namespace and name, without building a key.
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @param name the name
	 * @return the object, or {@code null} if not cached
	 */
	@Nullable T get(@Nullable String namespace, String name) {
		Map<String, T> names = this.namespaces.get((namespace != null) ? namespace : CLUSTER);
		return (names != null) ? names.get(name) : null;
	}

	@Override
	public List<T> list() {
		List<T> objects = new ArrayList<>();
		this.namespaces.values().forEach((names) -> objects.addAll(names.values()));
		return objects;
	}

	/**
	 * Returns how many objects are cached, without visiting them.
	 * @return the number of objects
	 */
	int size() {
		return this.size;
	}

	/**
	 * Returns some of the cached objects, every object with the same chance: all of them
	 * if there are no more than the limit, else a systematic sample of {@code limit}
	 * positions, a fractional stride of {@code size / limit} apart from one random offset
	 * (position {@code floor((k + offset) * size / limit)} for each {@code k}). Each
	 * namespace is iterated in one run, so it gives its share, give or take one object.
	 * Visits every object, without copying them.
	 * @param limit the most objects to return
	 * @param random where the offset is drawn from
	 * @param visitor told of every object the pass visits, sampled or not
	 * @return a new list of at most {@code limit} objects
	 */
	List<T> sample(int limit, RandomGenerator random, Consumer<? super T> visitor) {
		int count = this.size;
		List<T> sample = new ArrayList<>(Math.min(limit, count));
		// a whole stride would leave the tail (count mod limit objects, the last
		// namespaces) out of every sample
		double stride = Math.max(1, (double) count / limit);
		double offset = (count > limit) ? random.nextDouble() : 0;
		long next = (long) (offset * stride);
		long index = 0;
		for (Map<String, T> names : this.namespaces.values()) {
			for (T object : names.values()) {
				visitor.accept(object);
				if (index++ == next && sample.size() < limit) {
					sample.add(object);
					next = (long) ((sample.size() + offset) * stride);
				}
			}
		}
		return sample;
	}

	/**
	 * Returns some of the cached objects, every object with the same chance, as
	 * {@link #sample(int, RandomGenerator, Consumer)} does.
	 * @param limit the most objects to return
	 * @param random where the offset is drawn from
	 * @return a new list of at most {@code limit} objects
	 */
	List<T> sample(int limit, RandomGenerator random) {
		return sample(limit, random, (object) -> {
		});
	}

	@Override
	public List<T> index(String indexName, T object) {
		return byIndex(indexName, namespaceOf(object));
	}

	@Override
	public List<String> indexKeys(String indexName, String indexedValue) {
		requireNamespaceIndex(indexName);
		Map<String, T> names = this.namespaces.get(indexedValue);
		if (names == null) {
			return new ArrayList<>();
		}
		List<String> keys = new ArrayList<>(names.size());
		for (String name : names.keySet()) {
			keys.add(indexedValue.isEmpty() ? name : indexedValue + "/" + name);
		}
		return keys;
	}

	@Override
	public List<T> byIndex(String indexName, String indexedValue) {
		requireNamespaceIndex(indexName);
		Map<String, T> names = this.namespaces.get(indexedValue);
		return (names != null) ? new ArrayList<>(names.values()) : new ArrayList<>();
	}

	/**
	 * Returns how many namespaced keys an index files objects under, for tests.
	 * @param index the name of the index
	 * @return the number of keys
	 */
	int indexKeyCount(String index) {
		StoreIndex<T> kept = this.indexes.get(index);
		return (kept != null) ? kept.keyCount() : 0;
	}

	@Override
	public Map<String, Function<T, List<String>>> getIndexers() {
		return Map.of(Caches.NAMESPACE_INDEX, Caches::metaNamespaceIndexFunc);
	}

	@Override
	public void addIndexers(Map<String, Function<T, List<String>>> indexers) {
		for (String name : indexers.keySet()) {
			requireNamespaceIndex(name);
		}
	}

	private static <T extends KubernetesObject> Map<String, StoreIndex<T>> newIndexes(List<CacheIndex<T>> declared) {
		Map<String, StoreIndex<T>> indexes = new LinkedHashMap<>();
		for (CacheIndex<T> index : declared) {
			if (indexes.putIfAbsent(index.name(), new StoreIndex<>(index)) != null) {
				throw new IllegalArgumentException("Two indexes are named '" + index.name() + "'");
			}
		}
		return Collections.unmodifiableMap(indexes);
	}

	private static void requireNamespaceIndex(String indexName) {
		if (!Caches.NAMESPACE_INDEX.equals(indexName)) {
			throw new IllegalArgumentException("Index '" + indexName
					+ "' does not exist: client-java's indexer interface serves the "
					+ "namespace index only; the cache's indexes are read with Cache.list(type, namespace, matching)");
		}
	}

	private static String namespaceOf(KubernetesObject object) {
		String namespace = object.getMetadata().getNamespace();
		return (namespace != null) ? namespace : CLUSTER;
	}

	private static String nameOf(KubernetesObject object) {
		return Objects.requireNonNull(object.getMetadata().getName(), "an object without a name cannot be cached");
	}

}
