package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.client.internal.WrittenVersions;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubeboot.operator.workqueue.WorkQueues;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ReconcileRunner}: a request comes back at the priority it was handed
 * out with, however the reconcile asked for it again.
 */
class ReconcileRunnerTests {

	private static final Request AGAIN = Request.of("default", "again");

	private static final Request OTHER = Request.of("default", "other");

	private final WorkQueue<Request> queue = WorkQueues.newPriorityQueue("test", new NoDelay(), WorkQueueMetrics.NOOP);

	@AfterEach
	void shutDown() {
		this.queue.shutDown();
	}

	static Stream<Arguments> requeues() {
		return Stream.of(Arguments.of("an exception", (Reconciler) (request) -> {
			throw new IllegalStateException("failed");
		}), Arguments.of("a conflict", (Reconciler) (request) -> {
			throw new ApiServerException.ConflictException("conflict", null);
		}), Arguments.of("Result.requeue()", (Reconciler) (request) -> Result.requeue()),
				Arguments.of("a panic", (Reconciler) (request) -> {
					throw new StackOverflowError();
				}));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("requeues")
	void aLowPriorityRequestComesBackBehindChanges(String way, Reconciler reconciler) throws Exception {
		this.queue.add(AGAIN, WorkQueue.LOW_PRIORITY);
		reconcileNext(reconciler);
		this.queue.add(OTHER, WorkQueue.DEFAULT_PRIORITY);

		assertThat(this.queue.get()).isEqualTo(OTHER);
		assertThat(this.queue.get()).isEqualTo(AGAIN);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("requeues")
	void aChangeComesBackAheadOfLowPriorityRequests(String way, Reconciler reconciler) throws Exception {
		this.queue.add(AGAIN, WorkQueue.DEFAULT_PRIORITY);
		reconcileNext(reconciler);
		this.queue.add(OTHER, WorkQueue.LOW_PRIORITY);

		assertThat(this.queue.get()).isEqualTo(AGAIN);
		assertThat(this.queue.get()).isEqualTo(OTHER);
	}

	@Test
	void aCacheBehindOwnWriteIsLoggedAsSuchNotAsAWriteConflict() throws Exception {
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		logs.start();
		Logger logger = (Logger) LoggerFactory.getLogger(Controller.class);
		logger.addAppender(logs);
		WrittenVersions written = new WrittenVersions(Duration.ofMillis(1));
		V1ConfigMap wrote = new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("again"));
		written.wrote(wrote, "5");
		try {
			this.queue.add(AGAIN, WorkQueue.DEFAULT_PRIORITY);
			reconcileNext((request) -> {
				written.read(V1ConfigMap.class, "default", "again",
						() -> new V1ConfigMap().metadata(new V1ObjectMeta().resourceVersion("4")));
				return Result.done();
			});
		}
		finally {
			logger.detachAppender(logs);
		}
		assertThat(logs.list).singleElement()
			.extracting(ILoggingEvent::getFormattedMessage)
			.asString()
			.startsWith("Cache behind this process's own write, requeued: controller=test request=default/again "
					+ "error=\"The cache has not seen this process's last write of V1ConfigMap default/again");
		assertThat(this.queue.get()).isEqualTo(AGAIN);
	}

	@Test
	void aReconcileFailingPastItsTimeoutIsCountedAsATimeoutAndAnErrorLoggedAndRetriedWithBackoff() throws Exception {
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		logs.start();
		Logger logger = (Logger) LoggerFactory.getLogger(Controller.class);
		logger.addAppender(logs);
		List<String> counted = new CopyOnWriteArrayList<>();
		CountingDelay limiter = new CountingDelay();
		WorkQueue<Request> queue = WorkQueues.newPriorityQueue("timeouts", limiter, WorkQueueMetrics.NOOP);
		ControllerMetrics metrics = new ControllerMetrics() {

			@Override
			public void reconciled(ControllerMetrics.Outcome outcome, long nanos) {
				counted.add(outcome.name());
			}

			@Override
			public void timedOut() {
				counted.add("timeout");
			}

		};
		Reconciler timed = TimeoutReconciler.of("test", (request) -> {
			Thread.sleep(Duration.ofSeconds(10).toMillis());
			return Result.done();
		}, Duration.ofMillis(100), metrics::timedOut);
		try {
			queue.add(AGAIN, WorkQueue.DEFAULT_PRIORITY);
			Request request = queue.get();
			new ReconcileRunner("test", timed, metrics).reconcile(queue, request);
			queue.done(request);
			assertThat(counted).containsExactly("timeout", "ERROR");
			assertThat(limiter.whens).isEqualTo(1);
			assertThat(queue.get()).isEqualTo(AGAIN);
			queue.done(AGAIN);
		}
		finally {
			logger.detachAppender(logs);
			queue.shutDown();
		}
		assertThat(logs.list).singleElement().satisfies((event) -> {
			assertThat(event.getFormattedMessage()).isEqualTo(
					"Reconcile failed past its timeout, retried with backoff: controller=test request=default/again "
							+ "timeout=PT0.1S triggers=[]");
			assertThat(event.getThrowableProxy().getClassName()).isEqualTo(ReconcileTimeoutException.class.getName());
		});
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	private void reconcileNext(Reconciler reconciler) throws InterruptedException {
		Request request = this.queue.get();
		assertThat(request).isEqualTo(AGAIN);
		try {
			new ReconcileRunner("test", reconciler, ControllerMetrics.NOOP).reconcile(this.queue, request);
		}
		finally {
			this.queue.done(request);
		}
	}

	private static final class CountingDelay implements RateLimiter<Request> {

		private volatile int whens;

		@Override
		public Duration when(Request item) {
			this.whens++;
			return Duration.ZERO;
		}

		@Override
		public void forget(Request item) {
		}

		@Override
		public int numRequeues(Request item) {
			return this.whens;
		}

	}

	private static final class NoDelay implements RateLimiter<Request> {

		@Override
		public Duration when(Request item) {
			return Duration.ZERO;
		}

		@Override
		public void forget(Request item) {
		}

		@Override
		public int numRequeues(Request item) {
			return 0;
		}

	}

}
