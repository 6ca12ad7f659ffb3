package io.kubeboot.operator.controller;

import java.time.Duration;
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
