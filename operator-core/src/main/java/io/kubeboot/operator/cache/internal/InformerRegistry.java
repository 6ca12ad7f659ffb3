package io.kubeboot.operator.cache.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.internal.WrittenVersions;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;

/**
 * The informers of a cache, one per key: how often each was asked for and not given back,
 * the indexes every informer of a kind's whole objects keeps, and the listeners told of
 * informers registered and unregistered.
 * <p>
 * Its monitor is the cache's lock. Every method takes it; the informers of the namespace
 * set ({@link NamespaceSetInformers}) hold it around a change, so that the new set and
 * the informers' new members are published together with the registrations they make, and
 * a read's snapshot of the informers sees either a namespace's members or none. The
 * listeners are called under it and must not block.
 */
final class InformerRegistry {

	private final ScopedInformer.Settings settings;

	private final WrittenVersions written;

	private final Function<InformerKey, CostTracker> costs;

	private final Map<InformerKey, ScopedInformer<?>> informers = new LinkedHashMap<>();

	/** How often each informer was asked for and not given back. */
	private final Map<InformerKey, Integer> asked = new HashMap<>();

	/** The indexes of each kind by name. */
	private final Map<Class<?>, Map<String, CacheIndex<?>>> indexes = new HashMap<>();

	private final List<Consumer<Informer<?>>> registeredListeners = new CopyOnWriteArrayList<>();

	private final List<Consumer<Informer<?>>> unregisteredListeners = new CopyOnWriteArrayList<>();

	/**
	 * Creates an empty registry.
	 * @param settings what its informers list and watch with
	 * @param written the writes for read-your-writes, which every informer tells what it
	 * sees, and which forget the writes no informer will see
	 * @param costs what tracks the cost of a new informer, by its key
	 */
	InformerRegistry(ScopedInformer.Settings settings, WrittenVersions written,
			Function<InformerKey, CostTracker> costs) {
		this.settings = settings;
		this.written = written;
		this.costs = costs;
	}

	/**
	 * Returns the informer of a key, registering it if it is new, with the indexes of its
	 * kind and the read-your-writes observer.
	 * @param <T> the model type stored
	 * @param key the key
	 * @param ask whether to count it as asked for
	 * @return the informer
	 */
	@SuppressWarnings("unchecked")
	synchronized <T extends KubernetesObject> ScopedInformer<T> register(InformerKey key, boolean ask) {
		ScopedInformer<T> informer = (ScopedInformer<T>) this.informers.get(key);
		if (informer == null) {
			informer = new ScopedInformer<>(key, this.settings, this.costs.apply(key));
			informer.addEventHandler(new WriteObserver<>(this.written, key.type()));
			if (!key.metadataOnly()) {
				for (CacheIndex<?> index : this.indexes.getOrDefault(key.type(), Map.of()).values()) {
					attach(informer, index);
				}
			}
			this.informers.put(key, informer);
			for (Consumer<Informer<?>> listener : this.registeredListeners) {
				listener.accept(informer);
			}
		}
		if (ask) {
			this.asked.merge(key, 1, Integer::sum);
		}
		return informer;
	}

	/**
	 * Gives back a member of an informer of the namespace set that leaves it, and
	 * unregisters it unless someone else asks for it, forgetting the writes of its
	 * namespace if no other informer of the kind holds it.
	 * @param informer the member's informer
	 * @param asked whether the member was asked for
	 * @return {@code true} if it was unregistered and must be stopped
	 */
	synchronized boolean leave(ScopedInformer<?> informer, boolean asked) {
		InformerKey key = informer.key();
		if (this.informers.get(key) != informer) {
			return false;
		}
		int left = asked ? this.asked.merge(key, -1, Integer::sum) : this.asked.getOrDefault(key, 0);
		if (left > 0) {
			return false;
		}
		this.informers.remove(key);
		this.asked.remove(key);
		for (Consumer<Informer<?>> listener : this.unregisteredListeners) {
			listener.accept(informer);
		}
		if (key.namespace() != null && this.informers.keySet()
			.stream()
			.noneMatch((other) -> other.type() == key.type()
					&& (other.namespace() == null || other.namespace().equals(key.namespace())))) {
			// no informer will see these writes: reads must not wait for them
			this.written.forget(key.type(), key.namespace());
		}
		return true;
	}

	/**
	 * Gives back a registered informer, pausing it once given back as often as it was
	 * asked for (under the lock: an informer asked for again meanwhile is started after
	 * this).
	 * @param informer the informer
	 */
	synchronized void release(ScopedInformer<?> informer) {
		if (this.informers.get(informer.key()) != informer) {
			return;
		}
		Integer left = this.asked.computeIfPresent(informer.key(), (asking, count) -> count - 1);
		if (left != null && left <= 0) {
			informer.pause();
		}
	}

	/**
	 * Returns the registered informers.
	 * @return a new list, in the order they were registered
	 */
	synchronized List<ScopedInformer<?>> informers() {
		return new ArrayList<>(this.informers.values());
	}

	/**
	 * Declares an index of a kind, for the informers registered from now on.
	 * @param index the index
	 * @return the registered informers of the kind's whole objects, which the caller
	 * attaches it to outside the lock (building waits for the store's writer, whose index
	 * function may read the cache)
	 * @throws IllegalArgumentException if the kind has another index of that name
	 */
	synchronized List<ScopedInformer<?>> declare(CacheIndex<?> index) {
		Map<String, CacheIndex<?>> declared = this.indexes.computeIfAbsent(index.type(),
				(type) -> new LinkedHashMap<>());
		CacheIndex<?> existing = declared.putIfAbsent(index.name(), index);
		if (existing != null && existing != index) {
			throw new IllegalArgumentException(index.type().getSimpleName() + " has an index named '" + index.name()
					+ "' already: give this one another name, or declare one CacheIndex and share it");
		}
		List<ScopedInformer<?>> ofKind = new ArrayList<>();
		for (ScopedInformer<?> informer : this.informers.values()) {
			if (informer.key().type() == index.type() && !informer.key().metadataOnly()) {
				ofKind.add(informer);
			}
		}
		return ofKind;
	}

	/**
	 * Returns the names of a kind's indexes.
	 * @param type the model class
	 * @return the names, in the order they were declared
	 */
	synchronized List<String> indexNames(Class<?> type) {
		return List.copyOf(this.indexes.getOrDefault(type, Map.of()).keySet());
	}

	/**
	 * Calls a listener for every informer registered so far and, from now on, for every
	 * informer as it is registered.
	 * @param listener the listener
	 */
	synchronized void onRegistered(Consumer<Informer<?>> listener) {
		this.registeredListeners.add(listener);
		this.informers.values().forEach(listener);
	}

	/**
	 * Calls a listener for every informer unregistered from now on.
	 * @param listener the listener
	 */
	void onUnregistered(Consumer<Informer<?>> listener) {
		this.unregisteredListeners.add(listener);
	}

	/**
	 * Adds an index to an informer, building it from what the informer holds.
	 * @param informer an informer of the index's kind
	 * @param index the index
	 */
	@SuppressWarnings("unchecked")
	static <T extends KubernetesObject> void attach(ScopedInformer<T> informer, CacheIndex<?> index) {
		informer.addIndex((CacheIndex<T>) index);
	}

	/**
	 * Tells the written versions what an informer sees, so that a write is forgotten as
	 * soon as the cache has it, whether or not anyone reads it.
	 */
	private record WriteObserver<T extends KubernetesObject>(WrittenVersions written,
			Class<?> type) implements ResourceEventHandler<T> {

		@Override
		public void onAdd(T object) {
			this.written.observed(this.type, object, false);
		}

		@Override
		public void onUpdate(T old, T object) {
			this.written.observed(this.type, object, false);
		}

		@Override
		public void onDelete(T object, boolean finalStateUnknown) {
			this.written.observed(this.type, object, true);
		}

	}

}
