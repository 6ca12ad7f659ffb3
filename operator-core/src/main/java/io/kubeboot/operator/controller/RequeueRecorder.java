package io.kubeboot.operator.controller;

import java.time.Duration;

import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import org.jspecify.annotations.Nullable;

/**
 * The work queue as a worker's reconcile sees it: every add of the request it reconciles
 * (a requeue or a retry) is recorded in the {@link PendingTriggers} first, with when it is
 * due, and the controller says why once the reconcile's outcome is known. A rate-limited
 * add asks the rate limiter here, as the queue would, so that its delay is known.
 */
final class RequeueRecorder implements WorkQueue<Request> {

	private final WorkQueue<Request> queue;

	private final RateLimiter<Request> rateLimiter;

	private final WorkQueueMetrics metrics;

	private final PendingTriggers triggers;

	/**
	 * Creates the view of a queue.
	 * @param queue the queue
	 * @param rateLimiter the queue's own rate limiter
	 * @param metrics the queue's own metrics
	 * @param triggers the triggers kept beside the queue
	 */
	RequeueRecorder(WorkQueue<Request> queue, RateLimiter<Request> rateLimiter, WorkQueueMetrics metrics,
			PendingTriggers triggers) {
		this.queue = queue;
		this.rateLimiter = rateLimiter;
		this.metrics = metrics;
		this.triggers = triggers;
	}

	@Override
	public String name() {
		return this.queue.name();
	}

	@Override
	public void add(Request item, int priority) {
		this.triggers.requeued(item, Duration.ZERO);
		this.queue.add(item, priority);
	}

	@Override
	public void addAfter(Request item, Duration delay, int priority) {
		this.triggers.requeued(item, delay);
		this.queue.addAfter(item, delay, priority);
	}

	@Override
	public void addRateLimited(Request item, int priority) {
		// what the queue does itself, but with the delay in hand
		if (this.queue.isShuttingDown()) {
			return;
		}
		this.metrics.retried();
		addAfter(item, this.rateLimiter.when(item), priority);
	}

	@Override
	public int priorityOf(Request item) {
		return this.queue.priorityOf(item);
	}

	@Override
	public void forget(Request item) {
		this.queue.forget(item);
	}

	@Override
	public int numRequeues(Request item) {
		return this.queue.numRequeues(item);
	}

	@Override
	public @Nullable Request get() throws InterruptedException {
		return this.queue.get();
	}

	@Override
	public @Nullable Request poll(Duration timeout) throws InterruptedException {
		return this.queue.poll(timeout);
	}

	@Override
	public void done(Request item) {
		this.queue.done(item);
	}

	@Override
	public int len() {
		return this.queue.len();
	}

	@Override
	public void shutDown() {
		this.queue.shutDown();
	}

	@Override
	public void shutDownWithDrain() {
		this.queue.shutDownWithDrain();
	}

	@Override
	public boolean shutDownWithDrain(Duration timeout) {
		return this.queue.shutDownWithDrain(timeout);
	}

	@Override
	public boolean isShuttingDown() {
		return this.queue.isShuttingDown();
	}

	@Override
	public long unfinishedWorkNanos() {
		return this.queue.unfinishedWorkNanos();
	}

	@Override
	public long longestRunningProcessorNanos() {
		return this.queue.longestRunningProcessorNanos();
	}

	@Override
	public String toString() {
		return this.queue.toString();
	}

}
