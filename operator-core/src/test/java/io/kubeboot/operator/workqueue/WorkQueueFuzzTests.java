package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Concurrency fuzzing of {@link WorkQueue}: producers add a small key space in random
 * ways while workers process it, and the queue must neither lose an add nor process a key
 * twice at the same time.
 */
class WorkQueueFuzzTests {

	private static final int KEYS = 100;

	private static final int PRODUCERS = 8;

	private static final int OPERATIONS_PER_PRODUCER = 1_500;

	private static final int WORKERS = 16;

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private static final int[] PRIORITIES = { WorkQueue.LOW_PRIORITY, WorkQueue.DEFAULT_PRIORITY, 10 };

	@ParameterizedTest(name = "seed {0}")
	@ValueSource(longs = { 1, 2, 3, 4, 5 })
	@Timeout(120)
	void noAddIsLostAndNoKeyIsProcessedConcurrently(long seed) throws InterruptedException {
		fuzz(WorkQueues.newRateLimitingQueue("fuzz-" + seed, rateLimiter()), seed, false);
	}

	@ParameterizedTest(name = "seed {0}")
	@ValueSource(longs = { 1, 2, 3, 4, 5 })
	@Timeout(120)
	void noAddOfAnyPriorityIsLostAndNoKeyIsProcessedConcurrently(long seed) throws InterruptedException {
		fuzz(WorkQueues.newPriorityQueue("fuzz-priorities-" + seed, rateLimiter(), WorkQueueMetrics.NOOP), seed, true);
	}

	private static RateLimiter<Integer> rateLimiter() {
		return RateLimiters.controllerRateLimiter(Duration.ofMillis(1), Duration.ofMillis(20), 20_000, 100);
	}

	private void fuzz(WorkQueue<Integer> queue, long seed, boolean priorities) throws InterruptedException {
		Fuzz fuzz = new Fuzz(queue, priorities);
		try {
			List<Thread> workers = start(WORKERS, "worker",
					(index) -> fuzz.work(new SplittableRandom(seed * 1000 + index)));
			CountDownLatch go = new CountDownLatch(1);
			List<Thread> producers = start(PRODUCERS, "producer",
					(index) -> fuzz.produce(new SplittableRandom(seed * 100 + index), go));
			go.countDown();
			join(producers);
			await().atMost(DEADLINE).untilAsserted(() -> {
				assertThat(fuzz.lostKeys()).as("keys whose last add was not followed by a processing").isEmpty();
				assertThat(isIdle(queue)).as("queue idle").isTrue();
			});
			assertThat(fuzz.concurrentProcessings).as("concurrent processings of a key").hasValue(0);
			assertThat(fuzz.processings).hasPositiveValue();
			queue.shutDown();
			join(workers);
			assertThat(fuzz.failures).isEmpty();
		}
		finally {
			queue.shutDown();
		}
	}

	private static boolean isIdle(WorkQueue<Integer> queue) {
		return queue.len() == 0 && ((DefaultWorkQueue<Integer>) queue).delayedLen() == 0
				&& queue.longestRunningProcessorNanos() == 0;
	}

	private static List<Thread> start(int count, String name, IndexedTask task) {
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			int index = i;
			Thread thread = new Thread(() -> task.run(index), name + "-" + i);
			thread.setDaemon(true);
			thread.start();
			threads.add(thread);
		}
		return threads;
	}

	private static void join(List<Thread> threads) throws InterruptedException {
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		for (Thread thread : threads) {
			thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
			assertThat(thread.isAlive()).as("%s finished", thread.getName()).isFalse();
		}
	}

	@FunctionalInterface
	private interface IndexedTask {

		void run(int index);

	}

	/**
	 * The shared state of one run. Every add and every processing start takes a stamp
	 * from one counter: a key is lost if its last add has a greater stamp than its last
	 * processing start.
	 */
	private static final class Fuzz {

		private final WorkQueue<Integer> queue;

		private final boolean priorities;

		private final AtomicLong stamps = new AtomicLong();

		private final AtomicLongArray lastAdd = new AtomicLongArray(KEYS);

		private final AtomicLongArray lastProcessingStart = new AtomicLongArray(KEYS);

		private final AtomicIntegerArray inProgress = new AtomicIntegerArray(KEYS);

		final AtomicInteger concurrentProcessings = new AtomicInteger();

		final AtomicInteger processings = new AtomicInteger();

		final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();

		Fuzz(WorkQueue<Integer> queue, boolean priorities) {
			this.queue = queue;
			this.priorities = priorities;
		}

		void produce(SplittableRandom random, CountDownLatch go) {
			try {
				go.await();
				for (int i = 0; i < OPERATIONS_PER_PRODUCER; i++) {
					int key = random.nextInt(KEYS);
					this.lastAdd.accumulateAndGet(key, this.stamps.incrementAndGet(), Math::max);
					int priority = this.priorities ? PRIORITIES[random.nextInt(PRIORITIES.length)]
							: WorkQueue.DEFAULT_PRIORITY;
					switch (random.nextInt(3)) {
						case 0 -> this.queue.add(key, priority);
						case 1 -> this.queue.addAfter(key, Duration.ofNanos(random.nextLong(5_000_000)), priority);
						default -> this.queue.addRateLimited(key, priority);
					}
					if (random.nextInt(50) == 0) {
						Thread.yield();
					}
				}
			}
			catch (Throwable ex) {
				this.failures.add(ex);
			}
		}

		void work(SplittableRandom random) {
			try {
				Integer key;
				while ((key = this.queue.get()) != null) {
					process(key, random);
				}
			}
			catch (Throwable ex) {
				this.failures.add(ex);
			}
		}

		private void process(int key, SplittableRandom random) {
			long stamp = this.stamps.incrementAndGet();
			try {
				if (this.inProgress.incrementAndGet(key) != 1) {
					this.concurrentProcessings.incrementAndGet();
				}
				this.lastProcessingStart.accumulateAndGet(key, stamp, Math::max);
				this.processings.incrementAndGet();
				if (random.nextInt(4) == 0) {
					LockSupport.parkNanos(random.nextLong(200_000));
				}
				if (random.nextInt(3) == 0) {
					this.queue.forget(key);
				}
				this.inProgress.decrementAndGet(key);
			}
			finally {
				this.queue.done(key);
			}
		}

		List<Integer> lostKeys() {
			List<Integer> lost = new ArrayList<>();
			for (int key = 0; key < KEYS; key++) {
				if (this.lastProcessingStart.get(key) < this.lastAdd.get(key)) {
					lost.add(key);
				}
			}
			return lost;
		}

	}

}
