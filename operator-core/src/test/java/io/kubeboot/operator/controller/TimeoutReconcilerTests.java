package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.client.Fences;
import io.kubeboot.operator.client.internal.CallDeadline;
import io.kubeboot.operator.client.internal.CallDeadline.DeadlineExceededException;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link TimeoutReconciler}: what a reconcile past its timeout sees, and what
 * its worker is left with.
 */
class TimeoutReconcilerTests {

	private static final Request A = Request.of("default", "a");

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final CountDownLatch gate = new CountDownLatch(1);

	@AfterEach
	void release() {
		this.gate.countDown();
		CallDeadline.enter(null);
	}

	@Test
	void withoutATimeoutTheReconcilerRunsAsItIs() {
		Reconciler reconciler = (request) -> Result.done();
		assertThat(TimeoutReconciler.of("configmap", reconciler, Duration.ZERO)).isSameAs(reconciler);
	}

	@Test
	void aReconcileWithinItsTimeoutReturnsItsResultUninterruptedAndUnbound() throws Exception {
		AtomicReference<Duration> left = new AtomicReference<>();
		Reconciler timed = TimeoutReconciler.of("configmap", (request) -> {
			left.set(CallDeadline.check());
			return Result.requeueAfter(Duration.ofSeconds(7));
		}, WAIT);
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
		}, WAIT);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> timed.reconcile(A)).isSameAs(failure);
	}

	@Test
	void aSleepingReconcileIsInterruptedAtItsDeadlineAndEndsInATimeout() {
		Reconciler timed = TimeoutReconciler.of("configmap", (request) -> {
			Thread.sleep(WAIT.toMillis());
			return Result.done();
		}, Duration.ofMillis(200));
		long start = System.nanoTime();
		assertThatExceptionOfType(ReconcileTimeoutException.class).isThrownBy(() -> timed.reconcile(A))
			.satisfies((ex) -> {
				assertThat(ex.timeout()).isEqualTo(Duration.ofMillis(200));
				assertThat(ex).hasMessage("The reconcile of default/a by controller configmap ran past its timeout of "
						+ "PT0.2S and was interrupted; it then failed. The stack trace is where it was at the "
						+ "deadline");
				assertThat(ex).hasCauseInstanceOf(InterruptedException.class);
				assertThat(Arrays.stream(ex.getStackTrace()).map(StackTraceElement::getMethodName))
					.contains("sleep");
			});
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(WAIT);
		// the interrupt was the reconcile's: the worker goes on without it, unbound
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(CallDeadline.current()).isNull();
	}

	@Test
	void aReconcileThatIgnoresTheInterruptCannotCallTheApiServerAfterItsDeadline() {
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
			return Result.done();
		}, Duration.ofMillis(200));
		assertThatExceptionOfType(ReconcileTimeoutException.class).isThrownBy(() -> timed.reconcile(A))
			.withMessageContaining("it then returned")
			.withNoCause();
		assertThat(interrupted).isTrue();
		assertThat(openAfterTheDeadline).isFalse();
		assertThat(lateCall.get()).isInstanceOf(DeadlineExceededException.class)
			.hasMessageContaining("the reconcile of default/a by controller configmap (PT0.2S)");
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	@Test
	void theWorkersOwnDeadlineIsBackOnceTheReconcileEnded() throws Exception {
		CallDeadline outer = new CallDeadline(WAIT, System::nanoTime, "outer work");
		CallDeadline.enter(outer);
		AtomicReference<CallDeadline> inside = new AtomicReference<>();
		TimeoutReconciler.of("configmap", (request) -> {
			inside.set(CallDeadline.current());
			return Result.done();
		}, Duration.ofSeconds(1)).reconcile(A);
		assertThat(inside.get()).isNotNull().isNotSameAs(outer);
		assertThat(CallDeadline.current()).isSameAs(outer);
	}

}
