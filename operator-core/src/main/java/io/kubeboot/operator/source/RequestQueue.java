package io.kubeboot.operator.source;

import java.time.Duration;

import io.kubeboot.operator.reconcile.Request;

/**
 * The part of a controller's work queue a {@link Source} may use. A request already
 * waiting is not queued twice; one being reconciled is reconciled again afterwards.
 * Thread-safe and non-blocking.
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

}
