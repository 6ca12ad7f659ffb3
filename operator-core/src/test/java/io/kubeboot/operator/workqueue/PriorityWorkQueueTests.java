package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the priority queue of {@link WorkQueues#newPriorityQueue}: every test of
 * {@link WorkQueueTests} (a priority queue keeps the guarantees of the plain one), and
 * how priorities order, raise and combine.
 */
class PriorityWorkQueueTests extends WorkQueueTests {

	private static final int LOW = WorkQueue.LOW_PRIORITY;

	private static final int DEFAULT = WorkQueue.DEFAULT_PRIORITY;

	@Override
	<T> WorkQueue<T> create(String name, RateLimiter<T> rateLimiter, Ticker ticker) {
		return WorkQueues.newPriorityQueue(name, rateLimiter, WorkQueueMetrics.NOOP, ticker);
	}

	@Test
	void theHighestPriorityIsHandedOutFirstAndEachPriorityInOrder() throws InterruptedException {
		WorkQueue<String> queue = newQueue("priorities");
		queue.add("low-1", LOW);
		queue.add("default-1");
		queue.add("low-2", LOW);
		queue.add("high", 10);
		queue.add("default-2", DEFAULT);
		assertThat(queue.len()).isEqualTo(5);
		assertThat(takeAll(queue)).containsExactly("high", "default-1", "default-2", "low-1", "low-2");
	}

	@Test
	void addingAPendingItemAtAHigherPriorityRaisesItBehindTheItemsOfThatPriority() throws InterruptedException {
		WorkQueue<String> queue = newQueue("raise");
		queue.add("a", LOW);
		queue.add("b", LOW);
		queue.add("c", LOW);
		queue.add("change", DEFAULT);
		queue.add("b", DEFAULT);
		assertThat(queue.len()).isEqualTo(4);
		assertThat(takeAll(queue)).containsExactly("change", "b", "a", "c");
	}

	@Test
	void aLowerPriorityNeverLowersAPendingItem() throws InterruptedException {
		WorkQueue<String> queue = newQueue("no-lowering");
		queue.add("a");
		queue.add("b");
		queue.add("a", LOW);
		assertThat(queue.len()).isEqualTo(2);
		assertThat(queue.get()).isEqualTo("a");
		assertThat(queue.priorityOf("a")).isEqualTo(DEFAULT);
		assertThat(queue.get()).isEqualTo("b");
	}

	@Test
	void priorityOfTellsThePriorityAnItemWasHandedOutWith() throws InterruptedException {
		WorkQueue<String> queue = newQueue("handed-out");
		queue.add("a", LOW);
		queue.add("b", 7);
		assertThat(queue.priorityOf("a")).as("not processing").isEqualTo(DEFAULT);
		assertThat(queue.get()).isEqualTo("b");
		assertThat(queue.get()).isEqualTo("a");
		assertThat(queue.priorityOf("a")).isEqualTo(LOW);
		assertThat(queue.priorityOf("b")).isEqualTo(7);
		queue.done("a");
		assertThat(queue.priorityOf("a")).isEqualTo(DEFAULT);
	}

	@Test
	void anItemAddedWhileProcessingComesBackAtTheHighestPriorityItWasAddedWith() throws InterruptedException {
		WorkQueue<String> queue = newQueue("dirty-priority");
		queue.add("a", LOW);
		assertThat(queue.get()).isEqualTo("a");
		queue.add("a", LOW);
		queue.add("a", DEFAULT);
		queue.add("a", LOW);
		queue.add("b", LOW);
		assertThat(queue.len()).isOne();
		queue.done("a");
		assertThat(takeAll(queue)).containsExactly("a", "b");
	}

	@Test
	void aDelayedItemIsAddedWithItsPriorityOnceReady() throws InterruptedException {
		FakeTicker ticker = new FakeTicker();
		WorkQueue<String> queue = newQueue("delayed-priority", ticker);
		queue.add("waiting", LOW);
		queue.addAfter("delayed", Duration.ofMillis(50), DEFAULT);
		ticker.advance(Duration.ofMillis(50));
		await().atMost(Duration.ofSeconds(30)).until(() -> queue.len() == 2);
		assertThat(takeAll(queue)).containsExactly("delayed", "waiting");
	}

	@Test
	void delayedAddsOfOneItemKeepTheEarliestTimeAndTheHighestPriority() throws InterruptedException {
		FakeTicker ticker = new FakeTicker();
		WorkQueue<String> queue = newQueue("delayed-merge", ticker);
		queue.addAfter("a", Duration.ofHours(1), 5);
		queue.addAfter("a", Duration.ofMillis(50), LOW);
		assertThat(delayedLen(queue)).isOne();
		queue.add("b", DEFAULT);
		ticker.advance(Duration.ofMillis(50));
		await().atMost(Duration.ofSeconds(30)).until(() -> queue.len() == 2);
		assertThat(takeAll(queue)).containsExactly("a", "b");
		assertThat(delayedLen(queue)).isZero();
	}

	@Test
	void aRateLimitedAddKeepsItsPriority() throws InterruptedException {
		WorkQueue<String> queue = track(WorkQueues.newPriorityQueue("rate-limited-priority",
				RateLimiters.exponentialFailure(Duration.ofMillis(1), Duration.ofMillis(1)), WorkQueueMetrics.NOOP));
		queue.addRateLimited("a", LOW);
		queue.addRateLimited("b", DEFAULT);
		await().atMost(Duration.ofSeconds(30)).until(() -> queue.len() == 2);
		assertThat(takeAll(queue)).containsExactly("b", "a");
	}

	@Test
	void aQueueWithoutPrioritiesIsFirstInFirstOutWhateverThePriorities() throws InterruptedException {
		WorkQueue<String> queue = track(
				WorkQueues.newRateLimitingQueue("no-priorities", RateLimiters.defaultControllerRateLimiter()));
		queue.add("low", LOW);
		queue.add("default");
		queue.add("high", 10);
		queue.add("low", 20);
		assertThat(queue.get()).isEqualTo("low");
		assertThat(queue.priorityOf("low")).isEqualTo(DEFAULT);
		assertThat(takeAll(queue)).containsExactly("default", "high");
	}

	private static List<String> takeAll(WorkQueue<String> queue) throws InterruptedException {
		List<String> taken = new ArrayList<>();
		String item;
		while ((item = queue.poll(Duration.ZERO)) != null) {
			taken.add(item);
			queue.done(item);
		}
		return taken;
	}

}
