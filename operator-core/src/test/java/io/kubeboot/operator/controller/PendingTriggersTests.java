package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.reconcile.ReconcileTrigger.Kind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PendingTriggers}.
 */
class PendingTriggersTests {

	private static final Request A = Request.of("default", "a");

	private final AtomicLong now = new AtomicLong(1_000);

	private final PendingTriggers triggers = new PendingTriggers(this.now::get);

	@Test
	void theTriggersOfARequestAreTakenTogetherOldestFirstAndOnce() {
		this.triggers.record(A, ReconcileTrigger.of(Kind.SPEC_CHANGED));
		this.now.addAndGet(500);
		this.triggers.record(A, ReconcileTrigger.of(Kind.ENQUEUED));
		this.now.addAndGet(250);

		PendingTriggers.Taken taken = this.triggers.take(A);

		assertThat(taken.triggers()).extracting(ReconcileTrigger::kind)
			.containsExactly(Kind.SPEC_CHANGED, Kind.ENQUEUED);
		assertThat(taken.queued(this.now.get())).isEqualTo(Duration.ofNanos(750));
		assertThat(this.triggers.take(A).triggers()).isEmpty();
		assertThat(this.triggers.size()).isZero();
	}

	@Test
	void beyondTheLimitTriggersAreCountedNotKept() {
		for (int i = 0; i < ReconcileContext.MAX_TRIGGERS + 5; i++) {
			this.triggers.record(A, ReconcileTrigger.of((i == 0) ? Kind.CREATED : Kind.OWNED_OBJECT));
		}

		PendingTriggers.Taken taken = this.triggers.take(A);

		assertThat(taken.triggers()).hasSize(ReconcileContext.MAX_TRIGGERS);
		assertThat(taken.triggers().get(0).kind()).isEqualTo(Kind.CREATED);
		assertThat(taken.dropped()).isEqualTo(5);
		assertThat(this.triggers.take(A).dropped()).isZero();
	}

	@Test
	void aResyncIsKeptOnceHoweverManyObjectsWereSeenUnchanged() {
		this.triggers.record(A, ReconcileTrigger.of(Kind.SPEC_CHANGED));
		for (int i = 0; i < ReconcileContext.MAX_TRIGGERS * 2; i++) {
			this.triggers.record(A, ReconcileTrigger.of(Kind.RESYNC));
		}

		PendingTriggers.Taken taken = this.triggers.take(A);

		assertThat(taken.triggers()).extracting(ReconcileTrigger::kind).containsExactly(Kind.SPEC_CHANGED, Kind.RESYNC);
		assertThat(taken.dropped()).isZero();
	}

	@Test
	void theKindsOfTheTriggersCutAreKept() {
		this.triggers.record(A, ReconcileTrigger.of(Kind.CREATED));
		for (int i = 1; i < ReconcileContext.MAX_TRIGGERS; i++) {
			this.triggers.record(A, ReconcileTrigger.of(Kind.OWNED_OBJECT));
		}
		this.triggers.record(A, ReconcileTrigger.of(Kind.SPEC_CHANGED));

		PendingTriggers.Taken taken = this.triggers.take(A);

		assertThat(taken.triggers()).extracting(ReconcileTrigger::kind).doesNotContain(Kind.SPEC_CHANGED);
		assertThat(taken.dropped()).isOne();
		assertThat(taken.kinds()).isEqualTo((1 << Kind.CREATED.ordinal()) | (1 << Kind.OWNED_OBJECT.ordinal())
				| (1 << Kind.SPEC_CHANGED.ordinal()));
	}

	/**
	 * A reconciler that asks for a periodic re-check on every reconcile of an object that
	 * changes often: the queue merges the requeues into one delayed add, and so do the
	 * triggers, which never crowd out the changes.
	 */
	@Test
	void requeuesAskedForWithinOneDelayAreOneTriggerThatNeverCrowdsOutTheChanges() {
		for (int i = 0; i < 20; i++) {
			this.triggers.record(A, ReconcileTrigger.of(Kind.SPEC_CHANGED));
			PendingTriggers.Taken taken = this.triggers.take(A);
			assertThat(taken.triggers()).as("reconcile %d", i)
				.extracting(ReconcileTrigger::kind)
				.containsExactly(Kind.SPEC_CHANGED);
			assertThat(taken.dropped()).isZero();
			this.triggers.requeued(A, Duration.ofNanos(10_000));
			this.triggers.settle(A, Kind.REQUEUE);
			this.now.addAndGet(10);
		}

		this.now.addAndGet(10_000);
		PendingTriggers.Taken due = this.triggers.take(A);

		assertThat(due.triggers()).extracting(ReconcileTrigger::kind).containsExactly(Kind.REQUEUE);
		assertThat(due.dropped()).isZero();
		assertThat(this.triggers.size()).isZero();
	}

	@Test
	void aDelayedTriggerWaitsForItsDelayAndLeavesEarlierReconcilesAlone() {
		this.triggers.schedule(A, ReconcileTrigger.of(Kind.PERIODIC), Duration.ofNanos(1_000));
		this.triggers.record(A, ReconcileTrigger.of(Kind.SPEC_CHANGED));

		assertThat(this.triggers.take(A).triggers()).extracting(ReconcileTrigger::kind)
			.containsExactly(Kind.SPEC_CHANGED);
		this.now.addAndGet(1_000);
		PendingTriggers.Taken later = this.triggers.take(A);
		assertThat(later.triggers()).extracting(ReconcileTrigger::kind).containsExactly(Kind.PERIODIC);
		assertThat(later.queued(this.now.get())).isEqualTo(Duration.ZERO);
		assertThat(this.triggers.size()).isZero();
	}

	@Test
	void delayedTriggersOfOneRequestAreDueAtTheEarliestOfTheirDelaysAsTheQueueMergesThem() {
		this.triggers.schedule(A, ReconcileTrigger.of(Kind.PERIODIC), Duration.ofNanos(10_000));
		this.triggers.schedule(A, ReconcileTrigger.of(Kind.ENQUEUED), Duration.ofNanos(1_000));

		this.now.addAndGet(1_000);

		assertThat(this.triggers.take(A).triggers()).extracting(ReconcileTrigger::kind)
			.containsExactly(Kind.PERIODIC, Kind.ENQUEUED);
	}

	@Test
	void aDelayedGroupThatCameDueStaysDueWhenAnotherDelayIsScheduled() {
		this.triggers.schedule(A, ReconcileTrigger.of(Kind.PERIODIC), Duration.ofNanos(1_000));
		this.now.addAndGet(1_000);
		// the queue handed the first out already; this one waits on its own
		this.triggers.schedule(A, ReconcileTrigger.of(Kind.ENQUEUED), Duration.ofNanos(5_000));

		assertThat(this.triggers.take(A).triggers()).extracting(ReconcileTrigger::kind).containsExactly(Kind.PERIODIC);
		this.now.addAndGet(5_000);
		assertThat(this.triggers.take(A).triggers()).extracting(ReconcileTrigger::kind).containsExactly(Kind.ENQUEUED);
	}

	@Test
	void aRequeueBecomesATriggerOfTheKindTheOutcomeSaysOnceDue() {
		this.triggers.take(A);
		this.triggers.requeued(A, Duration.ofNanos(2_000));
		this.triggers.settle(A, Kind.REQUEUE);

		assertThat(this.triggers.take(A).triggers()).isEmpty();
		this.now.addAndGet(2_000);
		assertThat(this.triggers.take(A).triggers()).extracting(ReconcileTrigger::kind).containsExactly(Kind.REQUEUE);
	}

	@Test
	void aRetryAtOnceIsDueAtOnce() {
		this.triggers.requeued(A, Duration.ZERO);
		this.triggers.settle(A, Kind.RETRY_AFTER_ERROR);

		assertThat(this.triggers.take(A).triggers()).extracting(ReconcileTrigger::kind)
			.containsExactly(Kind.RETRY_AFTER_ERROR);
	}

	@Test
	void aReconcileThatDidNotQueueTheRequestAgainLeavesNoTrigger() {
		this.triggers.settle(A, Kind.REQUEUE);

		assertThat(this.triggers.take(A).triggers()).isEmpty();
		assertThat(this.triggers.size()).isZero();
	}

}
