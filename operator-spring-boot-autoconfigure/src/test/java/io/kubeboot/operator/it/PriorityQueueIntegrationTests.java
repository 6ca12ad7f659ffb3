package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerEventHandler;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The priority queue against a real kube-apiserver: a controller that starts with a
 * backlog of existing objects reconciles a change made meanwhile before the rest of the
 * backlog, and the informer tells the adds of its initial list from those of changes.
 * <p>
 * The controller has one worker, whose first reconcile waits until the changes are
 * queued: the assertions are about order, never about time.
 */
@WithControlPlane
class PriorityQueueIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(15);

	private static final int BACKLOG = 400;

	@RegisterExtension
	private final TestResources resources = new TestResources();

	private final List<String> reconciled = new CopyOnWriteArrayList<>();

	private final CountDownLatch release = new CountDownLatch(1);

	private final DepthsByPriority depths = new DepthsByPriority();

	/**
	 * Releases the first reconcile before the managers stop: {@link TestResources} stops
	 * them after the {@code @AfterEach} methods.
	 */
	@AfterEach
	void release() {
		this.release.countDown();
	}

	@Test
	void changesMadeWhileTheControllerWorksThroughItsBacklogAreReconciledBeforeTheBacklog(ApiClient admin,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		createConfigMaps(api, namespace.name(), BACKLOG);
		Controller controller = startController(admin, namespace, true);
		// the first object of the backlog is being reconciled, the others wait
		awaitFirstReconcileAheadOfTheBacklog(controller);
		assertThat(this.depths.of(WorkQueue.LOW_PRIORITY)).isEqualTo(BACKLOG - 1);
		String changed = this.reconciled.get(0).equals("cm-7") ? "cm-8" : "cm-7";

		api.createNamespacedConfigMap(namespace.name(), configMap("created", "1")).execute();
		api.replaceNamespacedConfigMap(changed, namespace.name(), configMap(changed, "2")).execute();
		// both changes wait at the default priority, ahead of the backlog
		await().atMost(WAIT).until(() -> this.depths.of(WorkQueue.DEFAULT_PRIORITY) == 2);
		this.release.countDown();

		await().atMost(WAIT).until(() -> this.reconciled.size() == BACKLOG + 1);
		assertThat(this.reconciled.subList(1, 3)).containsExactly("created", changed);
		assertThat(this.reconciled).doesNotHaveDuplicates();
	}

	@Test
	void withoutThePriorityQueueAChangeWaitsBehindTheWholeBacklog(ApiClient admin, TestNamespace namespace)
			throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		createConfigMaps(api, namespace.name(), BACKLOG);
		Controller controller = startController(admin, namespace, false);
		awaitFirstReconcileAheadOfTheBacklog(controller);

		api.createNamespacedConfigMap(namespace.name(), configMap("created", "1")).execute();
		await().atMost(WAIT).until(() -> controller.queueDepth() == BACKLOG);
		this.release.countDown();

		await().atMost(WAIT).until(() -> this.reconciled.size() == BACKLOG + 1);
		assertThat(this.reconciled.get(BACKLOG)).isEqualTo("created");
	}

	@Test
	void theInformerTellsTheAddsOfAnInitialListFromTheAddsOfChanges(ApiClient admin, TestNamespace namespace)
			throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		createConfigMaps(api, namespace.name(), 3);
		Manager manager = this.resources.manager(Manager.builder(admin).namespace(namespace.name()).build());
		Informer<V1ConfigMap> informer = manager.cache().informer(V1ConfigMap.class, namespace.name(), null);
		Map<String, Boolean> early = new ConcurrentHashMap<>();
		informer.addEventHandler(new RecordingHandler(early));
		manager.start();
		await().atMost(WAIT).until(() -> early.size() == 3);

		api.createNamespacedConfigMap(namespace.name(), configMap("created", "1")).execute();
		await().atMost(WAIT).until(() -> early.size() == 4);
		// a handler added to the running informer first receives every cached object
		Map<String, Boolean> late = new ConcurrentHashMap<>();
		informer.addEventHandler(new RecordingHandler(late));
		await().atMost(WAIT).until(() -> late.size() == 4);
		api.createNamespacedConfigMap(namespace.name(), configMap("created-later", "1")).execute();
		await().atMost(WAIT).until(() -> early.size() == 5 && late.size() == 5);

		assertThat(early).containsExactlyInAnyOrderEntriesOf(
				Map.of("cm-0", true, "cm-1", true, "cm-2", true, "created", false, "created-later", false));
		assertThat(late).containsExactlyInAnyOrderEntriesOf(
				Map.of("cm-0", true, "cm-1", true, "cm-2", true, "created", true, "created-later", false));
	}

	private Controller startController(ApiClient admin, TestNamespace namespace, boolean priorityQueue)
			throws InterruptedException {
		Manager manager = this.resources.manager(Manager.builder(admin)
			.namespace(namespace.name())
			.priorityQueue(priorityQueue)
			.workQueueMetrics((name) -> this.depths)
			.build());
		Controller controller = Controller.builder(manager, V1ConfigMap.class)
			.withEventFilter(EventFilters.all())
			.maxConcurrentReconciles(1)
			.complete(this::record);
		manager.start();
		return controller;
	}

	private void awaitFirstReconcileAheadOfTheBacklog(Controller controller) {
		// a precondition, not a measure: a generous deadline; the counts in the message
		// tell a slow start from a lost or an extra request
		await().atMost(WAIT.multipliedBy(4))
			.untilAsserted(() -> assertThat(
					controller.assignedObjects() + " cached, " + this.reconciled.size() + " reconciled, "
							+ controller.queueDepth() + " queued, " + controller.activeWorkers() + " reconciling")
				.isEqualTo(BACKLOG + " cached, 1 reconciled, " + (BACKLOG - 1) + " queued, 1 reconciling"));
	}

	private Result record(Request request) throws InterruptedException {
		this.reconciled.add(request.name());
		this.release.await();
		return Result.done();
	}

	private static void createConfigMaps(CoreV1Api api, String namespace, int count) throws Exception {
		ExecutorService creators = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> created = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String name = "cm-" + i;
				created.add(creators
					.submit(() -> api.createNamespacedConfigMap(namespace, configMap(name, "1")).execute()));
			}
			for (Future<?> future : created) {
				future.get();
			}
		}
		finally {
			creators.shutdownNow();
		}
	}

	private static V1ConfigMap configMap(String name, String value) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", value));
	}

	/**
	 * Records, for each object, whether its last add came from an initial list.
	 */
	private record RecordingHandler(Map<String, Boolean> adds) implements InformerEventHandler<V1ConfigMap> {

		@Override
		public void onAdd(V1ConfigMap object, boolean inInitialList) {
			this.adds.put(object.getMetadata().getName(), inInitialList);
		}

		@Override
		public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
		}

		@Override
		public void onDelete(V1ConfigMap object, boolean deletedFinalStateUnknown) {
		}

	}

	/**
	 * The depth of each priority of the controller's queue, as its metrics report it.
	 */
	private static final class DepthsByPriority implements WorkQueueMetrics {

		private final Map<Integer, AtomicInteger> depths = new ConcurrentHashMap<>();

		@Override
		public void depth(int priority, int depth) {
			this.depths.computeIfAbsent(priority, (key) -> new AtomicInteger()).set(depth);
		}

		int of(int priority) {
			AtomicInteger depth = this.depths.get(priority);
			return (depth != null) ? depth.get() : 0;
		}

	}

}
