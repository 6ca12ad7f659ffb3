package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.reconcile.ReconcileTrigger.Kind;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubeboot.operator.workqueue.WorkQueues;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TriggeredQueue}, on a real work queue and a clock of the test's own.
 */
class TriggeredQueueTests {

	private static final Request A = Request.of("default", "a");

	private final AtomicLong now = new AtomicLong();

	private final WorkQueue<Request> queue = WorkQueues.newRateLimitingQueue("test",
			RateLimiters.exponentialFailure(Duration.ofMillis(1), Duration.ofSeconds(1)), WorkQueueMetrics.NOOP,
			this.now::get);

	private final PendingTriggers triggers = new PendingTriggers(this.now::get);

	private final TriggeredQueue run = new TriggeredQueue(this.queue, this.triggers);

	@AfterEach
	void shutDown() {
		this.queue.shutDown();
	}

	/**
	 * The triggers saw the first delayed group come due before a second delayed add, and
	 * started a group of its own for it; the queue had not handed out its entry yet and
	 * merged the second add into it. The take that entry brings must bring the request
	 * back for the second group.
	 */
	@Test
	void aTakeThatLeavesADelayedGroupWaitingBringsTheRequestBackWhenItIsDue() throws Exception {
		this.triggers.schedule(A, ReconcileTrigger.of(Kind.PERIODIC), Duration.ofNanos(1_000));
		this.now.set(1_000);
		this.triggers.schedule(A, ReconcileTrigger.of(Kind.REQUEUE), Duration.ofNanos(5_000));
		// the queue's one entry, merged: handed out now
		this.queue.add(A);
		assertThat(this.queue.get()).isEqualTo(A);

		PendingTriggers.Taken first = this.run.take(A);
		this.queue.done(A);
		this.now.set(6_000);

		assertThat(first.triggers()).extracting(ReconcileTrigger::kind).containsExactly(Kind.PERIODIC);
		assertThat(this.queue.poll(Duration.ofSeconds(10))).isEqualTo(A);
		assertThat(this.run.take(A).triggers()).extracting(ReconcileTrigger::kind).containsExactly(Kind.REQUEUE);
		assertThat(this.triggers.size()).isZero();
	}

	@Test
	void aTakeThatLeavesNothingWaitingAddsNothing() throws Exception {
		this.run.add(A, WorkQueue.DEFAULT_PRIORITY, ReconcileTrigger.of(Kind.ENQUEUED));
		assertThat(this.queue.get()).isEqualTo(A);

		this.run.take(A);
		this.queue.done(A);

		assertThat(this.queue.poll(Duration.ofMillis(100))).isNull();
	}

}
