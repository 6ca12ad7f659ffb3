package io.kubeboot.operator.source;

import java.time.Duration;

import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.workqueue.WorkQueue;

/**
 * The part of a controller's work queue a {@link Source} may use. A request already
 * waiting is not queued twice; one being reconciled is reconciled again afterwards.
 * Thread-safe and non-blocking.
 * <p>
 * Requests carry a priority: with the controller's priority queue (the default) a worker
 * takes the waiting request of the highest priority first. {@link #add(Request)} uses
 * {@link WorkQueue#DEFAULT_PRIORITY}, the priority of changes seen on a watch; a source
 * whose requests carry no news (a periodic re-check) passes
 * {@link WorkQueue#LOW_PRIORITY}, so that they wait behind live changes.
 */
public interface RequestQueue {

	/**
	 * Queues a request to be reconciled as soon as a worker is free.
	 * @param request the request
	 */
	void add(Request request);

	/**
	 * Queues a request to be reconciled once a delay has passed.
	 * @param request the request
	 * @param delay the delay; zero or negative queues at once
	 */
	void addAfter(Request request, Duration delay);

	/**
	 * Queues a request at a priority. A request already waiting at a lower priority is
	 * raised to this one; a lower priority never lowers it. A queue without priorities
	 * ignores it, as this default method does.
	 * @param request the request
	 * @param priority the priority, higher first: {@link WorkQueue#DEFAULT_PRIORITY},
	 * {@link WorkQueue#LOW_PRIORITY} or a value of your own
	 */
	default void add(Request request, int priority) {
		add(request);
	}

	/**
	 * Queues a request at a priority once a delay has passed. A queue without priorities
	 * ignores the priority, as this default method does.
	 * @param request the request
	 * @param delay the delay; zero or negative queues at once
	 * @param priority the priority, higher first
	 */
	default void addAfter(Request request, Duration delay, int priority) {
		addAfter(request, delay);
	}

}
