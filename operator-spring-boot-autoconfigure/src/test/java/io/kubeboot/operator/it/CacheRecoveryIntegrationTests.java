package io.kubeboot.operator.it;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerHealth;
import io.kubeboot.operator.micrometer.OperatorMetrics;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Caches and readiness across API server outages (faults 11 and 12 of RELIABILITY.md),
 * against a real kube-apiserver.
 */
@WithControlPlane
class CacheRecoveryIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void changesMadeWhileTheApiServerWasUnreachableAreReconciledAfterRecovery(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		TcpProxy proxy = this.resources.closeable(TcpProxy.to(controlPlane.apiServerUrl()));
		ApiClient client = controlPlane.adminClient();
		client.setBasePath(proxy.url("https"));
		Manager manager = this.resources.manager(Manager.builder(client).namespace(namespace.name()).build());
		List<String> seen = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			seen.add(request.name() + "="
					+ manager.cache()
						.get(V1ConfigMap.class, request)
						.map((cm) -> String.valueOf(cm.getData()))
						.orElse("deleted"));
			return Result.done();
		});
		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		admin.createNamespacedConfigMap(namespace.name(), configMap("changed", "before")).execute();
		admin.createNamespacedConfigMap(namespace.name(), configMap("deleted", "before")).execute();
		manager.start();
		ManagerHealth health = new ManagerHealth(manager, Duration.ofSeconds(1));
		await().atMost(WAIT).until(() -> seen.contains("changed={v=before}") && seen.contains("deleted={v=before}"));
		assertThat(ManagerHealth.allPassed(health.readiness())).isTrue();

		proxy.cut();
		admin.createNamespacedConfigMap(namespace.name(), configMap("created", "during")).execute();
		admin.replaceNamespacedConfigMap("changed", namespace.name(), configMap("changed", "during")).execute();
		admin.deleteNamespacedConfigMap("deleted", namespace.name()).execute();
		await().atMost(WAIT).until(() -> !ManagerHealth.allPassed(health.readiness()));
		// the informer's failing watch, or the cache's unanswered probe of the API
		// server, whichever passed the threshold first
		assertThat(ManagerHealth.failures(health.readiness())).startsWith("watches: ")
			.containsAnyOf("V1ConfigMap[namespace=" + namespace, "API server unanswered for ");

		proxy.restore();
		await().atMost(WAIT)
			.until(() -> seen.contains("created={v=during}") && seen.contains("changed={v=during}")
					&& seen.contains("deleted=deleted"));
		await().atMost(WAIT).until(() -> ManagerHealth.allPassed(health.readiness()));
		assertThat(manager.cache().list(V1ConfigMap.class, namespace.name()))
			.extracting((cm) -> cm.getMetadata().getName())
			.containsExactlyInAnyOrder("changed", "created");
	}

	/**
	 * The acceptance scenario of the caches issue: the API server the operator talks to
	 * is stopped for 30 s while the cluster goes on through another API server on the
	 * same etcd.
	 */
	@Test
	void apiServerStoppedFor30SecondsEveryChangeMeanwhileIsReconciledAfterItsRestart(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		URI other = controlPlane.startAdditionalApiServer();
		Manager manager = Manager.builder(controlPlane.adminClient()).namespace(namespace.name()).build();
		this.resources.manager(manager);
		Map<String, String> latest = new ConcurrentHashMap<>();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			latest.put(request.name(),
					manager.cache()
						.get(V1ConfigMap.class, request)
						.map((cm) -> String.valueOf(cm.getData()))
						.orElse("deleted"));
			return Result.done();
		});
		CoreV1Api admin = new CoreV1Api(controlPlane.clientFor(ControlPlane.ADMIN, other));
		admin.createNamespacedConfigMap(namespace.name(), configMap("changed", "before")).execute();
		admin.createNamespacedConfigMap(namespace.name(), configMap("deleted", "before")).execute();
		manager.start();
		await().atMost(WAIT)
			.until(() -> "{v=before}".equals(latest.get("changed")) && "{v=before}".equals(latest.get("deleted")));
		ManagerHealth health = new ManagerHealth(manager, Duration.ofSeconds(1));
		assertThat(ManagerHealth.allPassed(health.readiness())).isTrue();
		try (ReadinessSampler readiness = new ReadinessSampler(health)) {
			long stopped = System.nanoTime();
			controlPlane.stopApiServer();
			admin.createNamespacedConfigMap(namespace.name(), configMap("created", "during")).execute();
			admin.replaceNamespacedConfigMap("changed", namespace.name(), configMap("changed", "during")).execute();
			admin.deleteNamespacedConfigMap("deleted", namespace.name()).execute();
			await().atMost(WAIT).until(readiness::sawNotReady);
			// the outage itself: 30 s from the stop
			Thread.sleep(Math.max(0,
					Duration.ofSeconds(30).toMillis() - Duration.ofNanos(System.nanoTime() - stopped).toMillis()));
			// nothing of it reached the operator while its API server was down
			assertThat(latest).doesNotContainKey("created").containsEntry("changed", "{v=before}");
			controlPlane.startApiServer();
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(latest).containsEntry("created", "{v=during}")
					.containsEntry("changed", "{v=during}")
					.containsEntry("deleted", "deleted"));
			await().atMost(Duration.ofSeconds(20)).until(() -> ManagerHealth.allPassed(health.readiness()));
		}
	}

	@Test
	void restartOfTheApiServerDipsReadinessAndTheCacheRecovers(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		Manager manager = Manager.builder(controlPlane.adminClient()).namespace(namespace.name()).build();
		this.resources.manager(manager);
		List<String> seen = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			seen.add(request.name());
			return Result.done();
		});
		manager.start();
		ManagerHealth health = new ManagerHealth(manager, Duration.ofMillis(500));
		AtomicBoolean sawNotReady = new AtomicBoolean();
		AtomicBoolean sampling = new AtomicBoolean(true);
		Thread sampler = new Thread(() -> {
			while (sampling.get()) {
				if (!ManagerHealth.allPassed(health.readiness())) {
					sawNotReady.set(true);
				}
				try {
					Thread.sleep(50);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		});
		sampler.start();
		try {
			controlPlane.restartApiServer();
			new CoreV1Api(controlPlane.adminClient())
				.createNamespacedConfigMap(namespace.name(), configMap("after-restart", "x"))
				.execute();
			await().atMost(WAIT).until(() -> seen.contains("after-restart"));
			await().atMost(WAIT).until(() -> ManagerHealth.allPassed(health.readiness()));
		}
		finally {
			sampling.set(false);
			sampler.join();
		}
		assertThat(sawNotReady).isTrue();
	}

	@Test
	void afterCompactionAndABrokenWatchTheCacheEqualsAFreshList(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		TcpProxy proxy = this.resources.closeable(TcpProxy.to(controlPlane.apiServerUrl()));
		ApiClient client = controlPlane.adminClient();
		client.setBasePath(proxy.url("https"));
		Manager manager = this.resources.manager(Manager.builder(client).namespace(namespace.name()).build());
		Set<String> deletedSeen = reconcileRecordingDeletions(manager);
		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		for (int i = 0; i < 20; i++) {
			admin.createNamespacedConfigMap(namespace.name(), configMap("cm-" + i, "0")).execute();
		}
		manager.start();
		proxy.cut();
		// more changes than kube-apiserver's watch cache keeps, then an etcd compaction:
		// the old resource version is gone for good and resuming the watch must answer
		// 410 Gone
		for (int round = 1; round <= 12; round++) {
			for (int i = 0; i < 20; i++) {
				admin.replaceNamespacedConfigMap("cm-" + i, namespace.name(), configMap("cm-" + i, "" + round))
					.execute();
			}
		}
		for (int i = 0; i < 5; i++) {
			admin.deleteNamespacedConfigMap("cm-" + i, namespace.name()).execute();
		}
		admin.createNamespacedConfigMap(namespace.name(), configMap("late", "x")).execute();
		Etcd.compact(controlPlane.etcdEndpoint());
		proxy.restore();
		await().atMost(WAIT)
			.until(() -> snapshot(manager.cache().list(V1ConfigMap.class, namespace.name()))
				.equals(snapshot(admin.listNamespacedConfigMap(namespace.name()).execute().getItems())));
		await().atMost(WAIT).until(() -> deletedSeen.containsAll(List.of("cm-0", "cm-1", "cm-2", "cm-3", "cm-4")));
	}

	@Test
	void watchdogReplacesAStalledWatchAndDeletionsStillReachTheReconciler(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		TcpProxy proxy = this.resources.closeable(TcpProxy.to(controlPlane.apiServerUrl()));
		ApiClient client = controlPlane.adminClient();
		client.setBasePath(proxy.url("https"));
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		OperatorMetrics metrics = new OperatorMetrics(registry);
		Manager manager = metrics
			.applyTo(Manager.builder(client)
				.namespace(namespace.name())
				.watchTimeout(Duration.ofSeconds(2))
				.watchSilenceThreshold(Duration.ofSeconds(3)))
			.build();
		metrics.bindTo(manager);
		this.resources.manager(manager);
		Set<String> deletedSeen = reconcileRecordingDeletions(manager);
		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		admin.createNamespacedConfigMap(namespace.name(), configMap("kept", "1")).execute();
		admin.createNamespacedConfigMap(namespace.name(), configMap("deleted", "1")).execute();
		manager.start();
		await().atMost(WAIT).until(() -> manager.cache().list(V1ConfigMap.class, namespace.name()).size() == 2);
		ReadinessSampler readiness = new ReadinessSampler(new ManagerHealth(manager, Duration.ofMinutes(1)));
		// a half-open connection: the watch neither delivers nor fails, the API server
		// looks fine
		proxy.stall();
		admin.deleteNamespacedConfigMap("deleted", namespace.name()).execute();
		admin.replaceNamespacedConfigMap("kept", namespace.name(), configMap("kept", "2")).execute();
		admin.createNamespacedConfigMap(namespace.name(), configMap("created", "1")).execute();
		await().atMost(WAIT)
			.until(() -> registry.get("operator.informer.restarts")
				.tags("kind", "ConfigMap", "namespace", namespace.name(), "selector", "")
				.functionCounter()
				.count() >= 1);
		await().atMost(WAIT)
			.until(() -> snapshot(manager.cache().list(V1ConfigMap.class, namespace.name()))
				.equals(snapshot(admin.listNamespacedConfigMap(namespace.name()).execute().getItems())));
		await().atMost(WAIT).until(() -> deletedSeen.contains("deleted"));
		readiness.close();
		assertThat(readiness.failures()).isNotEmpty()
			.allMatch((failure) -> failure.startsWith("watches: V1ConfigMap[namespace=" + namespace.name() + "] ")
					&& (failure.contains(" silent for ") || failure.contains(" restarting after a silent watch for ")));
	}

	/**
	 * Adds a ConfigMap controller whose reconciles record the names they find missing
	 * from the cache: deletions as the reconciler sees them.
	 */
	private static Set<String> reconcileRecordingDeletions(Manager manager) {
		Set<String> deleted = ConcurrentHashMap.newKeySet();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			if (manager.cache().get(V1ConfigMap.class, request).isEmpty()) {
				deleted.add(request.name());
			}
			return Result.done();
		});
		return deleted;
	}

	private static Map<String, String> snapshot(List<V1ConfigMap> configMaps) {
		Map<String, String> versions = new TreeMap<>();
		configMaps.forEach((cm) -> versions.put(cm.getMetadata().getName(), cm.getMetadata().getResourceVersion()));
		return versions;
	}

	private static V1ConfigMap configMap(String name, String value) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", value));
	}

}
