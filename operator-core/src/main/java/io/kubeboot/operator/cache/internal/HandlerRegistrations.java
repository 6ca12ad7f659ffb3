package io.kubeboot.operator.cache.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.cache.InformerEventHandler;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;

/**
 * The handlers registered with one client-java informer, each wrapped so that it can tell
 * the adds of an initial list from those of changes ({@link InformerEventHandler}).
 * client-java's informers do not say which is which, so the adds are counted: each
 * handler receives its notifications in the order the informer distributes them.
 * <ul>
 * <li>A handler registered before the informer's first list receives that list's objects
 * as its first adds, one per object (each object of the list is queued in client-java's
 * delta FIFO before any watch event, and a new object of a watch event queues behind
 * them), so once the first list is read, as many adds as it holds are initial.</li>
 * <li>A handler registered with a running informer first receives an add for every cached
 * object, as client-java replays them on the handler's own thread, at once; those are
 * initial too. They are counted before the registration, from the cache's size then, and
 * the count is lowered if the cache shrank meanwhile: a miscount by objects deleted
 * during the registration makes an initial add look like a change, never the
 * reverse.</li>
 * </ul>
 * Registration and the first list share a lock, so a handler never counts both.
 *
 * @param <T> the model type
 */
final class HandlerRegistrations<T extends KubernetesObject> {

	private final List<Registered<T>> registered = new CopyOnWriteArrayList<>();

	private boolean listed;

	/**
	 * Registers a handler with the informer these registrations belong to.
	 * @param informer the informer
	 * @param handler the handler
	 * @param running whether the informer runs already, so that client-java replays the
	 * cached objects to the handler
	 */
	synchronized void register(SharedIndexInformer<T> informer, ResourceEventHandler<T> handler, boolean running) {
		Registered<T> wrapped = new Registered<>(handler);
		if (!running) {
			this.registered.add(wrapped);
			informer.addEventHandler(wrapped);
			return;
		}
		// counted first: client-java's thread for the handler may deliver the replayed
		// adds before addEventHandler returns
		int before = informer.getIndexer().listKeys().size();
		wrapped.expectInitialAdds(before);
		informer.addEventHandler(wrapped);
		int after = informer.getIndexer().listKeys().size();
		if (after < before) {
			wrapped.expectFewerInitialAdds(before - after);
		}
		this.registered.add(wrapped);
	}

	/**
	 * Records that a list was read: the informer's first one makes as many adds initial
	 * for every handler registered so far.
	 * @param objects the number of objects in the list
	 */
	synchronized void listed(int objects) {
		if (this.listed) {
			return;
		}
		this.listed = true;
		this.registered.forEach((handler) -> handler.expectInitialAdds(objects));
	}

	/**
	 * A handler as registered with client-java: hands every event on, adds with whether
	 * they are initial.
	 *
	 * @param <T> the model type
	 */
	static final class Registered<T extends KubernetesObject> implements ResourceEventHandler<T> {

		private final ResourceEventHandler<T> handler;

		/** Adds still to come from an initial list. */
		private final AtomicLong initialAdds = new AtomicLong();

		Registered(ResourceEventHandler<T> handler) {
			this.handler = handler;
		}

		void expectInitialAdds(long adds) {
			if (adds > 0) {
				this.initialAdds.addAndGet(adds);
			}
		}

		void expectFewerInitialAdds(long adds) {
			this.initialAdds.getAndUpdate((left) -> Math.max(0, left - adds));
		}

		@Override
		public void onAdd(T object) {
			boolean initial = this.initialAdds.getAndUpdate((left) -> (left > 0) ? left - 1 : 0) > 0;
			if (this.handler instanceof InformerEventHandler<T> aware) {
				aware.onAdd(object, initial);
			}
			else {
				this.handler.onAdd(object);
			}
		}

		@Override
		public void onUpdate(T oldObject, T newObject) {
			this.handler.onUpdate(oldObject, newObject);
		}

		@Override
		public void onDelete(T object, boolean deletedFinalStateUnknown) {
			this.handler.onDelete(object, deletedFinalStateUnknown);
		}

	}

}
