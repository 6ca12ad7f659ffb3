package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.client.Fences;
import io.kubeboot.operator.client.internal.CallDeadline;
import io.kubeboot.operator.client.internal.CallDeadline.DeadlineExceededException;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.reconcile.TerminalException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link TimeoutReconciler}: what a reconcile past its timeout sees, how it
 * ends (its own outcome, as in controller-runtime, counted as a timeout), and what its
 * worker is left with.
 */
class TimeoutReconcilerTests {

	private static final Request A = Request.of("default", "a");

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final CountDownLatch gate = new CountDownLatch(1);

	private final AtomicInteger timeouts = new AtomicInteger();

	@AfterEach
	void release() {
		this.gate.countDown();
		CallDeadline.enter(null);
	}

	@Test
	void withoutATimeoutTheReconcilerRunsAsItIs() {
		Reconciler reconciler = (request) -> Result.done();
		assertThat(TimeoutReconciler.of("configmap", reconciler, Duration.ZERO, this.timeouts::incrementAndGet))
			.isSameAs(reconciler);
	}

	@Test
	void aReconcileWithinItsTimeoutReturnsItsResultUninterruptedAndUnbound() throws Exception {
		AtomicReference<Duration> left = new AtomicReference<>();
		Reconciler timed = TimeoutReconciler.of("configmap", (request) -> {
			left.set(CallDeadline.check());
			return Result.requeueAfter(Duration.ofSeconds(7));
		}, WAIT, this.timeouts::incrementAndGet);
		assertThat(timed.reconcile(A)).isEqualTo(Result.requeueAfter(Duration.ofSeconds(7)));
		assertThat(left.get()).isPositive().isLessThanOrEqualTo(WAIT);
		assertThat(CallDeadline.current()).isNull();
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	@Test
	void aFailureWithinTheTimeoutIsThrownAsItIs() {
		IllegalStateException failure = new IllegalStateException("failed");
		Reconciler timed = TimeoutReconciler.of("configmap", (request) -> {
			throw failure;
		}, WAIT, this.timeouts::incrementAndGet);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> timed.reconcile(A)).isSameAs(failure);
	}

	@Test
	void aSleepingReconcileIsInterruptedAtItsDeadlineAndEndsInATimeout() {
		Reconciler timed = TimeoutReconciler.of("configmap", (request) -> {
			Thread.sleep(WAIT.toMillis());
			return Result.done();
		}, Duration.ofMillis(200), this.timeouts::incrementAndGet);
		long start = System.nanoTime();
		assertThatExceptionOfType(ReconcileTimeoutException.class).isThrownBy(() -> timed.reconcile(A))
			.satisfies((ex) -> {
				assertThat(ex.timeout()).isEqualTo(Duration.ofMillis(200));
				assertThat(ex).hasMessage("The reconcile of default/a by controller configmap ran past its timeout of "
						+ "PT0.2S and was interrupted; it then failed. The stack trace is where it was at the "
						+ "deadline");
				assertThat(ex).hasCauseInstanceOf(InterruptedException.class);
				assertThat(Arrays.stream(ex.getStackTrace()).map(StackTraceElement::getMethodName)).contains("sleep");
			});
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(WAIT);
		// the interrupt was the reconcile's: the worker goes on without it, unbound
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(CallDeadline.current()).isNull();
	}

	@Test
	void aReconcileThatIgnoresTheInterruptCannotCallTheApiServerAfterItsDeadlineAndKeepsItsResult() throws Exception {
		AtomicBoolean interrupted = new AtomicBoolean();
		AtomicReference<Throwable> lateCall = new AtomicReference<>();
		AtomicBoolean openAfterTheDeadline = new AtomicBoolean(true);
		Reconciler timed = TimeoutReconciler.of("configmap", (request) -> {
			long deadline = System.nanoTime() + WAIT.toNanos();
			// waits out the interrupt, as code that swallows it does
			while (!interrupted.get() && System.nanoTime() - deadline < 0) {
				try {
					this.gate.await(10, TimeUnit.MILLISECONDS);
				}
				catch (InterruptedException ex) {
					interrupted.set(true);
				}
			}
			openAfterTheDeadline.set(Fences.isOpen());
			try {
				CallDeadline.check();
			}
			catch (DeadlineExceededException ex) {
				lateCall.set(ex);
			}
			return Result.requeueAfter(Duration.ofHours(1));
		}, Duration.ofMillis(200), this.timeouts::incrementAndGet);
		// as controller-runtime returns res, err unchanged: counted, and its result kept
		assertThat(timed.reconcile(A)).isEqualTo(Result.requeueAfter(Duration.ofHours(1)));
		assertThat(this.timeouts).hasValue(1);
		assertThat(interrupted).isTrue();
		assertThat(openAfterTheDeadline).isFalse();
		assertThat(lateCall.get()).isInstanceOf(DeadlineExceededException.class)
			.hasMessageContaining("the reconcile of default/a by controller configmap (PT0.2S)");
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	@Test
	void aTerminalExceptionPastTheDeadlineStaysTerminal() {
		TerminalException terminal = new TerminalException("the spec is invalid");
		Reconciler timed = TimeoutReconciler.of("configmap", (request) -> {
			try {
				Thread.sleep(WAIT.toMillis());
			}
			catch (InterruptedException ex) {
				// gives up, telling why retrying would not help
			}
			throw terminal;
		}, Duration.ofMillis(200), this.timeouts::incrementAndGet);
		assertThatExceptionOfType(TerminalException.class).isThrownBy(() -> timed.reconcile(A))
			.isSameAs(terminal)
			.satisfies((ex) -> assertThat(ex.getSuppressed()).singleElement()
				.isInstanceOf(ReconcileTimeoutException.class));
		assertThat(this.timeouts).hasValue(1);
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	@Test
	void aReconcileWithinItsTimeoutIsNotCounted() throws Exception {
		TimeoutReconciler.of("configmap", (request) -> Result.done(), WAIT, this.timeouts::incrementAndGet)
			.reconcile(A);
		assertThat(this.timeouts).hasValue(0);
	}

	/**
	 * Thousands of reconciles as long as their timeout, so that the alarm rings just
	 * before, at or just after they return: no interrupt outlives its reconcile, none
	 * reaches the next one.
	 */
	@Test
	void anAlarmRingingAsTheReconcileEndsNeverReachesTheNextReconcile() {
		Duration timeout = Duration.ofMillis(1);
		Reconciler timed = TimeoutReconciler.of("configmap", (request) -> {
			long until = System.nanoTime() + timeout.toNanos();
			while (System.nanoTime() - until < 0) {
				Thread.onSpinWait();
			}
			// thrown rather than returned: a result kept past the deadline is logged
			throw new IllegalStateException("done");
		}, timeout, this.timeouts::incrementAndGet);
		int leftInterrupted = 0;
		for (int i = 0; i < 3000; i++) {
			assertThatExceptionOfType(Exception.class).isThrownBy(() -> timed.reconcile(A));
			// what the next reconcile on this worker would start with
			if (Thread.interrupted()) {
				leftInterrupted++;
			}
		}
		assertThat(leftInterrupted).isZero();
		// the race was run: some alarms rang
		assertThat(this.timeouts.get()).isPositive();
		assertThat(CallDeadline.current()).isNull();
	}

	@Test
	void theWorkersOwnDeadlineIsBackOnceTheReconcileEnded() throws Exception {
		CallDeadline outer = new CallDeadline(WAIT, System::nanoTime, "outer work");
		CallDeadline.enter(outer);
		AtomicReference<CallDeadline> inside = new AtomicReference<>();
		TimeoutReconciler.of("configmap", (request) -> {
			inside.set(CallDeadline.current());
			return Result.done();
		}, Duration.ofSeconds(1), this.timeouts::incrementAndGet).reconcile(A);
		assertThat(inside.get()).isNotNull().isNotSameAs(outer);
		assertThat(CallDeadline.current()).isSameAs(outer);
	}

}
