package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Finalizers against a real kube-apiserver: added before the first reconcile, cleanup
 * instead of reconcile on deletion, removed only after a successful cleanup.
 */
@WithControlPlane
class FinalizerIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String FINALIZER = "test.kubeboot.io/cleanup";

	@RegisterExtension
	private final TestResources resources = new TestResources();

	private Manager manager(ApiClient admin, TestNamespace namespace) {
		return this.resources.manager(Manager.builder(admin)
			.namespace(namespace.name())
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.build());
	}

	@Test
	void finalizerIsAddedBeforeTheFirstReconcileAndRemovedAfterTheCleanup(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Manager manager = manager(admin, namespace);
		Client client = manager.client();
		List<List<String>> finalizersSeenByReconcile = new CopyOnWriteArrayList<>();
		List<String> cleanups = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class).withFinalizer(FINALIZER, (request) -> {
			cleanups.add(request.name());
			return Result.done();
		}).complete((request) -> {
			client.uncached()
				.get(V1ConfigMap.class, request)
				.ifPresent((cm) -> finalizersSeenByReconcile.add(cm.getMetadata().getFinalizers()));
			return Result.done();
		});
		manager.start();
		V1ConfigMap created = client.create(configMap(namespace.name(), "guarded"));
		await().atMost(WAIT).until(() -> !finalizersSeenByReconcile.isEmpty());
		assertThat(finalizersSeenByReconcile.get(0)).containsExactly(FINALIZER);
		client.delete(created);
		await().atMost(WAIT)
			.until(() -> client.uncached().get(V1ConfigMap.class, request(namespace, "guarded")).isEmpty());
		assertThat(cleanups).containsExactly("guarded");
	}

	@Test
	void failingCleanupKeepsTheFinalizerAndIsRetried(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = manager(admin, namespace);
		Client client = manager.client();
		AtomicInteger attempts = new AtomicInteger();
		AtomicBoolean storeReachable = new AtomicBoolean();
		Controller.builder(manager, V1ConfigMap.class).withFinalizer(FINALIZER, (request) -> {
			attempts.incrementAndGet();
			if (!storeReachable.get()) {
				throw new IllegalStateException("the bucket store is unreachable");
			}
			return Result.done();
		}).complete((request) -> Result.done());
		manager.start();
		V1ConfigMap created = client.create(configMap(namespace.name(), "retried"));
		await().atMost(WAIT).until(() -> hasFinalizer(client, namespace, "retried"));
		client.delete(created);
		await().atMost(WAIT).until(() -> attempts.get() >= 3);
		V1ConfigMap deleting = client.uncached().get(V1ConfigMap.class, request(namespace, "retried")).orElseThrow();
		assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
		assertThat(deleting.getMetadata().getFinalizers()).containsExactly(FINALIZER);
		storeReachable.set(true);
		await().atMost(WAIT)
			.until(() -> client.uncached().get(V1ConfigMap.class, request(namespace, "retried")).isEmpty());
	}

	@Test
	void stopDuringTheCleanupLosesNothing(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager first = manager(admin, namespace);
		Client client = first.client();
		CountDownLatch cleanupStarted = new CountDownLatch(1);
		Controller.builder(first, V1ConfigMap.class).withFinalizer(FINALIZER, (request) -> {
			cleanupStarted.countDown();
			new CountDownLatch(1).await(); // a cleanup that hangs until the stop
											// interrupts it
			return Result.done();
		}).complete((request) -> Result.done());
		first.start();
		V1ConfigMap created = client.create(configMap(namespace.name(), "interrupted"));
		await().atMost(WAIT).until(() -> hasFinalizer(client, namespace, "interrupted"));
		client.delete(created);
		assertThat(cleanupStarted.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
		first.stop();
		assertThat(hasFinalizer(client, namespace, "interrupted")).isTrue();

		Manager second = manager(admin, namespace);
		List<String> cleanups = new CopyOnWriteArrayList<>();
		Controller.builder(second, V1ConfigMap.class).withFinalizer(FINALIZER, (request) -> {
			cleanups.add(request.name());
			return Result.done();
		}).complete((request) -> Result.done());
		second.start();
		await().atMost(WAIT)
			.until(() -> client.uncached().get(V1ConfigMap.class, request(namespace, "interrupted")).isEmpty());
		assertThat(cleanups).containsExactly("interrupted");
	}

	@Test
	void objectLeavingTheLabelSelectorIsCleanedUpAndLosesTheFinalizer(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Manager manager = manager(admin, namespace);
		Client client = manager.client();
		List<String> cleanups = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class)
			.labelSelector("tier=managed")
			.withFinalizer(FINALIZER, (request) -> {
				cleanups.add(request.name());
				return Result.done();
			})
			.complete((request) -> Result.done());
		manager.start();
		V1ConfigMap created = client.create(configMap(namespace.name(), "relabelled").metadata(
				new V1ObjectMeta().namespace(namespace.name()).name("relabelled").putLabelsItem("tier", "managed")));
		await().atMost(WAIT).until(() -> hasFinalizer(client, namespace, "relabelled"));
		V1ConfigMap guarded = client.uncached().get(V1ConfigMap.class, request(namespace, "relabelled")).orElseThrow();
		guarded.getMetadata().putLabelsItem("tier", "unmanaged");
		client.update(guarded);
		await().atMost(WAIT).until(() -> !hasFinalizer(client, namespace, "relabelled"));
		assertThat(cleanups).containsExactly("relabelled");
		client.delete(created);
		await().atMost(WAIT)
			.until(() -> client.uncached().get(V1ConfigMap.class, request(namespace, "relabelled")).isEmpty());
	}

	@Test
	void finalizerThatIsNotAQualifiedNameIsRefused(ApiClient admin, TestNamespace namespace) {
		Manager manager = manager(admin, namespace);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Controller.builder(manager, V1ConfigMap.class)
				.withFinalizer("Not a finalizer!", (request) -> Result.done()))
			.withMessage("Finalizer 'Not a finalizer!' is not a qualified name: use a domain you own and a name, "
					+ "such as 'storage.example.com/deregister'");
	}

	private static boolean hasFinalizer(Client client, TestNamespace namespace, String name) {
		return client.uncached()
			.get(V1ConfigMap.class, request(namespace, name))
			.map((cm) -> cm.getMetadata().getFinalizers() != null
					&& cm.getMetadata().getFinalizers().contains(FINALIZER))
			.orElse(false);
	}

	private static Request request(TestNamespace namespace, String name) {
		return Request.of(namespace.name(), name);
	}

	private static V1ConfigMap configMap(String namespace, String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name));
	}

}
