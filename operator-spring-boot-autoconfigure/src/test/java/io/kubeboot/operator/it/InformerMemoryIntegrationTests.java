package io.kubeboot.operator.it;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an informer's heap holds against a real kube-apiserver: once the cache replaced or
 * dropped an object of its first list, nothing keeps that version alive. client-java's
 * reflector keeps the list it read in a local variable for as long as its watch runs;
 * without the informer emptying it, every object as first listed stayed reachable (a
 * cache of objects that all changed since the start held each twice, and a replica of a
 * label-sharded controller held every object it gave back).
 */
@WithControlPlane
class InformerMemoryIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final int OBJECTS = 20;

	@RegisterExtension
	private final TestResources resources = new TestResources();

	private Manager manager;

	@Test
	void objectsOfTheFirstListAreFreedOnceTheCacheNoLongerHoldsThem(ApiClient admin, TestNamespace namespace)
			throws Exception {
		String ns = namespace.name();
		CoreV1Api api = new CoreV1Api(admin);
		for (int i = 0; i < OBJECTS; i++) {
			api.createNamespacedConfigMap(ns,
					new V1ConfigMap().metadata(new V1ObjectMeta().name("listed-" + i)).data(Map.of("value", "first")))
				.execute();
		}
		this.manager = this.resources.manager(Manager.builder(admin).namespace(ns).build());
		this.manager.cache().informer(V1ConfigMap.class, ns, null);
		this.manager.start();
		List<WeakReference<V1ConfigMap>> firstListed = new ArrayList<>();
		for (int i = 0; i < OBJECTS; i++) {
			firstListed.add(new WeakReference<>(cached(ns, "listed-" + i)));
		}
		// half change, half go away: the cache replaces the first and drops the others
		for (int i = 0; i < OBJECTS; i++) {
			String name = "listed-" + i;
			if (i % 2 == 0) {
				V1ConfigMap changed = api.readNamespacedConfigMap(name, ns).execute();
				changed.setData(Map.of("value", "second"));
				api.replaceNamespacedConfigMap(name, ns, changed).execute();
			}
			else {
				api.deleteNamespacedConfigMap(name, ns).execute();
			}
		}
		await().atMost(WAIT).until(() -> {
			for (int i = 0; i < OBJECTS; i++) {
				V1ConfigMap now = this.manager.cache()
					.get(V1ConfigMap.class, Request.of(ns, "listed-" + i))
					.orElse(null);
				boolean caughtUp = (i % 2 == 0) ? now != null && "second".equals(now.getData().get("value"))
						: now == null;
				if (!caughtUp) {
					return false;
				}
			}
			return true;
		});
		await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			System.gc();
			assertThat(firstListed).as("objects of the first list still reachable")
				.allSatisfy((reference) -> assertThat(reference.get()).isNull());
		});
	}

	private V1ConfigMap cached(String namespace, String name) {
		return this.manager.cache().get(V1ConfigMap.class, Request.of(namespace, name)).orElseThrow();
	}

}
