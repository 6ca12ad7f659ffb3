package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.awaitility.Awaitility.await;

/**
 * The periodic resync ({@code operator.sync-period}) against a real kube-apiserver: every
 * cached object reaches the controllers again once per period, and the changes a relist
 * brings reach every controller whatever the resync timer does.
 */
@WithControlPlane
class ResyncIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void everyCachedObjectReachesTheControllerAgainEverySyncPeriod(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Manager manager = Manager.builder(admin).namespace(namespace.name()).syncPeriod(Duration.ofMillis(500)).build();
		this.resources.manager(manager);
		List<String> reconciled = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class).withEventFilter(EventFilters.all()).complete((request) -> {
			reconciled.add(request.name());
			return Result.done();
		});
		new CoreV1Api(admin).createNamespacedConfigMap(namespace.name(), configMap("quiet", "1")).execute();
		manager.start();
		// created once, never changed: every further reconcile is a resync
		await().atMost(WAIT).until(() -> reconciled.stream().filter("quiet"::equals).count() >= 4);
	}

	@Test
	void changesThatARelistBringsReachTheControllerInEveryResyncPeriod(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		TcpProxy proxy = this.resources.closeable(TcpProxy.to(controlPlane.apiServerUrl()));
		ApiClient client = controlPlane.adminClient();
		client.setBasePath(proxy.url("https"));
		// a short period: client-java's resync would have decided many times over which
		// handlers receive the next relist
		Manager manager = Manager.builder(client)
			.namespace(namespace.name())
			.syncPeriod(Duration.ofMillis(300))
			.build();
		this.resources.manager(manager);
		List<String> seen = new CopyOnWriteArrayList<>();
		// resyncs (same resourceVersion) are dropped: only a real change reconciles
		Controller.builder(manager, V1ConfigMap.class)
			.withEventFilter(EventFilters.resourceVersionChanged())
			.complete((request) -> {
				manager.cache()
					.get(V1ConfigMap.class, request)
					.ifPresent((configMap) -> seen.add(configMap.getData().get("v")));
				return Result.done();
			});
		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		admin.createNamespacedConfigMap(namespace.name(), configMap("changing", "0")).execute();
		manager.start();
		await().atMost(WAIT).until(() -> seen.contains("0"));
		Informer<V1ConfigMap> informer = manager.cache().informer(V1ConfigMap.class, namespace.name(), null);
		for (int round = 1; round <= 8; round++) {
			String value = String.valueOf(round);
			// the watch breaks and cannot be opened again: the change made meanwhile
			// arrives with the next list, not as a watch event
			proxy.cut();
			await().atMost(WAIT).until(() -> informer.failingFor() != null);
			admin.replaceNamespacedConfigMap("changing", namespace.name(), configMap("changing", value)).execute();
			proxy.restore();
			await().atMost(WAIT).until(() -> seen.contains(value));
		}
	}

	private static V1ConfigMap configMap(String name, String value) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", value));
	}

}
