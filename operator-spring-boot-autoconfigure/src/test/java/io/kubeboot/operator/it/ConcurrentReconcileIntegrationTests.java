package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Many updates on few keys with more workers than keys, against a real kube-apiserver
 * (scenario 13 of RELIABILITY.md): one key is never reconciled by two workers at once,
 * and every key converges on its last update.
 */
@WithControlPlane
class ConcurrentReconcileIntegrationTests {

	private static final int KEYS = 10;

	private static final int UPDATES_PER_KEY = 100;

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void keysAreNeverReconciledTwiceAtOnceAndEachConvergesOnItsLastUpdate(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Manager manager = this.resources.manager(Manager.builder(admin).namespace(namespace.name()).build());
		Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
		Map<String, Integer> lastSeen = new ConcurrentHashMap<>();
		List<String> overlaps = new CopyOnWriteArrayList<>();
		AtomicInteger reconciles = new AtomicInteger();
		// each key's first reconcile lasts until every update was written: the updates of
		// a key in progress must then coalesce into one more reconcile of it
		CountDownLatch written = new CountDownLatch(1);
		Set<String> started = ConcurrentHashMap.newKeySet();
		Controller.builder(manager, V1ConfigMap.class).maxConcurrentReconciles(3 * KEYS).complete((request) -> {
			AtomicInteger running = inFlight.computeIfAbsent(request.name(), (name) -> new AtomicInteger());
			if (running.incrementAndGet() > 1) {
				overlaps.add(request.name());
			}
			try {
				reconciles.incrementAndGet();
				if (started.add(request.name())) {
					written.await(60, TimeUnit.SECONDS);
				}
				manager.cache()
					.get(V1ConfigMap.class, request)
					.ifPresent((configMap) -> lastSeen.put(request.name(),
							Integer.parseInt(configMap.getData().get("n"))));
				// some work, so that a second worker on the same key would overlap
				Thread.sleep(2);
				return Result.done();
			}
			finally {
				running.decrementAndGet();
			}
		});
		CoreV1Api api = new CoreV1Api(admin);
		for (int key = 0; key < KEYS; key++) {
			api.createNamespacedConfigMap(namespace.name(), configMap("key-" + key, 0)).execute();
		}
		manager.start();
		ExecutorService writers = Executors.newFixedThreadPool(KEYS);
		try {
			List<Future<?>> writes = new ArrayList<>();
			for (int key = 0; key < KEYS; key++) {
				String name = "key-" + key;
				writes.add(writers.submit(() -> {
					for (int n = 1; n <= UPDATES_PER_KEY; n++) {
						replace(api, namespace.name(), configMap(name, n));
					}
					return null;
				}));
			}
			for (Future<?> write : writes) {
				write.get();
			}
		}
		finally {
			written.countDown();
			writers.shutdownNow();
		}
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			for (int key = 0; key < KEYS; key++) {
				assertThat(lastSeen.get("key-" + key)).as("key-" + key).isEqualTo(UPDATES_PER_KEY);
			}
		});
		assertThat(overlaps).isEmpty();
		// the queue coalesced the updates that arrived while a key was in progress: one
		// reconcile per update would be over a thousand
		System.out.println("reconciles of " + KEYS + " keys updated " + UPDATES_PER_KEY + " times each: " + reconciles);
		assertThat(reconciles.get()).isGreaterThanOrEqualTo(KEYS).isLessThan(KEYS * UPDATES_PER_KEY / 4);
	}

	private static void replace(CoreV1Api api, String namespace, V1ConfigMap configMap) throws ApiException {
		api.replaceNamespacedConfigMap(configMap.getMetadata().getName(), namespace, configMap).execute();
	}

	private static V1ConfigMap configMap(String name, int n) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("n", String.valueOf(n)));
	}

}
