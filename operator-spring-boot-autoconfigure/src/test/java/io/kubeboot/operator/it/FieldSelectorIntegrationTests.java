package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.FieldSelectorNotSupportedException;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerState;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Field selectors against a real kube-apiserver: a custom resource selected by a field
 * its CRD declares in {@code selectableFields}, and a built-in kind by a field the API
 * server supports for it. The informer holds only matching objects; an object updated to
 * match enters it and is reconciled as if created, one updated to stop matching leaves it
 * as if deleted (and with a finalizer is cleaned up and loses it); a field the API server
 * does not support fails start-up at once, naming the field selector, the kind and the
 * controller.
 */
@WithControlPlane
class FieldSelectorIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String FINALIZER = "test.kubeboot.io/cleanup";

	private static final String SELECTED_TYPE = "test.kubeboot.io/selected";

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void onlyMatchingObjectsAreCachedAndObjectsThatStartOrStopMatchingEnterOrLeaveTheCache(ApiClient admin,
			TestNamespace namespace) throws Exception {
		Swatches.install(admin);
		String ns = namespace.name();
		GenericKubernetesApi<Swatch, ?> swatches = Swatches.api(admin);
		// listed: they exist before the cache starts
		swatches.create(swatch(ns, "blue-1", "blue", "round")).throwsApiException();
		swatches.create(swatch(ns, "red-1", "red", "round")).throwsApiException();
		Manager manager = manager(admin, ns);
		Cache cache = manager.cache();
		List<String> reconciled = new CopyOnWriteArrayList<>();
		Controller.builder(manager, Swatch.class).fieldSelector("spec.color=blue").complete((request) -> {
			reconciled.add(request.name() + ":"
					+ cache.get(Swatch.class, request)
						.map((swatch) -> String.valueOf(swatch.getSpec().get("color")))
						.orElse("not cached"));
			return Result.done();
		});
		manager.start();

		// (a) the informer of the reconciled kind is keyed by the field selector and
		// holds the matching objects only: the other was never reconciled
		assertThat(cache.informers()).extracting(Informer::key)
			.contains(new InformerKey(Swatch.class, ns, null, "spec.color=blue", false));
		assertThat(names(cache.list(Swatch.class, ns))).containsExactly("blue-1");
		assertThat(cache.get(Swatch.class, Request.of(ns, "red-1"))).isEmpty();
		await().atMost(WAIT).untilAsserted(() -> assertThat(reconciled).contains("blue-1:blue"));
		await().during(Duration.ofSeconds(1))
			.atMost(WAIT)
			.untilAsserted(() -> assertThat(reconciled).allMatch((entry) -> entry.equals("blue-1:blue")));

		// (b) an object updated to match enters the cache and is reconciled as if created
		Swatch red = swatches.get(ns, "red-1").throwsApiException().getObject();
		swatches.update(red.spec(Map.of("color", "blue", "shape", "round"))).throwsApiException();
		await().atMost(WAIT).untilAsserted(() -> assertThat(reconciled).contains("red-1:blue"));
		assertThat(names(cache.list(Swatch.class, ns))).containsExactlyInAnyOrder("blue-1", "red-1");

		// (c) an object updated to stop matching leaves the cache as if it were deleted:
		// the reconciler finds it missing from the cache, although it still exists
		Swatch blue = swatches.get(ns, "blue-1").throwsApiException().getObject();
		swatches.update(blue.spec(Map.of("color", "green", "shape", "round"))).throwsApiException();
		await().atMost(WAIT).untilAsserted(() -> assertThat(reconciled).contains("blue-1:not cached"));
		assertThat(cache.get(Swatch.class, Request.of(ns, "blue-1"))).isEmpty();
		assertThat(names(cache.list(Swatch.class, ns))).containsExactly("red-1");
		assertThat(manager.client().uncached().get(Swatch.class, Request.of(ns, "blue-1")))
			.hasValueSatisfying((swatch) -> assertThat(swatch.getSpec()).containsEntry("color", "green"));
	}

	@Test
	void aReadOfAnObjectThisProcessWroteOutsideTheFieldSelectorDoesNotWaitForTheCache(ApiClient admin,
			TestNamespace namespace) throws Exception {
		Swatches.install(admin);
		String ns = namespace.name();
		Manager manager = manager(admin, ns);
		Controller.builder(manager, Swatch.class).fieldSelector("spec.color=blue").complete((request) -> Result.done());
		manager.start();
		Client client = manager.client();
		// the cache never sees an object outside its field selector: a read of one the
		// process wrote must answer at once, not wait for the cache to catch up
		client.create(swatch(ns, "yellow-1", "yellow", "square"));
		long started = System.nanoTime();
		assertThat(manager.cache().get(Swatch.class, Request.of(ns, "yellow-1"))).isEmpty();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
		// one it holds is read at least as new as the write
		Swatch written = client.create(swatch(ns, "blue-2", "blue", "square"));
		assertThat(manager.cache().get(Swatch.class, Request.of(ns, "blue-2")))
			.hasValueSatisfying((cached) -> assertThat(cached.getMetadata().getResourceVersion())
				.isEqualTo(written.getMetadata().getResourceVersion()));
	}

	@Test
	void anObjectLeavingTheFieldSelectorIsCleanedUpAndLosesTheFinalizer(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Swatches.install(admin);
		String ns = namespace.name();
		Manager manager = manager(admin, ns);
		Client client = manager.client();
		List<String> cleanups = new CopyOnWriteArrayList<>();
		Controller.builder(manager, Swatch.class)
			.fieldSelector("spec.color=blue")
			.withFinalizer(FINALIZER, (request) -> {
				cleanups.add(request.name());
				return Result.done();
			})
			.complete((request) -> Result.done());
		manager.start();
		Swatch created = client.create(swatch(ns, "recolored", "blue", "round"));
		await().atMost(WAIT).until(() -> hasFinalizer(client, ns, "recolored"));
		Swatch guarded = client.uncached().get(Swatch.class, Request.of(ns, "recolored")).orElseThrow();
		client.update(guarded.spec(Map.of("color", "red", "shape", "round")));
		await().atMost(WAIT).until(() -> !hasFinalizer(client, ns, "recolored"));
		assertThat(cleanups).containsExactly("recolored");
		client.delete(created);
		await().atMost(WAIT).until(() -> client.uncached().get(Swatch.class, Request.of(ns, "recolored")).isEmpty());
	}

	@Test
	void aFieldTheCrdDoesNotDeclareSelectableFailsStartUpNamingTheSelectorTheKindAndTheController(ApiClient admin,
			TestNamespace namespace) throws Exception {
		Swatches.install(admin);
		String ns = namespace.name();
		Manager manager = Manager.builder(admin)
			.namespace(ns)
			.cacheSyncTimeout(Duration.ofMinutes(1))
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.build();
		this.resources.manager(manager);
		Controller.builder(manager, Swatch.class)
			.named("shapes")
			.fieldSelector("spec.shape=round")
			.complete((request) -> Result.done());
		long started = System.nanoTime();
		assertThatExceptionOfType(FieldSelectorNotSupportedException.class).isThrownBy(manager::start)
			.withMessageStartingWith("The API server does not support the field selector 'spec.shape=round' of Swatch "
					+ "(test.kubeboot.io/v1), asked for by controller-shapes (informer Swatch[namespace=" + ns
					+ ", fieldSelector=spec.shape=round]): 400 Bad Request: ")
			.withMessageContaining("spec.shape")
			.withMessageEndingWith("A custom resource can be selected by metadata.name, metadata.namespace and the "
					+ "fields its CustomResourceDefinition declares in selectableFields; a built-in kind by "
					+ "metadata.name, metadata.namespace and the fields the API server supports for it");
		// at its first refused list, not at the sync timeout
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
		assertThat(manager.state()).isEqualTo(ManagerState.FAILED);
	}

	@Test
	void annotationFieldSelectorsSelectACustomResourceAndAWatchedBuiltInKind(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Swatches.install(admin);
		String ns = namespace.name();
		ConfigurableApplicationContext application = new SpringApplicationBuilder(SelectingApplication.class)
			.initializers((context) -> ((GenericApplicationContext) context).registerBean("kubernetesApiClient",
					ApiClient.class, () -> admin))
			.run("--spring.main.web-application-type=none", "--spring.main.banner-mode=off",
					"--operator.namespace=" + ns, "--test.color=blue");
		this.resources.closeable(application);
		BlueReconciler reconciler = application.getBean(BlueReconciler.class);
		Cache cache = application.getBean(Cache.class);
		GenericKubernetesApi<Swatch, ?> swatches = Swatches.api(admin);
		CoreV1Api core = new CoreV1Api(admin);

		// the reconciled custom resource, by the field selector of its placeholder
		swatches.create(swatch(ns, "sky", "blue", "round")).throwsApiException();
		swatches.create(swatch(ns, "grass", "green", "round")).throwsApiException();
		// the watched built-in kind: Secrets by type
		core.createNamespacedSecret(ns, secret(ns, "selected", SELECTED_TYPE)).execute();
		core.createNamespacedSecret(ns, secret(ns, "opaque", "Opaque")).execute();
		await().atMost(WAIT).untilAsserted(() -> assertThat(reconciler.reconciled).contains("sky", "from-selected"));
		await().during(Duration.ofSeconds(1))
			.atMost(WAIT)
			.untilAsserted(() -> assertThat(reconciler.reconciled).doesNotContain("grass", "from-opaque"));
		assertThat(names(cache.list(Swatch.class, ns))).containsExactly("sky");
		assertThat(names(cache.list(V1Secret.class, ns))).containsExactly("selected");
	}

	@Test
	void annotationFieldSelectorTheApiServerRefusesFailsTheApplicationsStart(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Swatches.install(admin);
		Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(RefusedApplication.class)
			.initializers((context) -> ((GenericApplicationContext) context).registerBean("kubernetesApiClient",
					ApiClient.class, () -> admin))
			.run("--spring.main.web-application-type=none", "--spring.main.banner-mode=off",
					"--operator.namespace=" + namespace.name(), "--operator.cache-sync-timeout=1m"));
		assertThat(failure).isNotNull();
		FieldSelectorNotSupportedException refused = cause(failure, FieldSelectorNotSupportedException.class);
		assertThat(refused).isNotNull();
		assertThat(refused.users()).containsExactly("controller-swatch");
		assertThat(refused.informer())
			.isEqualTo(new InformerKey(Swatch.class, namespace.name(), null, "spec.shape=round", false));
	}

	private Manager manager(ApiClient admin, String namespace) {
		return this.resources.manager(
				Manager.builder(admin).namespace(namespace).gracefulShutdownTimeout(Duration.ofMillis(500)).build());
	}

	private static boolean hasFinalizer(Client client, String namespace, String name) {
		return client.uncached()
			.get(Swatch.class, Request.of(namespace, name))
			.map((swatch) -> swatch.getMetadata().getFinalizers() != null
					&& swatch.getMetadata().getFinalizers().contains(FINALIZER))
			.orElse(false);
	}

	private static Swatch swatch(String namespace, String name, String color, String shape) {
		return new Swatch().metadata(new V1ObjectMeta().namespace(namespace).name(name))
			.spec(Map.of("color", color, "shape", shape));
	}

	private static V1Secret secret(String namespace, String name, String type) {
		return new V1Secret().metadata(new V1ObjectMeta().namespace(namespace).name(name))
			.type(type)
			.putStringDataItem("key", "value");
	}

	private static List<String> names(List<? extends KubernetesObject> objects) {
		return objects.stream().map((object) -> object.getMetadata().getName()).toList();
	}

	private static <E extends Throwable> E cause(Throwable failure, Class<E> type) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		return null;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class SelectingApplication {

		@Bean
		BlueReconciler blueReconciler() {
			return new BlueReconciler();
		}

	}

	@Reconciles(value = Swatch.class, fieldSelector = "spec.color=${test.color}")
	static class BlueReconciler {

		final Set<String> reconciled = ConcurrentHashMap.newKeySet();

		Result reconcile(Request request) {
			this.reconciled.add(request.name());
			return Result.done();
		}

		@Watches(value = V1Secret.class, fieldSelector = "type=" + SELECTED_TYPE)
		Request secret(V1Secret secret) {
			return Request.of(secret.getMetadata().getNamespace(), "from-" + secret.getMetadata().getName());
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class RefusedApplication {

		@Bean
		ShapeReconciler shapeReconciler() {
			return new ShapeReconciler();
		}

	}

	@Reconciles(value = Swatch.class, fieldSelector = "spec.shape=round")
	static class ShapeReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

}
