package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerCost;
import io.kubeboot.operator.cache.InformerEventHandler;
import io.kubeboot.operator.cache.InformerKey;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.jspecify.annotations.Nullable;

/**
 * An {@link Informer} without an API server: the test adds the objects, and every add
 * reaches the handlers at once, on the calling thread.
 *
 * @param <T> the model type
 */
final class FakeInformer<T extends KubernetesObject> implements Informer<T> {

	private final InformerKey key;

	private final List<T> objects = new CopyOnWriteArrayList<>();

	private final List<ResourceEventHandler<T>> handlers = new CopyOnWriteArrayList<>();

	private volatile boolean synced = true;

	/** Namespaces whose objects are not listed yet. */
	private final Set<String> unsyncedNamespaces = ConcurrentHashMap.newKeySet();

	private final AtomicInteger unsyncedAnswers = new AtomicInteger();

	FakeInformer(Class<T> type) {
		this.key = new InformerKey(type, null, null);
	}

	/**
	 * Caches an object and tells the handlers about it.
	 * @param object the object
	 */
	void add(T object) {
		this.objects.add(object);
		this.handlers.forEach((handler) -> handler.onAdd(object));
	}

	/**
	 * Caches an object and tells the handlers about it as an add of the informer's
	 * initial list.
	 * @param object the object
	 */
	void addFromInitialList(T object) {
		this.objects.add(object);
		this.handlers.forEach((handler) -> {
			if (handler instanceof InformerEventHandler<T> aware) {
				aware.onAdd(object, true);
			}
			else {
				handler.onAdd(object);
			}
		});
	}

	/**
	 * Removes a cached object and tells the handlers about the delete.
	 * @param object the object
	 */
	void delete(T object) {
		this.objects.remove(object);
		this.handlers.forEach((handler) -> handler.onDelete(object, false));
	}

	/**
	 * Replaces a cached object and tells the handlers about the update.
	 * @param oldObject the cached version
	 * @param newObject the new version
	 */
	void update(T oldObject, T newObject) {
		this.objects.remove(oldObject);
		this.objects.add(newObject);
		this.handlers.forEach((handler) -> handler.onUpdate(oldObject, newObject));
	}

	/**
	 * Sets whether the informer has synced.
	 * @param synced whether it has
	 */
	void synced(boolean synced) {
		this.synced = synced;
	}

	/**
	 * Sets whether a namespace's objects were listed, as an informer of the manager's
	 * namespace set tells it.
	 * @param namespace the namespace
	 * @param synced whether they were
	 */
	void synced(String namespace, boolean synced) {
		if (synced) {
			this.unsyncedNamespaces.remove(namespace);
		}
		else {
			this.unsyncedNamespaces.add(namespace);
		}
	}

	@Override
	public boolean hasSynced(@Nullable String namespace) {
		boolean synced = this.synced && (namespace == null || !this.unsyncedNamespaces.contains(namespace));
		if (!synced) {
			this.unsyncedAnswers.incrementAndGet();
		}
		return synced;
	}

	/**
	 * Returns how often {@link #hasSynced(String)} answered that a namespace has not
	 * synced.
	 * @return the number of such answers
	 */
	int unsyncedAnswers() {
		return this.unsyncedAnswers.get();
	}

	@Override
	public InformerKey key() {
		return this.key;
	}

	@Override
	public void addEventHandler(ResourceEventHandler<T> handler) {
		this.handlers.add(handler);
	}

	@Override
	public boolean hasSynced() {
		return this.synced && this.unsyncedNamespaces.isEmpty();
	}

	@Override
	public InformerCost cost() {
		return InformerCost.counted(this.objects.size());
	}

	@Override
	public List<T> list() {
		return List.copyOf(this.objects);
	}

	@Override
	public List<T> list(String namespace) {
		return this.objects.stream()
			.filter((object) -> Objects.equals(object.getMetadata().getNamespace(), namespace))
			.toList();
	}

	@Override
	public Optional<T> get(@Nullable String namespace, String name) {
		return this.objects.stream()
			.filter((object) -> Objects.equals(object.getMetadata().getNamespace(), namespace)
					&& object.getMetadata().getName().equals(name))
			.findFirst();
	}

	@Override
	public @Nullable String lastError() {
		return null;
	}

	@Override
	public @Nullable Duration failingFor() {
		return null;
	}

	@Override
	public Duration silentFor() {
		return Duration.ZERO;
	}

	@Override
	public long restarts() {
		return 0;
	}

	@Override
	public long undecodableObjects() {
		return 0;
	}

	@Override
	public @Nullable Duration restartingFor() {
		return null;
	}

}
