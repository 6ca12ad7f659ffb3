package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.predicate.Predicates;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Event filters against a real kube-apiserver: the reconciled kind's default filter drops
 * status-only and metadata-only updates (the reconciler's own status writes coming back
 * on the watch) and passes spec changes and deletions.
 */
@WithControlPlane
class EventFilterIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final List<Manager> managers = new ArrayList<>();

	@AfterEach
	void stopManagers() {
		this.managers.forEach(Manager::stop);
	}

	@Test
	void statusOnlyAndLabelUpdatesAreNotReconciledWhileSpecChangesAndDeletionsAre(ApiClient admin,
			TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Manager manager = Manager.builder(admin).namespace(namespace.name()).build();
		this.managers.add(manager);
		List<String> filtered = new CopyOnWriteArrayList<>();
		Set<String> witnessed = ConcurrentHashMap.newKeySet();
		Controller.builder(manager, Widget.class).complete((request) -> {
			filtered.add(manager.cache()
				.get(Widget.class, request)
				.map((widget) -> String.valueOf(widget.getSpec()))
				.orElse("deleted"));
			return Result.done();
		});
		// the witness sees every change of the same informer, so once it has seen one,
		// the filtered controller has been offered it too
		Controller.builder(manager, Widget.class)
			.named("witness")
			.withEventFilter(Predicates.all())
			.complete((request) -> {
				manager.cache()
					.get(Widget.class, request)
					.ifPresentOrElse((widget) -> witnessed.add(widget.getMetadata().getResourceVersion()),
							() -> witnessed.add("deleted"));
				return Result.done();
			});
		manager.start();
		GenericKubernetesApi<Widget, ?> widgets = Widgets.api(admin);
		Widget created = widgets
			.create(new Widget().metadata(new V1ObjectMeta().name("w1").namespace(namespace.name()))
				.spec(Map.of("size", "large")))
			.throwsApiException()
			.getObject();
		await().atMost(WAIT).untilAsserted(() -> assertThat(filtered).containsExactly("{size=large}"));

		writeStatus(admin, created.status(Map.of("phase", "Ready")));
		Widget statusWritten = widgets.get(namespace.name(), "w1").throwsApiException().getObject();
		assertThat(statusWritten.getStatus()).isEqualTo(Map.of("phase", "Ready"));
		Widget labelled = widgets.update(statusWritten.metadata(statusWritten.getMetadata().putLabelsItem("team", "a")))
			.throwsApiException()
			.getObject();
		await().atMost(WAIT).until(() -> witnessed.contains(labelled.getMetadata().getResourceVersion()));
		await().during(Duration.ofMillis(500))
			.atMost(WAIT)
			.untilAsserted(() -> assertThat(filtered).containsExactly("{size=large}"));

		widgets.update(labelled.spec(Map.of("size", "small"))).throwsApiException();
		await().atMost(WAIT).untilAsserted(() -> assertThat(filtered).containsExactly("{size=large}", "{size=small}"));
		widgets.delete(namespace.name(), "w1").throwsApiException();
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(filtered).containsExactly("{size=large}", "{size=small}", "deleted"));
	}

	@Test
	void allPredicateReconcilesStatusOnlyUpdates(ApiClient admin, TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Manager manager = Manager.builder(admin).namespace(namespace.name()).build();
		this.managers.add(manager);
		List<Object> statuses = new CopyOnWriteArrayList<>();
		Controller.builder(manager, Widget.class).withEventFilter(Predicates.all()).complete((request) -> {
			manager.cache().get(Widget.class, request).ifPresent((widget) -> statuses.add(widget.getStatus()));
			return Result.done();
		});
		manager.start();
		GenericKubernetesApi<Widget, ?> widgets = Widgets.api(admin);
		Widget created = widgets
			.create(new Widget().metadata(new V1ObjectMeta().name("w2").namespace(namespace.name()))
				.spec(Map.of("size", "large")))
			.throwsApiException()
			.getObject();
		await().atMost(WAIT).until(() -> !statuses.isEmpty());
		writeStatus(admin, created.status(Map.of("phase", "Ready")));
		await().atMost(WAIT).until(() -> statuses.contains(Map.of("phase", "Ready")));
		assertThat(statuses).hasSizeGreaterThanOrEqualTo(2);
	}

	private static void writeStatus(ApiClient admin, Widget widget) throws ApiException {
		new CustomObjectsApi(admin)
			.replaceNamespacedCustomObjectStatus("test.kubeboot.io", "v1", widget.getMetadata().getNamespace(),
					"widgets", widget.getMetadata().getName(), widget)
			.execute();
	}

}
