package io.kubeboot.operator.controller;

import java.time.Duration;

import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.workqueue.WorkQueue;

/**
 * The work queue of one run of a controller with the triggers kept beside it, held as one
 * so that no add records its trigger into one run and adds its request to another. Every
 * add records its trigger first, then adds the request; neither happens once the queue is
 * shutting down, and what was recorded is forgotten once the run's workers are done, so no
 * trigger outlives its run.
 */
final class TriggeredQueue {

	private final WorkQueue<Request> queue;

	private final PendingTriggers triggers;

	TriggeredQueue(WorkQueue<Request> queue, PendingTriggers triggers) {
		this.queue = queue;
		this.triggers = triggers;
	}

	WorkQueue<Request> queue() {
		return this.queue;
	}

	PendingTriggers triggers() {
		return this.triggers;
	}

	/**
	 * Queues a request now, with why.
	 * @param request the request
	 * @param priority its priority
	 * @param trigger why it is queued
	 */
	void add(Request request, int priority, ReconcileTrigger trigger) {
		if (!this.queue.isShuttingDown()) {
			this.triggers.record(request, trigger);
			this.queue.add(request, priority);
		}
	}

	/**
	 * Queues a request after a delay, with why.
	 * @param request the request
	 * @param delay the delay
	 * @param priority its priority
	 * @param trigger why it is queued
	 */
	void addAfter(Request request, Duration delay, int priority, ReconcileTrigger trigger) {
		if (!this.queue.isShuttingDown()) {
			this.triggers.schedule(request, trigger, delay);
			this.queue.addAfter(request, delay, priority);
		}
	}

	/**
	 * Forgets every trigger recorded, once the run's workers are done: an add that raced
	 * with the queue's shut down may have recorded one for a request the queue ignored.
	 */
	void forgetTriggers() {
		this.triggers.clear();
	}

}
