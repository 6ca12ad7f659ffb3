package io.kubeboot.operator.benchmarks.jmh;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubeboot.operator.workqueue.WorkQueues;
import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;
import io.kubernetes.client.extended.workqueue.ratelimiter.DefaultControllerRateLimiter;

/**
 * The two rate-limiting work queues behind one interface: the starter's (the priority
 * queue its controllers use by default) and client-java-extended's, each with its default
 * controller rate limiter.
 *
 * @param <T> the item type
 */
public interface QueueUnderTest<T> {

	/**
	 * The starter's queue.
	 */
	String KUBEBOOT = "kubeboot";

	/**
	 * client-java-extended's queue.
	 */
	String CLIENT_JAVA_EXTENDED = "client-java-extended";

	void add(T item);

	/**
	 * Blocks until an item is ready.
	 * @return the item, or {@code null} once shut down
	 * @throws InterruptedException if interrupted
	 */
	T get() throws InterruptedException;

	void done(T item);

	int len();

	void shutDown();

	static <T> QueueUnderTest<T> create(String which) {
		return switch (which) {
			case KUBEBOOT -> new Kubeboot<>(WorkQueues.newPriorityQueue("benchmark",
					RateLimiters.<T>defaultControllerRateLimiter(), WorkQueueMetrics.NOOP));
			case CLIENT_JAVA_EXTENDED -> {
				ExecutorService delayer = Executors.newSingleThreadExecutor();
				yield new ClientJavaExtended<>(
						new DefaultRateLimitingQueue<>(delayer, new DefaultControllerRateLimiter<>()), delayer);
			}
			default -> throw new IllegalArgumentException("Unknown queue " + which);
		};
	}

	/**
	 * {@link WorkQueues#newPriorityQueue}.
	 */
	record Kubeboot<T>(WorkQueue<T> queue) implements QueueUnderTest<T> {

		@Override
		public void add(T item) {
			this.queue.add(item);
		}

		@Override
		public T get() throws InterruptedException {
			return this.queue.get();
		}

		@Override
		public void done(T item) {
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

	}

	/**
	 * {@link DefaultRateLimitingQueue}.
	 */
	record ClientJavaExtended<T>(DefaultRateLimitingQueue<T> queue,
			ExecutorService delayer) implements QueueUnderTest<T> {

		@Override
		public void add(T item) {
			this.queue.add(item);
		}

		@Override
		public T get() throws InterruptedException {
			return this.queue.get();
		}

		@Override
		public void done(T item) {
			this.queue.done(item);
		}

		@Override
		public int len() {
			return this.queue.length();
		}

		@Override
		public void shutDown() {
			this.queue.shutDown();
			this.delayer.shutdownNow();
		}

	}

}
