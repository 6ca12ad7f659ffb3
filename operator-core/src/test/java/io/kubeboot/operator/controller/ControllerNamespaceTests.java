package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
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

	@AfterEach
	void stopController() throws InterruptedException {
		this.release.countDown();
		this.stop.fire();
		if (this.running != null) {
			this.running.join(DEADLINE.toMillis());
		}
	}

	@Test
	void requestsOfANamespaceOutsideTheSetAreNeverReconciled() {
		Controller controller = start(this::record);
		this.configMaps.add(configMap("c", "outside"));
		controller.enqueue(Request.of("c", "sent"));
		this.configMaps.add(configMap("a", "inside"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/inside"));
		controller.enqueue(Request.of("b", "last"));
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
		controller.enqueue(Request.of("a", "blocking"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/blocking"));
		controller.enqueue(Request.of("b", "queued"));
		await().atMost(DEADLINE).until(() -> controller.queueDepth() == 1);
		this.namespaces.current = Set.of("a");
		this.release.countDown();
		controller.enqueue(Request.of("a", "after"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/after"));
		assertThat(this.reconciled).containsExactly("a/blocking", "a/after");
	}

	@Test
	void requestsOfANamespaceWaitUntilEveryInformerFollowingTheSetHasSyncedIt() {
		this.namespaces.current = Set.of("a", "b", "c");
		this.secrets.synced("c", false);
		Controller controller = start(this::record);
		controller.enqueue(Request.of("c", "new"));
		controller.enqueue(Request.of("a", "old"));
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/old"));
		// looked at again, and again held, for a while
		await().during(Controller.NAMESPACE_SYNC_RETRY.multipliedBy(3))
			.atMost(DEADLINE)
			.until(() -> !this.reconciled.contains("c/new"));
		this.secrets.synced("c", true);
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("c/new"));
		assertThat(this.reconciled).containsExactly("a/old", "c/new");
	}

	@Test
	void theControllerStartsWithoutWaitingForANamespaceItsInformersHaveNotSynced() {
		this.configMaps.synced("b", false);
		this.configMaps.add(configMap("a", "listed"));
		start(this::record);
		await().atMost(DEADLINE).until(() -> this.reconciled.contains("a/listed"));
	}

	private Result record(Request request) {
		this.reconciled.add(request.namespace() + "/" + request.name());
		return Result.done();
	}

	private Controller start(Reconciler reconciler) {
		EventSource<V1ConfigMap> primary = new EventSource<>("test", this.configMaps,
				(object) -> List.of(Request.of(object)));
		EventSource<V1Secret> watched = new EventSource<>("test", this.secrets, (secret) -> List.of());
		Controller controller = new Controller("test", V1ConfigMap.class, reconciler, 1, true,
				RateLimiters::defaultControllerRateLimiter, (name) -> WorkQueueMetrics.NOOP, ControllerMetrics.NOOP,
				List.of(primary, watched), DEADLINE, List::of, LeaderOnly.INSTANCE,
				new NamespaceFilter(this.namespaces, List.of(this.configMaps, this.secrets)));
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
		public boolean all() {
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

}
