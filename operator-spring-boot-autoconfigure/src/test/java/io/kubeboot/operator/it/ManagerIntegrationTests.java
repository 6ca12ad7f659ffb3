package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.cache.CacheAccessDeniedException;
import io.kubeboot.operator.client.KindNotServedException;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.manager.ManagerState;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The manager and its controllers against a real kube-apiserver.
 */
@WithControlPlane
class ManagerIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	private final TestResources resources = new TestResources();

	private ManagerBuilder manager(ApiClient client, TestNamespace namespace) {
		return Manager.builder(client).namespace(namespace.name()).gracefulShutdownTimeout(Duration.ofSeconds(10));
	}

	private Manager started(Manager manager) throws InterruptedException {
		this.resources.manager(manager);
		manager.start();
		return manager;
	}

	@Test
	void createUpdateAndDeleteOfConfigMapReachTheReconciler(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = manager(admin, namespace).build();
		List<String> seen = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			Optional<V1ConfigMap> configMap = manager.cache().get(V1ConfigMap.class, request);
			seen.add(request + "=" + configMap.map((cm) -> String.valueOf(cm.getData())).orElse("deleted"));
			return Result.done();
		});
		started(manager);
		CoreV1Api core = new CoreV1Api(admin);
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("one")).data(Map.of("k", "v1")))
			.execute();
		await().atMost(WAIT).until(() -> seen.contains(namespace + "/one={k=v1}"));
		core.replaceNamespacedConfigMap("one", namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("one")).data(Map.of("k", "v2")))
			.execute();
		await().atMost(WAIT).until(() -> seen.contains(namespace + "/one={k=v2}"));
		core.deleteNamespacedConfigMap("one", namespace.name()).execute();
		await().atMost(WAIT).until(() -> seen.contains(namespace + "/one=deleted"));
	}

	@Test
	void createUpdateAndDeleteOfCustomResourceReachTheReconciler(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Widgets.install(admin);
		Manager manager = manager(admin, namespace).build();
		List<String> seen = new CopyOnWriteArrayList<>();
		Controller.builder(manager, Widget.class).complete((request) -> {
			seen.add(request.name() + ":"
					+ manager.cache()
						.get(Widget.class, request)
						.map((widget) -> String.valueOf(widget.getSpec()))
						.orElse("deleted"));
			return Result.done();
		});
		started(manager);
		assertThat(Controller.of(manager).get(0).name()).isEqualTo("widget");
		GenericKubernetesApi<Widget, ?> widgets = Widgets.api(admin);
		widgets
			.create(new Widget().metadata(new V1ObjectMeta().name("w1").namespace(namespace.name()))
				.spec(Map.of("size", "large")))
			.throwsApiException();
		await().atMost(WAIT).until(() -> seen.contains("w1:{size=large}"));
		Widget current = widgets.get(namespace.name(), "w1").throwsApiException().getObject();
		widgets.update(current.spec(Map.of("size", "small"))).throwsApiException();
		await().atMost(WAIT).until(() -> seen.contains("w1:{size=small}"));
		widgets.delete(namespace.name(), "w1").throwsApiException();
		await().atMost(WAIT).until(() -> seen.contains("w1:deleted"));
	}

	@Test
	void objectsWithUnknownFieldsOrNoStatusAreReconciledAndAFailingReconcileNeverKillsAWorker(ApiClient admin,
			TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Manager manager = manager(admin, namespace).maxConcurrentReconciles(2).build();
		List<String> seen = new CopyOnWriteArrayList<>();
		Map<String, Integer> replicas = new ConcurrentHashMap<>();
		// a typed spec, so that a field it does not know could fail the decoding
		Controller.builder(manager, TypedWidget.class).complete((request) -> {
			TypedWidget widget = manager.cache().get(TypedWidget.class, request).orElseThrow();
			seen.add(request.name());
			replicas.put(request.name(), widget.getSpec().getReplicas());
			// a reconciler bug on a widget without status: NullPointerException, then
			// StackOverflowError
			if (request.name().equals("npe")) {
				return Result.requeueAfter(Duration.ofSeconds(widget.getStatus().size()));
			}
			if (request.name().equals("overflow")) {
				throw new StackOverflowError("simulated");
			}
			return Result.done();
		});
		started(manager);
		GenericKubernetesApi<Widget, ?> widgets = Widgets.api(admin);
		for (String name : List.of("npe", "overflow", "fine")) {
			widgets
				.create(new Widget().metadata(new V1ObjectMeta().name(name).namespace(namespace.name()))
					.spec(Map.of("replicas", 2, "size", "large", "unknownField", Map.of("nested", List.of(1, 2)))))
				.throwsApiException();
		}
		await().atMost(WAIT)
			.until(() -> seen.stream().filter("npe"::equals).count() >= 3
					&& seen.stream().filter("overflow"::equals).count() >= 3 && seen.contains("fine"));
		assertThat(Controller.of(manager).get(0).liveWorkers()).isEqualTo(2);
		assertThat(manager.state()).isEqualTo(ManagerState.RUNNING);
		// the fields the model knows were read, the others ignored
		assertThat(replicas).containsEntry("fine", 2).containsEntry("npe", 2);
		assertThat(manager.cache().informer(TypedWidget.class, namespace.name(), null).undecodableObjects()).isZero();
	}

	@Test
	void labelSelectorRestrictsTheReconciledObjects(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = manager(admin, namespace).build();
		List<String> seen = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class).labelSelector("app=web").complete((request) -> {
			seen.add(request.name());
			return Result.done();
		});
		CoreV1Api core = new CoreV1Api(admin);
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("other").labels(Map.of("app", "db"))))
			.execute();
		started(manager);
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("web").labels(Map.of("app", "web"))))
			.execute();
		await().atMost(WAIT).until(() -> seen.contains("web"));
		assertThat(seen).doesNotContain("other");
		assertThat(manager.cache().list(V1ConfigMap.class, namespace.name()))
			.extracting((cm) -> cm.getMetadata().getName())
			.containsExactly("web");
	}

	@Test
	void changeOfOwnedObjectReconcilesItsControllingOwner(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = manager(admin, namespace).build();
		List<Request> seen = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class).owns(V1Secret.class).complete((request) -> {
			seen.add(request);
			return Result.done();
		});
		CoreV1Api core = new CoreV1Api(admin);
		V1ConfigMap owner = core
			.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("owner")))
			.execute();
		started(manager);
		await().atMost(WAIT).until(() -> seen.contains(Request.of(namespace.name(), "owner")));
		int before = seen.size();
		V1OwnerReference reference = new V1OwnerReference().apiVersion("v1")
			.kind("ConfigMap")
			.name("owner")
			.uid(owner.getMetadata().getUid())
			.controller(true);
		core.createNamespacedSecret(namespace.name(),
				new V1Secret().metadata(new V1ObjectMeta().name("owned").ownerReferences(List.of(reference))))
			.execute();
		core.createNamespacedSecret(namespace.name(), new V1Secret().metadata(new V1ObjectMeta().name("unowned")))
			.execute();
		await().atMost(WAIT).until(() -> seen.size() > before);
		assertThat(seen.subList(before, seen.size())).containsOnly(Request.of(namespace.name(), "owner"));
		assertThat(seen).doesNotContain(Request.of(namespace.name(), "owned"), Request.of(namespace.name(), "unowned"));
	}

	@Test
	void watchedKindIsMappedThroughTheMapFunction(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = manager(admin, namespace).build();
		List<Request> seen = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class)
			.watches(V1Secret.class,
					(secret) -> List
						.of(Request.of(secret.getMetadata().getNamespace(), "for-" + secret.getMetadata().getName())))
			.complete((request) -> {
				seen.add(request);
				return Result.done();
			});
		started(manager);
		new CoreV1Api(admin)
			.createNamespacedSecret(namespace.name(), new V1Secret().metadata(new V1ObjectMeta().name("s1")))
			.execute();
		await().atMost(WAIT).until(() -> seen.contains(Request.of(namespace.name(), "for-s1")));
	}

	@Test
	void requeueAfterReconcilesAgainAfterTheDelay(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = manager(admin, namespace).build();
		List<Long> times = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			times.add(System.nanoTime());
			return (times.size() < 4) ? Result.requeueAfter(Duration.ofMillis(300)) : Result.done();
		});
		new CoreV1Api(admin)
			.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("poll")))
			.execute();
		started(manager);
		await().atMost(WAIT).until(() -> times.size() >= 4);
		for (int i = 1; i < 4; i++) {
			assertThat(TimeUnit.NANOSECONDS.toMillis(times.get(i) - times.get(i - 1))).isGreaterThanOrEqualTo(300);
		}
	}

	@Test
	void failingReconcileIsRetriedWithGrowingBackoff(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = manager(admin, namespace).build();
		List<Long> times = new CopyOnWriteArrayList<>();
		Map<String, String> reconciledOk = new ConcurrentHashMap<>();
		// one worker: the failing key's backoff must not hold it
		Controller.builder(manager, V1ConfigMap.class)
			.rateLimiter(() -> RateLimiters.exponentialFailure(Duration.ofMillis(5), Duration.ofMillis(80)))
			.complete((request) -> {
				if (request.name().equals("ok")) {
					manager.cache()
						.get(V1ConfigMap.class, request)
						.ifPresent((configMap) -> reconciledOk.put("n", configMap.getData().get("n")));
					return Result.done();
				}
				times.add(System.nanoTime());
				throw new IllegalStateException("failing on purpose, attempt " + times.size());
			});
		CoreV1Api core = new CoreV1Api(admin);
		core.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("fails")))
			.execute();
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("ok")).data(Map.of("n", "0")))
			.execute();
		started(manager);
		// other keys keep flowing while one fails and backs off
		for (int n = 1; n <= 5; n++) {
			String expected = String.valueOf(n);
			core.replaceNamespacedConfigMap("ok", namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("ok")).data(Map.of("n", expected)))
				.execute();
			await().atMost(WAIT).until(() -> expected.equals(reconciledOk.get("n")));
		}
		// uncapped, the sixteenth attempt would come 160s after the first
		await().atMost(WAIT).until(() -> times.size() >= 16);
		for (int i = 1; i < 16; i++) {
			// 5ms, 10ms, 20ms, 40ms, then the cap of 80ms, as the limiter schedules
			long expectedMillis = Math.min(5L << (i - 1), 80);
			Duration gap = Duration.ofNanos(times.get(i) - times.get(i - 1));
			assertThat(gap).as("gap before attempt %d", i + 1)
				.isGreaterThanOrEqualTo(Duration.ofMillis(expectedMillis));
			if (i >= 5) {
				// capped (without the cap the tenth gap would be 2.6s, the fifteenth 82s)
				assertThat(gap).as("gap before attempt %d", i + 1).isLessThan(Duration.ofSeconds(5));
			}
		}
	}

	@Test
	void stopLetsInFlightReconcileFinishAndStartsNothingNew(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = manager(admin, namespace).build();
		CountDownLatch inside = new CountDownLatch(1);
		AtomicInteger started = new AtomicInteger();
		AtomicBoolean finished = new AtomicBoolean();
		AtomicBoolean interrupted = new AtomicBoolean();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			started.incrementAndGet();
			inside.countDown();
			try {
				Thread.sleep(1500);
				finished.set(true);
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
			}
			return Result.done();
		});
		CoreV1Api core = new CoreV1Api(admin);
		core.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("a")))
			.execute();
		core.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("b")))
			.execute();
		started(manager);
		assertThat(inside.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		manager.stop();
		assertThat(finished).isTrue();
		assertThat(interrupted).isFalse();
		assertThat(started).hasValue(1); // "b" was waiting in the queue and never started
		assertThat(manager.state()).isEqualTo(ManagerState.STOPPED);
	}

	@Test
	void stopInterruptsReconcileThatOutlivesTheGracefulTimeout(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Manager manager = manager(admin, namespace).gracefulShutdownTimeout(Duration.ofMillis(500)).build();
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch interrupted = new CountDownLatch(1);
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			inside.countDown();
			try {
				Thread.sleep(60_000);
			}
			catch (InterruptedException ex) {
				interrupted.countDown();
			}
			return Result.done();
		});
		new CoreV1Api(admin)
			.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("slow")))
			.execute();
		started(manager);
		assertThat(inside.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		manager.stop();
		assertThat(interrupted.await(0, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void controllerForKindWithoutCrdFailsStartNamingTheKind(ApiClient admin, TestNamespace namespace) {
		Manager manager = manager(admin, namespace).build();
		Controller.builder(manager, Gadget.class).complete((request) -> Result.done());
		this.resources.manager(manager);
		assertThatExceptionOfType(KindNotServedException.class).isThrownBy(manager::start)
			.withMessageContaining("Kind Gadget (test.kubeboot.io/v1) of " + Gadget.class.getName()
					+ " is not served by the API server")
			.withMessageContaining("is its CustomResourceDefinition installed?");
		assertThat(manager.state()).isEqualTo(ManagerState.FAILED);
	}

	@Test
	void forbiddenListAndWatchFailStartWithinSyncTimeoutNamingVerbsResourceAndNamespace(ControlPlane controlPlane,
			TestNamespace namespace) {
		Manager manager = manager(controlPlane.clientFor("user1"), namespace).cacheSyncTimeout(Duration.ofSeconds(3))
			.build();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> Result.done());
		this.resources.manager(manager);
		assertThatExceptionOfType(CacheAccessDeniedException.class).isThrownBy(manager::start)
			.withMessage("RBAC denies this operator's identity what its caches need: list, watch configmaps in "
					+ "namespace '" + namespace + "'. Grant get, list and watch on them to its service account (a Role "
					+ "and RoleBinding in each namespace, a ClusterRole and ClusterRoleBinding for all namespaces or "
					+ "cluster-scoped kinds)");
		assertThat(manager.state()).isEqualTo(ManagerState.FAILED);
	}

	@Test
	void watchDeniedWhereListIsAllowedIsNamedAlone(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(controlPlane.adminClient());
		rbac.createNamespacedRole(namespace.name(),
				new V1Role().metadata(new V1ObjectMeta().name("list-only"))
					.rules(List.of(new V1PolicyRule().apiGroups(List.of(""))
						.resources(List.of("configmaps"))
						.verbs(List.of("get", "list")))))
			.execute();
		rbac.createNamespacedRoleBinding(namespace.name(),
				new V1RoleBinding().metadata(new V1ObjectMeta().name("list-only"))
					.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("list-only"))
					.subjects(List.of(new RbacV1Subject().kind("User").name("user2"))))
			.execute();
		Manager manager = manager(controlPlane.clientFor("user2"), namespace).cacheSyncTimeout(Duration.ofSeconds(3))
			.build();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> Result.done());
		this.resources.manager(manager);
		assertThatExceptionOfType(CacheAccessDeniedException.class).isThrownBy(manager::start)
			.withMessageStartingWith("RBAC denies this operator's identity what its caches need: watch configmaps in "
					+ "namespace '" + namespace + "'. ");
	}

	@Test
	void theStartUpAccessCheckRunsBesideTheFirstLists(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		// each access review waits, a while at most, for the informer's first list
		CountDownLatch listed = new CountDownLatch(1);
		AtomicInteger reviewsBeforeTheList = new AtomicInteger();
		ApiClient client = controlPlane.adminClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			String path = chain.request().url().encodedPath();
			if (path.endsWith("/selfsubjectaccessreviews")) {
				try {
					if (!listed.await(5, TimeUnit.SECONDS)) {
						reviewsBeforeTheList.incrementAndGet();
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			else if (path.endsWith("/namespaces/" + namespace.name() + "/configmaps")) {
				// a list, or a watch that streams the list (Kubernetes 1.34+)
				listed.countDown();
			}
			return chain.proceed(chain.request());
		}).build());
		Manager manager = manager(client, namespace).build();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> Result.done());
		started(manager);
		assertThat(listed.getCount()).isZero();
		assertThat(reviewsBeforeTheList).hasValue(0);
		assertThat(manager.state()).isEqualTo(ManagerState.RUNNING);
	}

	@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Gadget")
	static class Gadget extends Widget {

	}

}
