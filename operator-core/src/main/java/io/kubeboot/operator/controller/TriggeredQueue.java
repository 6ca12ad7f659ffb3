package io.kubeboot.operator.controller;

import java.time.Duration;

import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.workqueue.WorkQueue;

/**
 * The work queue of one run of a controller with the triggers kept beside it, held as one
 * so that no add records its trigger into one run and adds its request to another. Every
 * add records its trigger first, then adds the request; neither happens once the queue is
 * shutting down, and what was recorded is forgotten once the run's workers are done, so
 * no trigger outlives its run.
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
	 * Takes the triggers of a request that are due, as a worker takes the request, and
	 * makes sure the queue brings the request back when a delayed group it leaves waiting
	 * is due. The triggers decide that a delayed group came due on their own clock read,
	 * the queue on its own: a delayed add made in between starts a group of its own here
	 * while the queue merges it into its earlier entry, which brings this take and
	 * nothing for the new group. Adding the request after the group's delay again costs
	 * nothing when the queue holds an entry for it already (it keeps the earlier one).
	 * @param request the request a worker took
	 * @return its triggers
	 */
	PendingTriggers.Taken take(Request request) {
		PendingTriggers.Taken taken = this.triggers.take(request);
		if (taken.nextDueIn() > 0) {
			this.queue.addAfter(request, Duration.ofNanos(taken.nextDueIn()), this.queue.priorityOf(request));
		}
		return taken;
	}

	/**
	 * Forgets every trigger recorded, once the run's workers are done: an add that raced
	 * with the queue's shut down may have recorded one for a request the queue ignored.
	 */
	void forgetTriggers() {
		this.triggers.clear();
	}

}
