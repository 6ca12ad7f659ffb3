package io.kubeboot.operator.workqueue;

/**
 * Receives the measurements of one {@link WorkQueue}. They map to controller-runtime's
 * Prometheus series as follows:
 * <ul>
 * <li>{@link #added()}: {@code workqueue_adds_total};</li>
 * <li>{@link #depth(int)}: {@code workqueue_depth};</li>
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
	 * it changes.
	 * @param depth the number of items ready to be handed out
	 */
	default void depth(int depth) {
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
