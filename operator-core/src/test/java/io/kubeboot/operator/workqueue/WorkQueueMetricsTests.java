package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the {@link WorkQueueMetrics} callbacks of a {@link WorkQueue}.
 */
class WorkQueueMetricsTests {

	private final FakeTicker ticker = new FakeTicker();

	private final RecordingMetrics metrics = new RecordingMetrics();

	private final WorkQueue<String> queue = WorkQueues.newRateLimitingQueue("metrics", new NoDelayRateLimiter(),
			this.metrics, this.ticker);

	@AfterEach
	void shutDown() {
		this.queue.shutDown();
	}

	@Test
	void addsAreCountedUnlessDeduplicatedOrShutDown() {
		this.queue.add("a");
		this.queue.add("a");
		this.queue.add("b");
		assertThat(this.metrics.added).hasValue(2);
		assertThat(this.metrics.depths).containsExactly(0, 1, 2);
		this.queue.shutDown();
		this.queue.add("c");
		assertThat(this.metrics.added).hasValue(2);
		assertThat(this.metrics.depths).containsExactly(0, 1, 2, 0);
	}

	@Test
	void queueLatencyAndWorkDurationAreMeasured() throws InterruptedException {
		this.queue.add("a");
		this.ticker.advance(Duration.ofMillis(5));
		assertThat(this.queue.get()).isEqualTo("a");
		assertThat(this.metrics.queueLatencies).containsExactly(Duration.ofMillis(5).toNanos());
		this.ticker.advance(Duration.ofMillis(7));
		this.queue.done("a");
		assertThat(this.metrics.workDurations).containsExactly(Duration.ofMillis(7).toNanos());
		assertThat(this.metrics.depths).containsExactly(0, 1, 0);
	}

	@Test
	void addWhileProcessingIsCountedAndReadyAfterDone() throws InterruptedException {
		this.queue.add("a");
		this.queue.get();
		this.queue.add("a");
		this.queue.add("a");
		assertThat(this.metrics.added).hasValue(2);
		assertThat(this.metrics.depths).containsExactly(0, 1, 0);
		this.queue.done("a");
		assertThat(this.metrics.depths).containsExactly(0, 1, 0, 1);
		this.ticker.advance(Duration.ofMillis(3));
		this.queue.get();
		assertThat(this.metrics.queueLatencies).containsExactly(0L, Duration.ofMillis(3).toNanos());
	}

	@Test
	void everyRateLimitedAddIsARetry() {
		this.queue.addRateLimited("a");
		this.queue.addRateLimited("a");
		assertThat(this.metrics.retries).hasValue(2);
		assertThat(this.metrics.added).hasValue(1);
		this.queue.add("b");
		this.queue.addAfter("c", Duration.ZERO);
		assertThat(this.metrics.retries).hasValue(2);
		this.queue.shutDown();
		this.queue.addRateLimited("d");
		assertThat(this.metrics.retries).hasValue(2);
	}

	@Test
	void aQueueWithoutPrioritiesReportsNoDepthPerPriority() {
		this.queue.add("a", WorkQueue.LOW_PRIORITY);
		assertThat(this.metrics.priorityDepths).isEmpty();
	}

	@Test
	void aPriorityQueueReportsTheDepthOfEachPriorityBeforeTheTotal() throws InterruptedException {
		RecordingMetrics recorded = new RecordingMetrics();
		WorkQueue<String> prioritized = WorkQueues.newPriorityQueue("metrics", new NoDelayRateLimiter(), recorded,
				this.ticker);
		try {
			prioritized.add("a", WorkQueue.LOW_PRIORITY);
			prioritized.add("b", WorkQueue.LOW_PRIORITY);
			prioritized.add("c");
			prioritized.add("a");
			assertThat(prioritized.get()).isEqualTo("c");
			assertThat(recorded.calls).containsExactly("0=0", "0", "-100=1", "1", "-100=2", "2", "0=1", "3", "-100=1",
					"0=2", "0=1", "2");
			recorded.calls.clear();
			prioritized.shutDown();
			assertThat(recorded.calls).containsExactlyInAnyOrder("-100=0", "0=0", "0");
			assertThat(recorded.calls).endsWith("0");
		}
		finally {
			prioritized.shutDown();
		}
	}

	@Test
	void theQueueLatencyOfARaisedItemCountsFromWhenItFirstBecameReady() throws InterruptedException {
		RecordingMetrics recorded = new RecordingMetrics();
		WorkQueue<String> prioritized = WorkQueues.newPriorityQueue("metrics", new NoDelayRateLimiter(), recorded,
				this.ticker);
		try {
			prioritized.add("a", WorkQueue.LOW_PRIORITY);
			this.ticker.advance(Duration.ofMillis(5));
			prioritized.add("a");
			assertThat(recorded.added).hasValue(1);
			this.ticker.advance(Duration.ofMillis(2));
			prioritized.get();
			assertThat(recorded.queueLatencies).containsExactly(Duration.ofMillis(7).toNanos());
		}
		finally {
			prioritized.shutDown();
		}
	}

	static final class RecordingMetrics implements WorkQueueMetrics {

		final AtomicInteger added = new AtomicInteger();

		final AtomicInteger retries = new AtomicInteger();

		final List<Integer> depths = new CopyOnWriteArrayList<>();

		final List<String> priorityDepths = new CopyOnWriteArrayList<>();

		/** Depth calls in order: {@code "total"} and {@code "priority=depth"}. */
		final List<String> calls = new CopyOnWriteArrayList<>();

		final List<Long> queueLatencies = new CopyOnWriteArrayList<>();

		final List<Long> workDurations = new CopyOnWriteArrayList<>();

		@Override
		public void added() {
			this.added.incrementAndGet();
		}

		@Override
		public void depth(int depth) {
			this.depths.add(depth);
			this.calls.add(String.valueOf(depth));
		}

		@Override
		public void depth(int priority, int depth) {
			this.priorityDepths.add(priority + "=" + depth);
			this.calls.add(priority + "=" + depth);
		}

		@Override
		public void queueLatency(long nanos) {
			this.queueLatencies.add(nanos);
		}

		@Override
		public void workDuration(long nanos) {
			this.workDurations.add(nanos);
		}

		@Override
		public void retried() {
			this.retries.incrementAndGet();
		}

	}

	static final class NoDelayRateLimiter implements RateLimiter<String> {

		@Override
		public Duration when(String item) {
			return Duration.ZERO;
		}

		@Override
		public void forget(String item) {
		}

		@Override
		public int numRequeues(String item) {
			return 0;
		}

	}

}
