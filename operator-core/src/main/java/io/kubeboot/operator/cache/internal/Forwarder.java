package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import io.kubeboot.operator.cache.InformerEventHandler;
import io.kubeboot.operator.cache.internal.NamespaceSetInformer.Member;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;

/**
 * Hands one member informer's events to one handler of a {@link NamespaceSetInformer}
 * while the membership it serves lasts, telling the adds of an initial list from the
 * others as the informer told them.
 * <p>
 * It is registered with the informer once, and kept for as long as the informer is
 * registered with the cache: client-java's informers cannot take a handler back, and each
 * registration adds a listener with a thread of its own, so a namespace that leaves and
 * joins again reuses it. Each delivery takes a lock and checks the membership under it:
 * once the membership ended and {@link #awaitDelivered} returned, no event reaches the
 * handler, not even one under way when the namespace left. A membership that begins hands
 * the handler every object the informer holds, as the adds of an initial list, under the
 * same lock, so that the handler is never called by two threads at once.
 *
 * @param <T> the model type stored
 */
final class Forwarder<T extends KubernetesObject> implements InformerEventHandler<T> {

	private final ScopedInformer<T> informer;

	private final ResourceEventHandler<T> handler;

	/** Held by every delivery, and by a membership's replay. */
	private final ReentrantLock delivering = new ReentrantLock();

	/** The membership served: it delivers while it is active. */
	private volatile Member<T> serving;

	/** Events the informer delivered while no membership was active. */
	private final AtomicLong dropped = new AtomicLong();

	/**
	 * Creates the forwarder of a handler for a membership that begins; registered with
	 * the informer, it receives what the informer holds from client-java, as initial
	 * adds.
	 * @param informer the member informer
	 * @param handler the handler
	 * @param member the membership
	 */
	Forwarder(ScopedInformer<T> informer, ResourceEventHandler<T> handler, Member<T> member) {
		this.informer = informer;
		this.handler = handler;
		this.serving = member;
	}

	/**
	 * Serves a membership that begins again, handing the handler every object the
	 * informer holds as the adds of an initial list (an object changed meanwhile may then
	 * arrive again as an update). Does nothing if it serves that membership already.
	 * @param member the membership
	 */
	void serve(Member<T> member) {
		this.delivering.lock();
		try {
			if (this.serving == member) {
				return;
			}
			this.serving = member;
			if (member.active()) {
				for (T object : this.informer.list()) {
					add(object, true);
				}
			}
		}
		finally {
			this.delivering.unlock();
		}
	}

	/**
	 * Waits until no delivery is under way: one that began before its membership ended
	 * has then reached the handler, and none will after.
	 * @param timeout how long to wait at most
	 * @return {@code true} if none is under way, {@code false} if one still was at the
	 * timeout
	 * @throws InterruptedException if interrupted while waiting
	 */
	boolean awaitDelivered(Duration timeout) throws InterruptedException {
		if (!this.delivering.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
			return false;
		}
		this.delivering.unlock();
		return true;
	}

	/**
	 * Returns how many events the informer delivered while no membership was active.
	 * @return the number of events not handed on
	 */
	long dropped() {
		return this.dropped.get();
	}

	@Override
	public void onAdd(T object, boolean inInitialList) {
		this.delivering.lock();
		try {
			if (live()) {
				add(object, inInitialList);
			}
		}
		finally {
			this.delivering.unlock();
		}
	}

	@Override
	public void onUpdate(T oldObject, T newObject) {
		this.delivering.lock();
		try {
			if (live()) {
				this.handler.onUpdate(oldObject, newObject);
			}
		}
		finally {
			this.delivering.unlock();
		}
	}

	@Override
	public void onDelete(T object, boolean deletedFinalStateUnknown) {
		this.delivering.lock();
		try {
			if (live()) {
				this.handler.onDelete(object, deletedFinalStateUnknown);
			}
		}
		finally {
			this.delivering.unlock();
		}
	}

	private boolean live() {
		if (this.serving.active()) {
			return true;
		}
		this.dropped.incrementAndGet();
		return false;
	}

	private void add(T object, boolean inInitialList) {
		if (this.handler instanceof InformerEventHandler<T> aware) {
			aware.onAdd(object, inInitialList);
		}
		else {
			this.handler.onAdd(object);
		}
	}

}
