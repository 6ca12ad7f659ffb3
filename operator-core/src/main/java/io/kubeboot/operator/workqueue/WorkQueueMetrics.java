package io.kubeboot.operator.workqueue;

/**
 * Receives the measurements of one {@link WorkQueue}. They map to controller-runtime's
 * Prometheus series as follows:
 * <ul>
 * <li>{@link #added()}: {@code workqueue_adds_total};</li>
 * <li>{@link #depth(int)}: {@code workqueue_depth} of a queue without priorities
 * (controller-runtime's {@code priority=""}), and {@link #depth(int, int)}: one
 * {@code workqueue_depth{priority}} series per priority of a priority queue;</li>
 * <li>{@link #queueLatency(long)}: {@code workqueue_queue_duration_seconds};</li>
 * <li>{@link #workDuration(long)}: {@code workqueue_work_duration_seconds};</li>
 * <li>{@link #retried()}: {@code workqueue_retries_total}.</li>
 * </ul>
 * {@code workqueue_unfinished_work_seconds} and
 * {@code workqueue_longest_running_processor_seconds} are gauges to be sampled from
 * {@link WorkQueue#unfinishedWorkNanos()} and
 * {@link WorkQueue#longestRunningProcessorNanos()}.
 * <p>
 * Callbacks are invoked synchronously, possibly while the queue holds its internal lock,
 * from any thread: implementations must be thread-safe, fast, must not block, must not
 * throw and must not call back into the queue. Every method does nothing by default.
 */
public interface WorkQueueMetrics {

	/**
	 * Metrics that discard every measurement.
	 */
	WorkQueueMetrics NOOP = new WorkQueueMetrics() {
	};

	/**
	 * Called once for every add that is accepted: as in client-go, an add is counted
	 * unless it is ignored because the queue is shutting down or de-duplicated because
	 * the item is already pending. A delayed add is counted when its delay has passed and
	 * it reaches the queue.
	 */
	default void added() {
	}

	/**
	 * Called with the new number of ready items (see {@link WorkQueue#len()}) every time
	 * it changes, and with {@code 0} when the queue is created. A priority queue calls it
	 * after {@link #depth(int, int)}, with the total over all priorities.
	 * @param depth the number of items ready to be handed out
	 */
	default void depth(int depth) {
	}

	/**
	 * Called by a priority queue only, before {@link #depth(int)}, with the new number of
	 * ready items of one priority every time it changes, and with the
	 * {@link WorkQueue#DEFAULT_PRIORITY default priority} and {@code 0} when the queue is
	 * created (so the first call a priority queue makes is this one).
	 * @param priority the priority
	 * @param depth the number of items of that priority ready to be handed out
	 */
	default void depth(int priority, int depth) {
	}

	/**
	 * Called when an item is handed out by {@link WorkQueue#get()} or
	 * {@link WorkQueue#poll}, with the time it spent ready in the queue.
	 * @param nanos the time from becoming ready to being handed out, in nanoseconds
	 */
	default void queueLatency(long nanos) {
	}

	/**
	 * Called when an item is {@link WorkQueue#done done}, with the time it was being
	 * processed.
	 * @param nanos the time from being handed out to being done, in nanoseconds
	 */
	default void workDuration(long nanos) {
	}

	/**
	 * Called on every {@link WorkQueue#addRateLimited} that is not ignored because the
	 * queue is shutting down.
	 */
	default void retried() {
	}

}
