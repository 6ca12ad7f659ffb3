package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.client.internal.WriteFence;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.metrics.ControllerMetrics.Outcome;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.reconcile.TerminalException;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.source.Channel;
import io.kubeboot.operator.source.IntervalTrigger;
import io.kubeboot.operator.source.RequestQueue;
import io.kubeboot.operator.source.Source;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.awaitility.core.ConditionFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

/**
 * A {@link Controller} on fake informers: how it stops, how it is interrupted, and what
 * it does with each way a reconcile ends.
 */
class ControllerTests {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private static final Request A = Request.of("default", "a");

	private final FakeInformer<V1ConfigMap> informer = new FakeInformer<>(V1ConfigMap.class);

	private final RecordingRateLimiter rateLimiter = new RecordingRateLimiter();

	private final RecordingMetrics metrics = new RecordingMetrics();

	/** What happened, in order: reconciles, sources, the return of {@code start}. */
	private final List<String> events = new CopyOnWriteArrayList<>();

	/** Released at the end of each test, for reconcilers that wait on it. */
	private final CountDownLatch gate = new CountDownLatch(1);

	private final List<Running> running = new CopyOnWriteArrayList<>();

	@AfterEach
	void stopControllers() throws InterruptedException {
		this.gate.countDown();
		for (Running run : this.running) {
			run.stop.fire();
			run.thread.join(DEADLINE.toMillis());
			if (run.thread.isAlive()) {
				run.thread.interrupt();
				run.thread.join(DEADLINE.toMillis());
			}
		}
	}

	@Test
	void onStopTheReconcileInFlightFinishesBeforeStartReturnsAndNoNewOneStarts() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		this.informer.add(configMap("a"));
		this.informer.add(configMap("b"));
		Controller controller = controller(1, (request) -> {
			this.events.add("reconcile " + request.name());
			entered.countDown();
			this.gate.await();
			this.events.add("reconciled " + request.name());
			return Result.done();
		});
		Running run = start(controller);
		assertThat(entered.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		run.stop.fire();
		eventually().until(() -> !controller.isRunning() && run.thread.getState() == Thread.State.WAITING);
		assertThat(run.thread.isAlive()).isTrue();
		this.gate.countDown();
		run.awaitReturn();
		assertThat(this.events).containsExactly("reconcile a", "reconciled a", "start returned");
		assertThat(this.metrics.outcomes).containsExactly(Outcome.SUCCESS);
		assertThat(controller.liveWorkers()).isZero();
		assertThat(controller.activeWorkers()).isZero();
		assertThat(run.error.get()).isNull();
	}

	@Test
	void interruptingTheThreadRunningStartInterruptsAReconcileThatIgnoresTheStop() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		AtomicBoolean interrupted = new AtomicBoolean();
		this.informer.add(configMap("a"));
		Controller controller = controller(1, (request) -> {
			entered.countDown();
			try {
				new CountDownLatch(1).await(); // ignores the stop
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
				throw ex;
			}
			return Result.done();
		});
		Running run = start(controller);
		assertThat(entered.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		run.stop.fire();
		// the manager's graceful timeout passes while start waits for the worker
		eventually().until(() -> !controller.isRunning() && run.thread.getState() == Thread.State.WAITING);
		run.thread.interrupt();
		run.thread.join(3000);
		assertThat(run.thread.isAlive()).isFalse();
		assertThat(interrupted).isTrue();
		assertThat(run.interruptedOnReturn).isTrue();
		assertThat(run.error.get()).isNull();
		assertThat(controller.liveWorkers()).isZero();
		assertThat(this.metrics.outcomes).containsExactly(Outcome.ERROR);
		// the queue was shut down: the interrupted request is not retried
		assertThat(this.rateLimiter.whenCalls).isEmpty();
	}

	/**
	 * A leader whose process was paused past its renew deadline (SIGSTOP, a long GC) runs
	 * again before its election notices: its workers must not start reconciles meanwhile,
	 * since another replica may lead.
	 */
	@Test
	void leaderOnlyWorkPastItsRenewDeadlineStartsNoReconcileUntilTheLeaseIsRenewed() throws Exception {
		AtomicLong now = new AtomicLong(1_000_000_000L);
		WriteFence fence = new WriteFence(Duration.ofSeconds(2), now::get);
		fence.renewed(now.get());
		now.addAndGet(Duration.ofSeconds(3).toNanos()); // paused past the deadline
		this.informer.add(configMap("a"));
		Controller controller = controller(1, (request) -> {
			this.events.add("reconcile " + request.name());
			return Result.done();
		});
		Running run = start(controller, fence);
		eventually().until(controller::isRunning);
		// requests wait, and none is reconciled
		assertThat(this.events).doesNotContain("reconcile a");
		eventually().during(Duration.ofMillis(500)).until(() -> !this.events.contains("reconcile a"));
		fence.renewed(now.get());
		eventually().until(() -> this.events.contains("reconcile a"));
		assertThat(run.error.get()).isNull();
	}

	@Test
	void aRequestHeldBackPastTheRenewDeadlineKeepsItsPriority() throws Exception {
		AtomicLong now = new AtomicLong(1_000_000_000L);
		WriteFence fence = new WriteFence(Duration.ofSeconds(2), now::get);
		fence.renewed(now.get());
		now.addAndGet(Duration.ofSeconds(3).toNanos());
		// an object of the start-up backlog: low priority
		this.informer.add(configMap("a"));
		List<Integer> queuedAt = new CopyOnWriteArrayList<>();
		WorkQueueMetrics depths = new WorkQueueMetrics() {

			@Override
			public void depth(int priority, int depth) {
				if (depth > 0) {
					queuedAt.add(priority);
				}
			}

		};
		Controller controller = controller(1, true, (request) -> Result.done(), (name) -> depths);
		start(controller, fence);
		// queued again after every retry, and each time behind the live changes
		eventually().until(() -> queuedAt.size() >= 4);
		assertThat(queuedAt).containsOnly(WorkQueue.LOW_PRIORITY);
	}

	@Test
	void aStrayInterruptWhileTheControllerRunsDoesNotEndItsOnlyWorker() throws Exception {
		this.informer.add(configMap("a"));
		Controller controller = controller(1, (request) -> {
			this.events.add("reconcile " + request.name());
			if (request.name().equals("a")) {
				// as a pool the reconciler used, or a library, might leave it
				Thread.currentThread().interrupt();
			}
			if (request.name().equals("b") && this.events.stream().filter("reconcile b"::equals).count() == 1) {
				throw new InterruptedException("stray");
			}
			return Result.done();
		});
		Running run = start(controller);
		eventually().until(() -> this.events.contains("reconcile a"));
		this.informer.add(configMap("b"));
		eventually().until(() -> this.events.contains("reconcile b"));
		this.informer.add(configMap("c"));
		eventually().until(() -> this.events.contains("reconcile c"));
		assertThat(controller.liveWorkers()).isEqualTo(1);
		// the interrupted reconcile of b is retried like any failure
		eventually().until(() -> this.events.stream().filter("reconcile b"::equals).count() >= 2);
		assertThat(run.error.get()).isNull();
	}

	@ParameterizedTest
	@MethodSource("panics")
	void anErrorOtherThanOutOfMemoryIsAPanicRetriedWithBackoffAndTheWorkerSurvives(Error panic) throws Exception {
		Duration backoff = Duration.ofMillis(100);
		this.rateLimiter.delay = backoff;
		AtomicInteger attempts = new AtomicInteger();
		AtomicLong panickedAt = new AtomicLong();
		AtomicLong retriedAt = new AtomicLong();
		this.informer.add(configMap("a"));
		Controller controller = controller(1, (request) -> {
			if (attempts.incrementAndGet() == 1) {
				panickedAt.set(System.nanoTime());
				throw panic;
			}
			retriedAt.set(System.nanoTime());
			return Result.done();
		});
		start(controller);
		eventually().until(() -> this.metrics.outcomes.size() == 2);
		assertThat(this.metrics.outcomes).containsExactly(Outcome.PANIC, Outcome.SUCCESS);
		assertThat(this.rateLimiter.whenCalls).containsExactly(A);
		assertThat(Duration.ofNanos(retriedAt.get() - panickedAt.get())).isGreaterThanOrEqualTo(backoff);
		// the only worker survived to reconcile the retry
		assertThat(controller.liveWorkers()).isOne();
		assertThatNoException().isThrownBy(controller::checkWorkersAlive);
	}

	static Stream<Error> panics() {
		return Stream.of(new StackOverflowError(), new AssertionError("unexpected"),
				new NoClassDefFoundError("com/example/Missing"));
	}

	@Test
	void anOutOfMemoryErrorEndsTheWorkerAndTheLivenessCheckSeesIt() throws Exception {
		List<Throwable> uncaught = new CopyOnWriteArrayList<>();
		Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
		Thread.setDefaultUncaughtExceptionHandler((thread, ex) -> uncaught.add(ex));
		try {
			this.informer.add(configMap("a"));
			Controller controller = controller(2, (request) -> {
				throw new OutOfMemoryError("thrown by the test");
			});
			Running run = start(controller);
			// the worker's error must reach the handler above, not Awaitility's
			eventually().dontCatchUncaughtExceptions()
				.until(() -> controller.liveWorkers() == 1 && uncaught.size() == 1);
			assertThat(uncaught.get(0)).isInstanceOf(OutOfMemoryError.class);
			assertThatIllegalStateException().isThrownBy(controller::checkWorkersAlive)
				.withMessage("test has 1 of 2 workers");
			assertThat(this.metrics.outcomes).isEmpty();
			run.stop.fire();
			run.awaitReturn();
			assertThatNoException().isThrownBy(controller::checkWorkersAlive);
		}
		finally {
			Thread.setDefaultUncaughtExceptionHandler(previous);
		}
	}

	@Test
	void aTerminalExceptionIsNotRetried() throws Exception {
		// a retry would come at once, before the next request queued
		this.rateLimiter.delay = Duration.ZERO;
		this.informer.add(configMap("a"));
		Controller controller = controller(1, (request) -> {
			this.events.add("reconcile " + request.name());
			if (request.name().equals("a")) {
				this.informer.add(configMap("b"));
				throw new TerminalException("spec.size must be positive");
			}
			if (request.name().equals("b")) {
				this.informer.add(configMap("c"));
			}
			return Result.done();
		});
		start(controller);
		eventually().until(() -> this.events.contains("reconcile c"));
		assertThat(this.events).containsExactly("reconcile a", "reconcile b", "reconcile c");
		assertThat(this.metrics.outcomes).containsExactly(Outcome.TERMINAL_ERROR, Outcome.SUCCESS, Outcome.SUCCESS);
		assertThat(this.rateLimiter.whenCalls).isEmpty();
		assertThat(this.rateLimiter.forgetCalls).contains(A);
	}

	@Test
	void anExceptionIsRetriedWithBackoff() throws Exception {
		this.rateLimiter.delay = Duration.ZERO;
		AtomicInteger attempts = new AtomicInteger();
		this.informer.add(configMap("a"));
		Controller controller = controller(1, (request) -> {
			if (attempts.incrementAndGet() == 1) {
				throw new IllegalStateException("conflict");
			}
			return Result.done();
		});
		start(controller);
		eventually().until(() -> this.metrics.outcomes.size() == 2);
		assertThat(this.metrics.outcomes).containsExactly(Outcome.ERROR, Outcome.SUCCESS);
		assertThat(this.rateLimiter.whenCalls).containsExactly(A);
		assertThat(this.rateLimiter.forgetCalls).containsExactly(A);
	}

	@Test
	void aReconcileThrottledByTheApiServerIsRequeuedAfterItsRetryAfterWithoutBackoff() throws Exception {
		AtomicInteger attempts = new AtomicInteger();
		AtomicLong throttledAt = new AtomicLong();
		AtomicLong reconciledAgainAt = new AtomicLong();
		this.informer.add(configMap("a"));
		Controller controller = controller(1, (request) -> {
			if (attempts.incrementAndGet() == 1) {
				throttledAt.set(System.nanoTime());
				throw new ApiServerException.TooManyRequestsException("PATCH ... failed: 429 TooManyRequests",
						Duration.ofSeconds(1), null);
			}
			reconciledAgainAt.set(System.nanoTime());
			return Result.done();
		});
		start(controller);
		eventually().until(() -> this.metrics.outcomes.size() == 2);
		// counted as an error, as controller-runtime counts every error
		assertThat(this.metrics.outcomes).containsExactly(Outcome.ERROR, Outcome.SUCCESS);
		assertThat(Duration.ofNanos(reconciledAgainAt.get() - throttledAt.get()))
			.isGreaterThanOrEqualTo(Duration.ofSeconds(1));
		// the backoff neither grew nor was reset by the 429
		assertThat(this.rateLimiter.whenCalls).isEmpty();
		assertThat(this.rateLimiter.forgetCalls).containsExactly(A);
	}

	@Test
	void requeueAfterReconcilesAgainOnceTheDelayHasPassed() throws Exception {
		Duration delay = Duration.ofMillis(200);
		AtomicInteger attempts = new AtomicInteger();
		AtomicLong requeuedAt = new AtomicLong();
		AtomicLong reconciledAgainAt = new AtomicLong();
		this.informer.add(configMap("a"));
		Controller controller = controller(1, (request) -> {
			if (attempts.incrementAndGet() == 1) {
				requeuedAt.set(System.nanoTime());
				return Result.requeueAfter(delay);
			}
			reconciledAgainAt.set(System.nanoTime());
			return Result.done();
		});
		start(controller);
		eventually().until(() -> this.metrics.outcomes.size() == 2);
		assertThat(this.metrics.outcomes).containsExactly(Outcome.REQUEUE_AFTER, Outcome.SUCCESS);
		assertThat(Duration.ofNanos(reconciledAgainAt.get() - requeuedAt.get())).isGreaterThanOrEqualTo(delay);
		// a requeue after a delay is not a failure: no backoff, and the backoff is reset
		assertThat(this.rateLimiter.whenCalls).isEmpty();
		assertThat(this.rateLimiter.forgetCalls).containsExactly(A, A);
	}

	@Test
	void sourcesAddedWithWatchStartWithTheControllerAndStopBeforeItsWorkers() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		AtomicReference<String> sourceThread = new AtomicReference<>();
		Source source = (queue, stop) -> {
			sourceThread.set(Thread.currentThread().getName());
			this.events.add("source started");
			queue.add(Request.of("default", "from-source"));
			stop.await();
			this.events.add("source stopped");
		};
		Controller controller = controller(1, (request) -> {
			this.events.add("reconcile " + request.name());
			entered.countDown();
			this.gate.await();
			this.events.add("reconciled " + request.name());
			return Result.done();
		});
		controller.watch(source);
		assertThat(controller.sources()).hasSize(2).first().isInstanceOf(Channel.class);
		assertThat(controller.sources().get(1)).isSameAs(source);
		assertThat(this.events).isEmpty();
		Running run = start(controller);
		assertThat(entered.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(sourceThread.get()).startsWith("controller-test-source-");
		run.stop.fire();
		// the reconcile is still in flight
		eventually().until(() -> this.events.contains("source stopped"));
		this.gate.countDown();
		run.awaitReturn();
		assertThat(this.events).containsExactly("source started", "reconcile from-source", "source stopped",
				"reconciled from-source", "start returned");
	}

	@Test
	void aSourceAddedWithWatchToARunningControllerStartsAtOnce() throws Exception {
		Controller controller = controller(1, (request) -> {
			this.events.add("reconcile " + request.name());
			return Result.done();
		});
		Running run = start(controller);
		// started once the controller's own channel is open
		Channel channel = (Channel) controller.sources().get(0);
		eventually().until(channel::isOpen);
		controller.watch((queue, stop) -> {
			this.events.add("source started");
			queue.add(Request.of("default", "late"));
			stop.await();
			this.events.add("source stopped");
		});
		eventually().until(() -> this.events.contains("reconcile late"));
		run.stop.fire();
		run.awaitReturn();
		assertThat(this.events).containsExactly("source started", "reconcile late", "source stopped", "start returned");
	}

	@Test
	void aControllerStoppedBeforeItStartsReconcilesNothing() throws Exception {
		for (int i = 0; i < 20; i++) {
			this.informer.add(configMap("object-" + i));
		}
		Controller controller = controller(4, (request) -> {
			this.events.add("reconcile " + request.name());
			return Result.done();
		});
		StopSignal stop = new StopSignal();
		stop.fire();
		controller.start(stop);
		assertThat(this.events).isEmpty();
		assertThat(controller.isRunning()).isFalse();
		assertThat(controller.liveWorkers()).isZero();
	}

	@Test
	void startFailsWhenTheInformersDoNotSyncInTime() {
		this.informer.synced(false);
		Controller controller = new Controller("test", V1ConfigMap.class, (request) -> Result.done(), 1, true,
				() -> this.rateLimiter, (name) -> WorkQueueMetrics.NOOP, this.metrics, List.of(eventSource()),
				Duration.ofMillis(100), List.of(), LeaderOnly.INSTANCE);
		assertThatIllegalStateException().isThrownBy(() -> controller.start(new StopSignal()))
			.withMessage("Controller test timed out waiting for its caches to sync");
		assertThat(controller.isRunning()).isFalse();
	}

	@Test
	void changesSeenWhileTheControllerWorksThroughTheCachedObjectsAreReconciledBeforeThem() throws Exception {
		V1ConfigMap b = configMap("b", "1");
		V1ConfigMap d = configMap("d", "1");
		for (V1ConfigMap cached : List.of(configMap("a", "1"), b, configMap("c", "1"), d)) {
			this.informer.add(cached);
		}
		Controller controller = controller(1, true, this::recordAfterTheGate);
		start(controller);
		// every cached object is queued at the start; the first one is being reconciled
		eventually().until(() -> this.events.size() == 1 && controller.queueDepth() == 3);

		this.informer.add(configMap("new", "1")); // created
		this.informer.update(d, configMap("d", "2")); // changed
		this.informer.update(b, b); // a resync: no change
		eventually().until(() -> controller.queueDepth() == 4);
		this.gate.countDown();

		eventually().until(() -> this.events.size() == 5);
		assertThat(this.events).containsExactly("a", "new", "d", "b", "c");
	}

	@Test
	void withoutThePriorityQueueChangesWaitBehindTheCachedObjects() throws Exception {
		V1ConfigMap d = configMap("d", "1");
		for (V1ConfigMap cached : List.of(configMap("a", "1"), configMap("b", "1"), configMap("c", "1"), d)) {
			this.informer.add(cached);
		}
		Controller controller = controller(1, false, this::recordAfterTheGate);
		assertThat(controller.priorityQueue()).isFalse();
		start(controller);
		eventually().until(() -> this.events.size() == 1 && controller.queueDepth() == 3);

		this.informer.add(configMap("new", "1"));
		this.informer.update(d, configMap("d", "2"));
		eventually().until(() -> controller.queueDepth() == 4);
		this.gate.countDown();

		eventually().until(() -> this.events.size() == 5);
		assertThat(this.events).containsExactly("a", "b", "c", "d", "new");
	}

	@Test
	void aPeriodicTriggerWaitsBehindChanges() throws Exception {
		this.informer.add(configMap("a", "1"));
		Controller controller = controller(1, true, this::recordAfterTheGate);
		Channel changes = new Channel();
		controller.watch(changes);
		controller.watch(new IntervalTrigger("re-check", Duration.ofDays(1), Duration.ZERO, 0,
				() -> List.of(Request.of("default", "periodic"))));
		start(controller);
		eventually().until(() -> this.events.size() == 1 && controller.queueDepth() == 1 && changes.isOpen());
		changes.send(Request.of("default", "sent"));
		eventually().until(() -> controller.queueDepth() == 2);
		this.gate.countDown();

		eventually().until(() -> this.events.size() == 3);
		assertThat(this.events).containsExactly("a", "sent", "periodic");
	}

	@Test
	void everyReconcileKnowsWhyItRunsAndIsCountedUnderIt() throws Exception {
		V1ConfigMap cached = configMap("a", "1");
		this.informer.add(cached);
		List<String> seen = new CopyOnWriteArrayList<>();
		AtomicInteger calls = new AtomicInteger();
		Controller controller = controller(1, (request) -> {
			ReconcileContext context = ReconcileContext.current().orElseThrow();
			seen.add(context.controller() + " " + request.name() + " " + context.triggers());
			return switch (calls.incrementAndGet()) {
				case 1 -> Result.requeueAfter(Duration.ofMillis(20));
				case 2 -> throw new IllegalStateException("fails once");
				default -> Result.done();
			};
		});
		start(controller);
		eventually().until(() -> seen.size() == 3);
		this.informer.update(cached, configMap("a", "2"));
		eventually().until(() -> seen.size() == 4);
		eventually().until(() -> controller.enqueue(A));
		eventually().until(() -> seen.size() == 5);

		assertThat(seen).containsExactly("test a [resync]", "test a [requeue]", "test a [retry_after_error]",
				"test a [spec_changed]", "test a [enqueued]");
		assertThat(this.metrics.triggers).containsExactly(ReconcileTrigger.Kind.RESYNC, ReconcileTrigger.Kind.REQUEUE,
				ReconcileTrigger.Kind.RETRY_AFTER_ERROR, ReconcileTrigger.Kind.SPEC_CHANGED,
				ReconcileTrigger.Kind.ENQUEUED);
		assertThat(ReconcileContext.current()).isEmpty();
	}

	@Test
	void changesCoalescedWhileAReconcileRunsAreAllHandedToTheNextOne() throws Exception {
		V1ConfigMap cached = configMap("a", "1");
		this.informer.add(cached);
		CountDownLatch entered = new CountDownLatch(1);
		List<List<ReconcileTrigger.Kind>> seen = new CopyOnWriteArrayList<>();
		Controller controller = controller(1, (request) -> {
			seen.add(ReconcileContext.current().orElseThrow().triggers().stream().map(ReconcileTrigger::kind).toList());
			entered.countDown();
			this.gate.await();
			return Result.done();
		});
		start(controller);
		assertThat(entered.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		V1ConfigMap second = configMap("a", "2");
		this.informer.update(cached, second);
		this.informer.update(second, configMap("a", "3"));
		eventually().until(() -> controller.enqueue(A));
		this.gate.countDown();

		eventually().until(() -> seen.size() == 2);
		assertThat(seen.get(1)).containsExactly(ReconcileTrigger.Kind.SPEC_CHANGED, ReconcileTrigger.Kind.SPEC_CHANGED,
				ReconcileTrigger.Kind.ENQUEUED);
	}

	@Test
	void aSourceSaysWhatItsRequestsAre() throws Exception {
		List<List<ReconcileTrigger>> seen = new CopyOnWriteArrayList<>();
		Controller controller = controller(1, (request) -> {
			seen.add(ReconcileContext.current().orElseThrow().triggers());
			return Result.done();
		});
		// a timer of the application's own, not an IntervalTrigger
		controller.watch(new Source() {

			@Override
			public void start(RequestQueue queue, StopSignal stop) throws InterruptedException {
				queue.add(A);
				stop.await();
			}

			@Override
			public ReconcileTrigger.Kind triggerKind() {
				return ReconcileTrigger.Kind.PERIODIC;
			}

		});
		start(controller);

		eventually().until(() -> !seen.isEmpty());
		assertThat(seen.get(0)).extracting(ReconcileTrigger::kind).containsExactly(ReconcileTrigger.Kind.PERIODIC);
	}

	@Test
	void theKindsOfAReconcileIncludeThoseOfTheTriggersCut() throws Exception {
		V1ConfigMap cached = configMap("a", "1");
		this.informer.add(cached);
		CountDownLatch entered = new CountDownLatch(1);
		List<ReconcileContext> seen = new CopyOnWriteArrayList<>();
		Controller controller = controller(1, (request) -> {
			seen.add(ReconcileContext.current().orElseThrow());
			entered.countDown();
			this.gate.await();
			return Result.done();
		});
		start(controller);
		assertThat(entered.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		for (int i = 0; i < ReconcileContext.MAX_TRIGGERS; i++) {
			eventually().until(() -> controller.enqueue(A));
		}
		this.informer.update(cached, configMap("a", "2"));
		this.gate.countDown();

		eventually().until(() -> seen.size() == 2);
		ReconcileContext second = seen.get(1);
		assertThat(second.triggers()).extracting(ReconcileTrigger::kind).containsOnly(ReconcileTrigger.Kind.ENQUEUED);
		assertThat(second.droppedTriggers()).isOne();
		assertThat(second.triggerKinds()).containsExactlyInAnyOrder(ReconcileTrigger.Kind.ENQUEUED,
				ReconcileTrigger.Kind.SPEC_CHANGED);
	}

	@Test
	void withTracingEveryReconcileIsASpanEndedWithItsResultAndWhatItThrew() throws Exception {
		this.informer.add(configMap("a", "1"));
		List<String> spans = new CopyOnWriteArrayList<>();
		OperatorTracing tracing = new OperatorTracing() {

			@Override
			public ReconcileSpan reconcile(ReconcileContext context) {
				return new ReconcileSpan() {

					@Override
					public Scope openScope() {
						return () -> {
						};
					}

					@Override
					public void end(String result, @Nullable Throwable error) {
						spans.add(
								context.triggers() + " " + result + " " + ((error != null) ? error.getMessage() : "-"));
					}

				};
			}

		};
		AtomicInteger calls = new AtomicInteger();
		Controller controller = new Controller("test", V1ConfigMap.class,
				(request) -> switch (calls.incrementAndGet()) {
					case 1 -> throw new ApiServerException.ConflictException("conflict", null);
					case 2 -> throw new IllegalStateException("broken");
					case 3 -> Result.requeueAfter(Duration.ofMillis(10));
					default -> Result.done();
				}, 1, true, () -> this.rateLimiter, (name) -> WorkQueueMetrics.NOOP, this.metrics,
				List.of(eventSource()), DEADLINE, List::of, LeaderOnly.INSTANCE, NamespaceFilter.NONE, tracing);
		start(controller);

		eventually().until(() -> spans.size() == 4);
		assertThat(spans).containsExactly("[resync] requeue -", "[retry_after_error] error broken",
				"[retry_after_error] requeue_after -", "[requeue] success -");
	}

	@Test
	void theLogLineOfAFailedReconcileIsWrittenInsideItsSpan() throws Exception {
		this.informer.add(configMap("a", "1"));
		List<String> ended = new CopyOnWriteArrayList<>();
		OperatorTracing tracing = new OperatorTracing() {

			@Override
			public ReconcileSpan reconcile(ReconcileContext context) {
				return new ReconcileSpan() {

					@Override
					public Scope openScope() {
						// what a tracer's log correlation does
						MDC.put("traceId", "4bf92f3577b34da6a3ce929d0e0e4736");
						MDC.put("spanId", "00f067aa0ba902b7");
						return () -> {
							MDC.remove("traceId");
							MDC.remove("spanId");
						};
					}

					@Override
					public void end(String result, @Nullable Throwable error) {
						ended.add(result + " " + ((error != null) ? error.getMessage() : "-"));
					}

				};
			}

		};
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		logs.start();
		Logger logger = (Logger) LoggerFactory.getLogger(Controller.class);
		logger.addAppender(logs);
		try {
			Controller controller = new Controller("test", V1ConfigMap.class, (request) -> {
				throw new IllegalStateException("broken");
			}, 1, true, () -> this.rateLimiter, (name) -> WorkQueueMetrics.NOOP, this.metrics, List.of(eventSource()),
					DEADLINE, List::of, LeaderOnly.INSTANCE, NamespaceFilter.NONE, tracing);
			start(controller);
			eventually().until(() -> !ended.isEmpty());
		}
		finally {
			logger.detachAppender(logs);
		}

		assertThat(ended.get(0)).isEqualTo("error broken");
		assertThat(logs.list).filteredOn((event) -> event.getMessage().startsWith("Reconciler error"))
			.first()
			.satisfies((event) -> assertThat(event.getMDCPropertyMap())
				.containsEntry("traceId", "4bf92f3577b34da6a3ce929d0e0e4736")
				.containsEntry("spanId", "00f067aa0ba902b7"));
		assertThat(MDC.get("traceId")).isNull();
	}

	@Test
	void aStoppedControllerKeepsNothingForTheEventsItDrops() throws Exception {
		V1ConfigMap cached = configMap("a", "1");
		this.informer.add(cached);
		Controller controller = controller(1, (request) -> {
			this.events.add("reconcile " + request.name());
			return Result.done();
		});
		Running run = start(controller);
		eventually().until(() -> this.events.contains("reconcile a"));
		PendingTriggers pending = controller.pendingTriggers();
		run.stop.fire();
		run.awaitReturn();

		for (int i = 0; i < 100; i++) {
			V1ConfigMap changed = configMap("k" + i, "2");
			this.informer.add(changed);
			this.informer.update(changed, configMap("k" + i, "3"));
		}
		controller.onEveryReplica((queue, stop) -> queue.addAfter(A, Duration.ofHours(1))).start(new StopSignal());

		assertThat(controller.pendingTriggers()).isNull();
		assertThat(pending).isNotNull();
		assertThat(pending.size()).isZero();
	}

	private Result recordAfterTheGate(Request request) throws InterruptedException {
		this.events.add(request.name());
		this.gate.await();
		return Result.done();
	}

	private Controller controller(int workers, Reconciler reconciler) {
		return controller(workers, true, reconciler);
	}

	private Controller controller(int workers, boolean priorityQueue, Reconciler reconciler) {
		return controller(workers, priorityQueue, reconciler, (name) -> WorkQueueMetrics.NOOP);
	}

	private Controller controller(int workers, boolean priorityQueue, Reconciler reconciler,
			Function<String, WorkQueueMetrics> queueMetrics) {
		return new Controller("test", V1ConfigMap.class, reconciler, workers, priorityQueue, () -> this.rateLimiter,
				queueMetrics, this.metrics, List.of(eventSource()), DEADLINE, List.of(), LeaderOnly.INSTANCE);
	}

	private EventSource<V1ConfigMap> eventSource() {
		return new EventSource<>("test", this.informer, (object) -> List.of(Request.of(object)));
	}

	private Running start(Controller controller) {
		return start(controller, null);
	}

	/** Starts a controller on a thread that runs under a fence, as leader-only work. */
	private Running start(Controller controller, @Nullable WriteFence fence) {
		Running run = new Running(controller, new StopSignal(), this.events, fence);
		this.running.add(run);
		run.thread.start();
		return run;
	}

	private static V1ConfigMap configMap(String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name(name));
	}

	private static V1ConfigMap configMap(String name, String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("default").name(name).resourceVersion(resourceVersion));
	}

	/**
	 * A controller started on a thread of its own, as the manager's runnable group does.
	 */
	private static final class Running {

		private final StopSignal stop;

		private final Thread thread;

		private final AtomicReference<Throwable> error = new AtomicReference<>();

		private final AtomicBoolean interruptedOnReturn = new AtomicBoolean();

		Running(Controller controller, StopSignal stop, List<String> events, @Nullable WriteFence fence) {
			this.stop = stop;
			this.thread = new Thread(() -> {
				WriteFence.enter(fence);
				try {
					controller.start(stop);
				}
				catch (Throwable ex) {
					this.error.set(ex);
				}
				this.interruptedOnReturn.set(Thread.currentThread().isInterrupted());
				events.add("start returned");
			}, "controller-test-start");
		}

		void awaitReturn() throws InterruptedException {
			this.thread.join(DEADLINE.toMillis());
			assertThat(this.thread.isAlive()).isFalse();
			assertThat(this.error.get()).isNull();
		}

	}

	private static final class RecordingRateLimiter implements RateLimiter<Request> {

		private final List<Request> whenCalls = new CopyOnWriteArrayList<>();

		private final List<Request> forgetCalls = new CopyOnWriteArrayList<>();

		private volatile Duration delay = Duration.ofMillis(5);

		@Override
		public Duration when(Request item) {
			this.whenCalls.add(item);
			return this.delay;
		}

		@Override
		public void forget(Request item) {
			this.forgetCalls.add(item);
		}

		@Override
		public int numRequeues(Request item) {
			return 0;
		}

	}

	private static final class RecordingMetrics implements ControllerMetrics {

		private final List<Outcome> outcomes = new CopyOnWriteArrayList<>();

		private final List<ReconcileTrigger.Kind> triggers = new CopyOnWriteArrayList<>();

		@Override
		public void reconciled(Outcome outcome, long nanos) {
			this.outcomes.add(outcome);
		}

		@Override
		public void triggered(ReconcileTrigger.Kind kind) {
			this.triggers.add(kind);
		}

	}

	/**
	 * Waits for a condition, checking it every few milliseconds.
	 */
	private static ConditionFactory eventually() {
		return await().atMost(DEADLINE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2));
	}

}
