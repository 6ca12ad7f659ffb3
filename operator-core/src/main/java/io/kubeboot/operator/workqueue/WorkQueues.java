package io.kubeboot.operator.workqueue;

/**
 * Factory methods for {@link WorkQueue} instances.
 * <p>
 * Each queue owns at most one daemon thread, named {@code workqueue-<name>-delay},
 * started on its first delayed add and stopped by {@link WorkQueue#shutDown()}: a queue
 * must be shut down when it is no longer used.
 */
public final class WorkQueues {

	private WorkQueues() {
	}

	/**
	 * Creates a rate-limiting queue without priorities (first in, first out) with no
	 * metrics, measuring time with {@link System#nanoTime()}.
	 * @param <T> the type of the items
	 * @param name the name of the queue, used for its thread and metrics
	 * @param rateLimiter the rate limiter used by {@link WorkQueue#addRateLimited}
	 * @return a new queue
	 */
	public static <T> WorkQueue<T> newRateLimitingQueue(String name, RateLimiter<T> rateLimiter) {
		return newRateLimitingQueue(name, rateLimiter, WorkQueueMetrics.NOOP, Ticker.system());
	}

	/**
	 * Creates a rate-limiting queue, measuring time with {@link System#nanoTime()}.
	 * @param <T> the type of the items
	 * @param name the name of the queue, used for its thread and metrics
	 * @param rateLimiter the rate limiter used by {@link WorkQueue#addRateLimited}
	 * @param metrics the metrics to report to, {@link WorkQueueMetrics#NOOP} for none
	 * @return a new queue
	 */
	public static <T> WorkQueue<T> newRateLimitingQueue(String name, RateLimiter<T> rateLimiter,
			WorkQueueMetrics metrics) {
		return newRateLimitingQueue(name, rateLimiter, metrics, Ticker.system());
	}

	/**
	 * Creates a rate-limiting queue that measures delays and durations with the given
	 * ticker. A ticker other than {@link Ticker#system()} is meant for tests: the delay
	 * thread re-reads it whenever an earlier item is scheduled or a real-time wait of the
	 * computed remaining delay ends.
	 * @param <T> the type of the items
	 * @param name the name of the queue, used for its thread and metrics
	 * @param rateLimiter the rate limiter used by {@link WorkQueue#addRateLimited}
	 * @param metrics the metrics to report to, {@link WorkQueueMetrics#NOOP} for none
	 * @param ticker the monotonic time source
	 * @return a new queue
	 */
	public static <T> WorkQueue<T> newRateLimitingQueue(String name, RateLimiter<T> rateLimiter,
			WorkQueueMetrics metrics, Ticker ticker) {
		return new DefaultWorkQueue<>(name, rateLimiter, metrics, ticker, false);
	}

	/**
	 * Creates a rate-limiting priority queue, measuring time with
	 * {@link System#nanoTime()}: the ready item of the highest priority is handed out
	 * first, items of one priority in the order they became ready, as in
	 * controller-runtime's priority queue (see {@link WorkQueue} for how priorities
	 * combine). What a controller uses unless told otherwise.
	 * @param <T> the type of the items
	 * @param name the name of the queue, used for its thread and metrics
	 * @param rateLimiter the rate limiter used by {@link WorkQueue#addRateLimited}
	 * @param metrics the metrics to report to, {@link WorkQueueMetrics#NOOP} for none
	 * @return a new queue
	 */
	public static <T> WorkQueue<T> newPriorityQueue(String name, RateLimiter<T> rateLimiter, WorkQueueMetrics metrics) {
		return newPriorityQueue(name, rateLimiter, metrics, Ticker.system());
	}

	/**
	 * Creates a rate-limiting priority queue that measures delays and durations with the
	 * given ticker; see
	 * {@link #newRateLimitingQueue(String, RateLimiter, WorkQueueMetrics, Ticker)} for
	 * what a ticker other than {@link Ticker#system()} does.
	 * @param <T> the type of the items
	 * @param name the name of the queue, used for its thread and metrics
	 * @param rateLimiter the rate limiter used by {@link WorkQueue#addRateLimited}
	 * @param metrics the metrics to report to, {@link WorkQueueMetrics#NOOP} for none
	 * @param ticker the monotonic time source
	 * @return a new queue
	 */
	public static <T> WorkQueue<T> newPriorityQueue(String name, RateLimiter<T> rateLimiter, WorkQueueMetrics metrics,
			Ticker ticker) {
		return new DefaultWorkQueue<>(name, rateLimiter, metrics, ticker, true);
	}

}
