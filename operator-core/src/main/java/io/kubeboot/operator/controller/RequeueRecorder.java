package io.kubeboot.operator.controller;

import java.time.Duration;

import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.Ticker;
import io.kubeboot.operator.workqueue.WorkQueue;
import org.jspecify.annotations.Nullable;

/**
 * The work queue as a worker's reconcile sees it: every add of the request it reconciles
 * (a requeue or a retry) is recorded in the {@link PendingTriggers} with when it is due,
 * and the controller says why once the reconcile's outcome is known. The request is
 * processing meanwhile, so no worker takes it before. A rate-limited add is the queue's
 * own; the queue's rate limiter, a {@link Delays}, tells the delay it chose.
 */
final class RequeueRecorder implements WorkQueue<Request> {

	/** No time: no delay was chosen. */
	static final long NONE = Long.MIN_VALUE;

	private final WorkQueue<Request> queue;

	private final Delays delays;

	private final PendingTriggers triggers;

	/**
	 * Creates the view of a queue.
	 * @param queue the queue
	 * @param delays the queue's own rate limiter
	 * @param triggers the triggers kept beside the queue
	 */
	RequeueRecorder(WorkQueue<Request> queue, Delays delays, PendingTriggers triggers) {
		this.queue = queue;
		this.delays = delays;
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
		this.delays.forget();
		this.queue.addRateLimited(item, priority);
		long dueAt = this.delays.chosenDueAt();
		if (dueAt != NONE) {
			this.triggers.requeuedUntil(item, dueAt);
		}
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

	/**
	 * A queue's rate limiter that tells, on the thread that asked, when the delay it
	 * chose last is due: the queue asks it on the thread of the rate-limited add, and
	 * reads its own clock after, so the time told is never later than the queue's, and
	 * the triggers find the retry due whenever the queue hands the request out for it.
	 */
	static final class Delays implements RateLimiter<Request> {

		private static final ThreadLocal<long[]> chosen = ThreadLocal.withInitial(() -> new long[] { NONE });

		private final RateLimiter<Request> rateLimiter;

		private final Ticker ticker;

		Delays(RateLimiter<Request> rateLimiter, Ticker ticker) {
			this.rateLimiter = rateLimiter;
			this.ticker = ticker;
		}

		@Override
		public Duration when(Request item) {
			long now = this.ticker.nanoTime();
			Duration delay = this.rateLimiter.when(item);
			chosen.get()[0] = now + Math.max(0, delay.toNanos());
			return delay;
		}

		@Override
		public void forget(Request item) {
			this.rateLimiter.forget(item);
		}

		@Override
		public int numRequeues(Request item) {
			return this.rateLimiter.numRequeues(item);
		}

		/** Forgets the delay chosen last on this thread. */
		void forget() {
			chosen.get()[0] = NONE;
		}

		/**
		 * Returns when the delay chosen last on this thread is due.
		 * @return the time on the ticker, {@link RequeueRecorder#NONE} if none was chosen
		 * since {@link #forget()}
		 */
		long chosenDueAt() {
			return chosen.get()[0];
		}

	}

}
