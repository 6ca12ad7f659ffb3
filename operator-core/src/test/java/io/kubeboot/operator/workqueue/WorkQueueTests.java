package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the {@link WorkQueue} created by {@link WorkQueues#newRateLimitingQueue}; the
 * priority queue passes them too ({@link PriorityWorkQueueTests}).
 */
@Timeout(60)
class WorkQueueTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private static final Duration LONG_DELAY = Duration.ofHours(1);

	private final List<WorkQueue<?>> queues = new ArrayList<>();

	@AfterEach
	void shutDownQueues() {
		this.queues.forEach(WorkQueue::shutDown);
	}

	@Test
	void addOfPendingItemIsDeduplicated() throws InterruptedException {
		WorkQueue<String> queue = newQueue("dedup");
		queue.add("a");
		queue.add("a");
		queue.add("a");
		assertThat(queue.len()).isOne();
		assertThat(queue.get()).isEqualTo("a");
		assertThat(queue.len()).isZero();
		assertThat(queue.poll(Duration.ZERO)).isNull();
	}

	@Test
	void itemsAreHandedOutInOrder() throws InterruptedException {
		WorkQueue<String> queue = newQueue("fifo");
		queue.add("a");
		queue.add("b");
		queue.add("c");
		assertThat(List.of(queue.get(), queue.get(), queue.get())).containsExactly("a", "b", "c");
	}

	@Test
	void addWhileProcessingIsHandedOutOnceAfterDone() throws InterruptedException {
		WorkQueue<String> queue = newQueue("dirty");
		queue.add("a");
		assertThat(queue.get()).isEqualTo("a");
		queue.add("a");
		queue.add("a");
		assertThat(queue.len()).isZero();
		assertThat(queue.poll(Duration.ZERO)).isNull();
		queue.done("a");
		assertThat(queue.len()).isOne();
		assertThat(queue.get()).isEqualTo("a");
		queue.done("a");
		assertThat(queue.len()).isZero();
		assertThat(queue.poll(Duration.ZERO)).isNull();
	}

	@Test
	void doneOfItemNotProcessingIsIgnored() throws InterruptedException {
		WorkQueue<String> queue = newQueue("stray-done");
		queue.add("a");
		queue.done("a");
		assertThat(queue.len()).isOne();
		assertThat(queue.get()).isEqualTo("a");
		queue.done("a");
		queue.done("a");
		assertThat(queue.len()).isZero();
	}

	@Test
	void lenCountsReadyItemsOnly() throws InterruptedException {
		WorkQueue<String> queue = newQueue("len");
		queue.add("a");
		queue.add("b");
		queue.addAfter("c", LONG_DELAY);
		assertThat(queue.len()).isEqualTo(2);
		assertThat(queue.get()).isEqualTo("a");
		assertThat(queue.len()).isOne();
		queue.add("a");
		assertThat(queue.len()).isOne();
	}

	@Test
	void addAfterWithoutPositiveDelayAddsNow() {
		WorkQueue<String> queue = newQueue("no-delay");
		queue.addAfter("a", Duration.ZERO);
		queue.addAfter("b", Duration.ofMillis(-5));
		assertThat(queue.len()).isEqualTo(2);
	}

	@Test
	void addAfterDeliversItemOnceDelayPassed() throws InterruptedException {
		WorkQueue<String> queue = newQueue("add-after");
		queue.addAfter("a", Duration.ofMillis(20));
		assertThat(queue.poll(DEADLINE)).isEqualTo("a");
		assertThat(delayedLen(queue)).isZero();
	}

	@Test
	void addAfterOfWaitingItemKeepsEarlierTime() throws InterruptedException {
		WorkQueue<String> queue = newQueue("earlier");
		queue.addAfter("a", LONG_DELAY);
		queue.addAfter("a", Duration.ofMillis(10));
		assertThat(delayedLen(queue)).isOne();
		assertThat(queue.poll(DEADLINE)).isEqualTo("a");
		assertThat(delayedLen(queue)).isZero();
	}

	@Test
	void addAfterOfWaitingItemIgnoresLaterTime() throws InterruptedException {
		WorkQueue<String> queue = newQueue("later");
		queue.addAfter("a", Duration.ofMillis(10));
		queue.addAfter("a", LONG_DELAY);
		assertThat(delayedLen(queue)).isOne();
		assertThat(queue.poll(DEADLINE)).isEqualTo("a");
		assertThat(delayedLen(queue)).isZero();
	}

	@Test
	void addAfterWithFakeTickerKeepsEarlierTime() throws InterruptedException {
		FakeTicker ticker = new FakeTicker();
		WorkQueue<String> queue = newQueue("fake-earlier", ticker);
		queue.addAfter("a", Duration.ofSeconds(10));
		queue.addAfter("a", Duration.ofMillis(100));
		queue.addAfter("a", Duration.ofSeconds(20));
		assertThat(delayedLen(queue)).isOne();
		assertThat(queue.len()).isZero();
		ticker.advance(Duration.ofMillis(100));
		assertThat(queue.poll(DEADLINE)).isEqualTo("a");
		assertThat(delayedLen(queue)).isZero();
	}

	@Test
	void earlierDelayedItemIsDeliveredFirst() throws InterruptedException {
		WorkQueue<String> queue = newQueue("order");
		queue.addAfter("late", Duration.ofMillis(300));
		queue.addAfter("early", Duration.ofMillis(10));
		assertThat(queue.poll(DEADLINE)).isEqualTo("early");
		assertThat(queue.poll(DEADLINE)).isEqualTo("late");
	}

	@Test
	void manyDelayedItemsAreAllDelivered() throws InterruptedException {
		assertAllDelayedItemsDelivered("many", 5_000, 20);
	}

	@Test
	void hundredThousandDelayedItemsAreAllDelivered() throws InterruptedException {
		assertAllDelayedItemsDelivered("hundred-thousand", 100_000, 50);
	}

	@Test
	void addRateLimitedUsesLimiterDelay() throws InterruptedException {
		WorkQueue<String> queue = this.track(create("rate-limited",
				RateLimiters.exponentialFailure(Duration.ofMillis(1), Duration.ofMillis(10)), Ticker.system()));
		queue.addRateLimited("a");
		assertThat(queue.numRequeues("a")).isOne();
		assertThat(queue.poll(DEADLINE)).isEqualTo("a");
		queue.done("a");
		queue.addRateLimited("a");
		assertThat(queue.numRequeues("a")).isEqualTo(2);
		queue.forget("a");
		assertThat(queue.numRequeues("a")).isZero();
		assertThat(queue.poll(DEADLINE)).isEqualTo("a");
	}

	@Test
	void shutDownWakesBlockedGettersWithNull() throws InterruptedException {
		WorkQueue<String> queue = newQueue("wake");
		List<Thread> getters = new ArrayList<>();
		List<AtomicReference<Object>> results = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			AtomicReference<Object> result = new AtomicReference<>("unset");
			Thread getter = new Thread(() -> {
				try {
					result.set(queue.get());
				}
				catch (InterruptedException ex) {
					result.set(ex);
				}
			}, "getter-" + i);
			getter.start();
			getters.add(getter);
			results.add(result);
		}
		await().atMost(DEADLINE)
			.until(() -> getters.stream().allMatch((getter) -> getter.getState() == Thread.State.WAITING));
		queue.shutDown();
		for (Thread getter : getters) {
			getter.join(DEADLINE.toMillis());
			assertThat(getter.isAlive()).isFalse();
		}
		assertThat(results).allSatisfy((result) -> assertThat(result.get()).isNull());
	}

	@Test
	void shutDownStopsDelayThreadAndIgnoresAdds() throws InterruptedException {
		WorkQueue<String> queue = newQueue("stop-me");
		String threadName = "workqueue-stop-me-delay";
		assertThat(threadExists(threadName)).isFalse();
		queue.addAfter("a", LONG_DELAY);
		assertThat(threadExists(threadName)).isTrue();
		queue.add("b");
		queue.shutDown();
		assertThat(queue.isShuttingDown()).isTrue();
		await().atMost(DEADLINE).until(() -> !threadExists(threadName));
		assertThat(queue.get()).isNull();
		queue.add("c");
		queue.addAfter("d", Duration.ofMillis(1));
		queue.addRateLimited("e");
		assertThat(queue.len()).isZero();
		assertThat(delayedLen(queue)).isZero();
		assertThat(queue.numRequeues("e")).isZero();
		assertThat(queue.poll(DEADLINE)).isNull();
		assertThat(threadExists(threadName)).isFalse();
	}

	@Test
	void shutDownWithDrainWaitsForProcessingItems() throws InterruptedException {
		WorkQueue<String> queue = newQueue("drain");
		queue.add("a");
		queue.add("b");
		assertThat(queue.get()).isEqualTo("a");
		AtomicBoolean drained = new AtomicBoolean();
		Thread drainer = new Thread(() -> {
			queue.shutDownWithDrain();
			drained.set(true);
		}, "drainer");
		drainer.start();
		await().atMost(DEADLINE).until(() -> queue.isShuttingDown() && drainer.getState() == Thread.State.WAITING);
		assertThat(drained).isFalse();
		assertThat(queue.get()).as("no more items handed out while draining").isNull();
		queue.add("a");
		queue.done("a");
		drainer.join(DEADLINE.toMillis());
		assertThat(drained).isTrue();
		assertThat(queue.len()).isZero();
	}

	@Test
	void shutDownWithDrainTimesOutWhileItemsAreProcessing() throws InterruptedException {
		WorkQueue<String> queue = newQueue("drain-timeout");
		queue.add("a");
		assertThat(queue.get()).isEqualTo("a");
		assertThat(queue.shutDownWithDrain(Duration.ofMillis(20))).isFalse();
		queue.done("a");
		assertThat(queue.shutDownWithDrain(Duration.ZERO)).isTrue();
	}

	@Test
	void shutDownWithDrainOfIdleQueueReturnsAtOnce() {
		WorkQueue<String> queue = newQueue("drain-idle");
		queue.add("a");
		queue.shutDownWithDrain();
		assertThat(queue.isShuttingDown()).isTrue();
		assertThat(queue.shutDownWithDrain(Duration.ZERO)).isTrue();
	}

	@Test
	void unfinishedWorkIsMeasuredOverProcessingItems() throws InterruptedException {
		FakeTicker ticker = new FakeTicker();
		WorkQueue<String> queue = newQueue("unfinished", ticker);
		assertThat(queue.unfinishedWorkNanos()).isZero();
		assertThat(queue.longestRunningProcessorNanos()).isZero();
		queue.add("a");
		queue.add("b");
		queue.get();
		ticker.advance(Duration.ofMillis(3));
		queue.get();
		ticker.advance(Duration.ofMillis(7));
		assertThat(queue.unfinishedWorkNanos()).isEqualTo(Duration.ofMillis(17).toNanos());
		assertThat(queue.longestRunningProcessorNanos()).isEqualTo(Duration.ofMillis(10).toNanos());
		queue.done("a");
		assertThat(queue.unfinishedWorkNanos()).isEqualTo(Duration.ofMillis(7).toNanos());
		assertThat(queue.longestRunningProcessorNanos()).isEqualTo(Duration.ofMillis(7).toNanos());
		queue.done("b");
		assertThat(queue.unfinishedWorkNanos()).isZero();
	}

	@Test
	void interruptedGetLeavesQueueUnchanged() throws InterruptedException {
		WorkQueue<String> queue = newQueue("interrupt");
		AtomicReference<Object> result = new AtomicReference<>();
		Thread getter = new Thread(() -> {
			try {
				result.set(queue.get());
			}
			catch (InterruptedException ex) {
				result.set(ex);
			}
		});
		getter.start();
		await().atMost(DEADLINE).until(() -> getter.getState() == Thread.State.WAITING);
		getter.interrupt();
		getter.join(DEADLINE.toMillis());
		assertThat(result.get()).isInstanceOf(InterruptedException.class);
		queue.add("a");
		assertThat(queue.get()).isEqualTo("a");
	}

	@Test
	void nullItemsAreRejected() {
		WorkQueue<String> queue = newQueue("nulls");
		assertThatNullPointerException().isThrownBy(() -> queue.add(null));
		assertThatNullPointerException().isThrownBy(() -> queue.addAfter(null, Duration.ofMillis(1)));
		assertThatNullPointerException().isThrownBy(() -> queue.addRateLimited(null));
	}

	private void assertAllDelayedItemsDelivered(String name, int count, int maxDelayMillis)
			throws InterruptedException {
		WorkQueue<Integer> queue = newQueue(name);
		SplittableRandom random = new SplittableRandom(42);
		for (int i = 0; i < count; i++) {
			queue.addAfter(i, Duration.ofMillis(1 + random.nextInt(maxDelayMillis)));
		}
		Set<Integer> delivered = new HashSet<>();
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		while (delivered.size() < count && System.nanoTime() < deadline) {
			Integer item = queue.poll(Duration.ofSeconds(1));
			if (item != null) {
				assertThat(delivered.add(item)).as("item %d delivered twice", item).isTrue();
				queue.done(item);
			}
		}
		assertThat(delivered).hasSize(count);
		assertThat(delayedLen(queue)).isZero();
		assertThat(queue.len()).isZero();
	}

	/**
	 * Creates the queue under test.
	 * @param <T> the type of the items
	 * @param name the name
	 * @param rateLimiter the rate limiter
	 * @param ticker the ticker
	 * @return the queue
	 */
	<T> WorkQueue<T> create(String name, RateLimiter<T> rateLimiter, Ticker ticker) {
		return WorkQueues.newRateLimitingQueue(name, rateLimiter, WorkQueueMetrics.NOOP, ticker);
	}

	<T> WorkQueue<T> newQueue(String name) {
		return newQueue(name, Ticker.system());
	}

	<T> WorkQueue<T> newQueue(String name, Ticker ticker) {
		return track(create(name, RateLimiters.defaultControllerRateLimiter(), ticker));
	}

	<T> WorkQueue<T> track(WorkQueue<T> queue) {
		this.queues.add(queue);
		return queue;
	}

	static int delayedLen(WorkQueue<?> queue) {
		return ((DefaultWorkQueue<?>) queue).delayedLen();
	}

	private static boolean threadExists(String name) {
		return Thread.getAllStackTraces().keySet().stream().anyMatch((thread) -> thread.getName().equals(name));
	}

}
