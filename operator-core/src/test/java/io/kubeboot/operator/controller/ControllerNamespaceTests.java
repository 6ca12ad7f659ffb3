package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a controller of the manager's namespace set works only on the namespaces in
 * it, and on each only once its informers hold it whole, on fake informers and a set the
 * test changes.
 */
class ControllerNamespaceTests {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private final FakeInformer<V1ConfigMap> configMaps = new FakeInformer<>(V1ConfigMap.class);

	private final FakeInformer<V1Secret> secrets = new FakeInformer<>(V1Secret.class);

	private final Namespaces namespaces = new Namespaces("a", "b");

	private final List<String> reconciled = new CopyOnWriteArrayList<>();

	private final StopSignal stop = new StopSignal();

	private final CountDownLatch release = new CountDownLatch(1);

	private Thread running;

	private final NamespaceFilter filter = new NamespaceFilter(this.namespaces, List.of(this.configMaps, this.secrets),
			(informer) -> List.of(informer.key()));

	/** How many requests entered the controller's work queue. */
	private final AtomicInteger adds = new AtomicInteger();

	private final WorkQueueMetrics queueMetrics = new WorkQueueMetrics() {

		@Override
		public void added() {
			ControllerNamespaceTests.this.adds.incrementAndGet();
		}

	};

	private Supplier<RateLimiter<Request>> rateLimiter = RateLimiters::defaultControllerRateLimiter;

	@AfterEach
	void stopController() throws InterruptedException {
		this.release.countDown();
		this.stop.fire();
		if (this.running != null) {
			this.running.join(DEADLINE.toMillis());
		}
	}

	@Test
	void requestsOfANamespaceThatLeftTheSetAreNeverReconciled() {
		this.namespaces.current = Set.of("a", "b", "c");
		Controller controller = start(this::record);
		leave("c");
		this.configMaps.add(configMap("c", "outside"));
		send(controller, Request.of("c", "sent"));
		this.configMaps.add(configMap("a", "inside"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/inside"));
		send(controller, Request.of("b", "last"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("b/last"));
		assertThat(this.reconciled).containsExactly("a/inside", "b/last");
	}

	@Test
	void queuedRequestsOfANamespaceRemovedFromTheSetAreDropped() {
		Controller controller = start((request) -> {
			record(request);
			if (request.name().equals("blocking")) {
				this.release.await();
			}
			return Result.done();
		});
		send(controller, Request.of("a", "blocking"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/blocking"));
		send(controller, Request.of("b", "queued"));
		await().atMost(DEADLINE).until(() -> controller.queueDepth() == 1);
		leave("b");
		this.release.countDown();
		send(controller, Request.of("a", "after"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/after"));
		assertThat(this.reconciled).containsExactly("a/blocking", "a/after");
	}

	@Test
	void requestsOfANamespaceWaitUntilEveryInformerFollowingTheSetHasSyncedIt() {
		this.namespaces.current = Set.of("a", "b", "c");
		this.secrets.synced("c", false);
		Controller controller = start(this::record);
		send(controller, Request.of("c", "new"));
		send(controller, Request.of("a", "old"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/old"));
		// held, and looked at again, for a while
		int answers = this.secrets.unsyncedAnswers();
		await().atMost(DEADLINE).until(() -> this.secrets.unsyncedAnswers() > answers + 2);
		assertThat(this.reconciled).doesNotContain("c/new");
		this.secrets.synced("c", true);
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("c/new"));
		assertThat(this.reconciled).containsExactly("a/old", "c/new");
	}

	@Test
	void manyRequestsWaitingForTheirNamespaceCostNoWorkQueueAddsUntilItSynced() {
		this.namespaces.current = Set.of("a", "b", "c");
		this.secrets.synced("c", false);
		Controller controller = start(this::record);
		for (int i = 0; i < 1000; i++) {
			send(controller, Request.of("c", "waiting-" + i));
		}
		send(controller, Request.of("a", "marker"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/marker"));
		assertThat(controller.waitingRequests()).isEqualTo(1000);
		// however often the namespace is looked at, its requests are not queued again
		int answers = this.secrets.unsyncedAnswers();
		await().atMost(DEADLINE).until(() -> this.secrets.unsyncedAnswers() > answers + 2);
		assertThat(this.adds).hasValue(1);
		this.secrets.synced("c", true);
		await().atMost(DEADLINE).until(() -> this.reconciled.size() == 1001);
		assertThat(this.adds).hasValue(1001);
		assertThat(controller.waitingRequests()).isZero();
	}

	@Test
	void aFailingRequestKeepsItsBackoffWhileItsNamespaceWaits() {
		List<String> journal = new CopyOnWriteArrayList<>();
		this.rateLimiter = () -> new JournalingRateLimiter(journal);
		AtomicInteger attempts = new AtomicInteger();
		this.namespaces.current = Set.of("a", "b", "c");
		Controller controller = start((request) -> {
			journal.add("reconcile " + request.name());
			if (attempts.incrementAndGet() == 1) {
				// the namespace goes on waiting (its informers restart, say) as it fails
				this.secrets.synced("c", false);
				throw new IllegalStateException("failed");
			}
			return Result.done();
		});
		send(controller, Request.of("c", "failing"));
		await().atMost(DEADLINE).until(() -> this.secrets.unsyncedAnswers() > 0);
		this.secrets.synced("c", true);
		await().atMost(DEADLINE)
			.until(() -> journal.stream().filter("reconcile failing"::equals).count() == 2
					&& journal.get(journal.size() - 1).startsWith("forget"));
		assertThat(journal).containsExactly("reconcile failing", "backoff c/failing", "reconcile failing",
				"forget c/failing");
	}

	@Test
	void requestsOfClusterScopedObjectsWaitUntilEveryNamespaceSynced() {
		this.namespaces.current = Set.of("a", "b", "c");
		this.secrets.synced("c", false);
		Controller controller = start(this::record);
		send(controller, Request.of(null, "cluster-wide"));
		send(controller, Request.of("a", "marker"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/marker"));
		assertThat(this.reconciled).containsExactly("a/marker");
		this.secrets.synced("c", true);
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("null/cluster-wide"));
	}

	@Test
	void theControllerStartsWithoutWaitingForANamespaceItsInformersHaveNotSynced() {
		this.configMaps.synced("b", false);
		this.configMaps.add(configMap("a", "listed"));
		start(this::record);
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/listed"));
	}

	@Test
	void requestsOfANamespaceThatNeverWasInTheSetPassAsTheyAlwaysDid() {
		Controller controller = start(this::record);
		// the key of an external resource, from a periodic trigger or enqueue()
		send(controller, Request.of("anywhere", "bucket"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("anywhere/bucket"));
	}

	/**
	 * Takes namespaces out of the set, telling the controller first, as a change does.
	 */
	private void leave(String... namespaces) {
		this.filter.left(Set.of(namespaces));
		this.namespaces.remove(namespaces);
	}

	/**
	 * Sends a request through the controller's channel, which refuses it while the
	 * controller is still starting its sources.
	 */
	private static void send(Controller controller, Request request) {
		await().atMost(DEADLINE).until(() -> controller.enqueue(request));
	}

	private Result record(Request request) {
		this.reconciled.add(request.namespace() + "/" + request.name());
		return Result.done();
	}

	private Controller start(Reconciler reconciler) {
		EventSource<V1ConfigMap> primary = new EventSource<>("test", this.configMaps,
				(object) -> List.of(Request.of(object)));
		EventSource<V1Secret> watched = new EventSource<>("test", this.secrets, (secret) -> List.of());
		Controller controller = new Controller("test", V1ConfigMap.class, reconciler, 1, true, this.rateLimiter,
				(name) -> this.queueMetrics, ControllerMetrics.NOOP, List.of(primary, watched), DEADLINE, List::of,
				LeaderOnly.INSTANCE, this.filter, OperatorTracing.NOOP);
		this.running = new Thread(() -> {
			try {
				controller.start(this.stop);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}, "controller-namespace-test");
		this.running.start();
		await().atMost(DEADLINE).until(controller::isRunning);
		return controller;
	}

	private static V1ConfigMap configMap(String namespace, String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name));
	}

	/**
	 * A set the test changes at once.
	 */
	private static final class Namespaces implements WatchedNamespaces {

		private volatile Set<String> current;

		Namespaces(String... namespaces) {
			this.current = Set.of(namespaces);
		}

		@Override
		public boolean watchesAll() {
			return false;
		}

		@Override
		public Set<String> current() {
			return this.current;
		}

		@Override
		public void set(Collection<String> namespaces) {
			this.current = Set.copyOf(namespaces);
		}

		@Override
		public void add(String... namespaces) {
			Set<String> next = new TreeSet<>(this.current);
			next.addAll(List.of(namespaces));
			this.current = next;
		}

		@Override
		public void remove(String... namespaces) {
			Set<String> next = new TreeSet<>(this.current);
			next.removeAll(List.of(namespaces));
			this.current = next;
		}

		@Override
		public Set<String> unsynced() {
			return Set.of();
		}

		@Override
		public boolean awaitSynced(Duration timeout) {
			return true;
		}

	}

	/**
	 * The default rate limiter, telling each backoff and forget.
	 */
	private static final class JournalingRateLimiter implements RateLimiter<Request> {

		private final RateLimiter<Request> limiter = RateLimiters.defaultControllerRateLimiter();

		private final List<String> journal;

		JournalingRateLimiter(List<String> journal) {
			this.journal = journal;
		}

		@Override
		public Duration when(Request item) {
			this.journal.add("backoff " + item.namespace() + "/" + item.name());
			return this.limiter.when(item);
		}

		@Override
		public void forget(Request item) {
			this.journal.add("forget " + item.namespace() + "/" + item.name());
			this.limiter.forget(item);
		}

		@Override
		public int numRequeues(Request item) {
			return this.limiter.numRequeues(item);
		}

	}

}
