package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.client.ApiServerException.AlreadyExistsException;
import io.kubeboot.operator.client.ApiServerException.ConflictException;
import io.kubeboot.operator.client.ApiServerException.InvalidException;
import io.kubeboot.operator.client.ApiServerException.NotFoundException;
import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The {@link Client} against a real kube-apiserver: every write, typed failures, and a
 * conflict in a reconcile requeued at once instead of counted as an error.
 */
@WithControlPlane
class ClientIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final List<Manager> managers = new ArrayList<>();

	@AfterEach
	void stopManagers() {
		this.managers.forEach(Manager::stop);
	}

	private Manager manager(ApiClient admin, TestNamespace namespace) {
		Manager manager = Manager.builder(admin).namespace(namespace.name()).fieldManager("client-tests").build();
		this.managers.add(manager);
		return manager;
	}

	@Test
	void createUpdatePatchApplyAndDeleteABuiltInKind(ApiClient admin, TestNamespace namespace) {
		Client client = manager(admin, namespace).client();
		String ns = namespace.name();
		V1ConfigMap created = client.create(configMap(ns, "one").data(Map.of("a", "1")));
		assertThat(created.getMetadata().getUid()).isNotNull();
		assertThatExceptionOfType(AlreadyExistsException.class).isThrownBy(() -> client.create(configMap(ns, "one")))
			.withMessageContaining("POST /api/v1/namespaces/" + ns + "/configmaps failed: 409 AlreadyExists");

		V1ConfigMap updated = client.update(created.data(Map.of("a", "2")));
		assertThat(updated.getData()).containsEntry("a", "2");
		// a write based on the version read before the update
		V1ConfigMap stale = configMap(ns, "one").data(Map.of("a", "stale"));
		stale.getMetadata().resourceVersion(created.getMetadata().getResourceVersion());
		assertThatExceptionOfType(ConflictException.class).isThrownBy(() -> client.update(stale));

		V1ConfigMap merged = client.patch(updated, Patch.merge(Map.of("data", Map.of("b", "3"))));
		assertThat(merged.getData()).containsEntry("a", "2").containsEntry("b", "3");
		V1ConfigMap jsonPatched = client.patch(merged, Patch.json("[{\"op\": \"remove\", \"path\": \"/data/a\"}]"));
		assertThat(jsonPatched.getData()).doesNotContainKey("a");
		V1ConfigMap strategic = client.patch(jsonPatched,
				Patch.strategicMerge(Map.of("metadata", Map.of("labels", Map.of("app", "web")))));
		assertThat(strategic.getMetadata().getLabels()).containsEntry("app", "web");
		V1ConfigMap base = client.uncached().get(V1ConfigMap.class, Request.of(ns, "one")).orElseThrow();
		V1ConfigMap changed = client.uncached().get(V1ConfigMap.class, Request.of(ns, "one")).orElseThrow();
		changed.getData().put("c", "4");
		assertThat(client.patch(base, Patch.mergeFromWithOptimisticLock(base, changed)).getData()).containsKey("c");
		assertThatExceptionOfType(ConflictException.class)
			.isThrownBy(() -> client.patch(base, Patch.mergeFromWithOptimisticLock(base, changed)));

		assertThat(client.delete(strategic)).isTrue();
		assertThat(client.delete(strategic)).isFalse();
		assertThat(client.uncached().get(V1ConfigMap.class, Request.of(ns, "one"))).isEmpty();
		assertThatExceptionOfType(NotFoundException.class)
			.isThrownBy(() -> client.patch(strategic, Patch.merge(Map.of("data", Map.of("x", "y")))));
		assertThat(Client.ignoreNotFound(() -> client.patch(strategic, Patch.merge(Map.of())))).isEmpty();
	}

	@Test
	void invalidObjectsNameTheFieldsAtFault(ApiClient admin, TestNamespace namespace) {
		Client client = manager(admin, namespace).client();
		assertThatExceptionOfType(InvalidException.class)
			.isThrownBy(() -> client.create(configMap(namespace.name(), "Not_A_Name")))
			.satisfies((ex) -> assertThat(ex.causes()).extracting(ApiServerException.FieldCause::field)
				.contains("metadata.name"));
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> client.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("no-namespace"))))
			.withMessageContaining("set metadata.namespace");
	}

	@Test
	void serverSideApplyOwnsFieldsAndConflictsUnlessForced(ApiClient admin, TestNamespace namespace) {
		Client client = manager(admin, namespace).client();
		Client other = Client.create(admin, client, "someone-else", Duration.ofSeconds(10));
		String ns = namespace.name();
		V1ConfigMap applied = client.apply(configMap(ns, "applied").data(Map.of("owned", "1", "shared", "a")));
		assertThat(applied.getData()).containsEntry("owned", "1");
		assertThatExceptionOfType(ConflictException.class)
			.isThrownBy(() -> other.apply(configMap(ns, "applied").data(Map.of("shared", "b"))));
		V1ConfigMap forced = other.apply(configMap(ns, "applied").data(Map.of("shared", "b")),
				Client.ApplyOption.FORCE);
		assertThat(forced.getData()).containsEntry("shared", "b").containsEntry("owned", "1");
		// applying without a field it owned removes it
		V1ConfigMap reapplied = client.apply(configMap(ns, "applied").data(Map.of("owned", "1")));
		assertThat(reapplied.getData()).containsEntry("owned", "1").containsEntry("shared", "b");
	}

	@Test
	void statusOfACustomResourceIsUpdatedPatchedAndApplied(ApiClient admin, TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Client client = manager(admin, namespace).client();
		String ns = namespace.name();
		Widget created = client
			.create(new Widget().metadata(new V1ObjectMeta().name("w").namespace(ns)).spec(Map.of("size", "large")));
		Widget updated = client.status().update(created.status(Map.of("phase", "Pending")));
		assertThat(updated.getStatus()).isEqualTo(Map.of("phase", "Pending"));
		assertThat(updated.getMetadata().getGeneration()).isEqualTo(created.getMetadata().getGeneration());
		Widget changed = client.uncached().get(Widget.class, Request.of(ns, "w")).orElseThrow();
		changed.status(Map.of("phase", "Ready"));
		Widget patched = client.status().patch(updated, Patch.mergeFrom(updated, changed));
		assertThat(patched.getStatus()).isEqualTo(Map.of("phase", "Ready"));
		Widget applied = client.status()
			.apply(new Widget().metadata(new V1ObjectMeta().name("w").namespace(ns)).status(Map.of("observed", 1)),
					Client.ApplyOption.FORCE);
		assertThat(applied.getStatus()).containsEntry("observed", 1.0);
		assertThat(applied.getSpec()).isEqualTo(Map.of("size", "large"));
		assertThatExceptionOfType(ConflictException.class)
			.isThrownBy(() -> client.status().update(created.status(Map.of("phase", "stale"))));
	}

	@Test
	void cachedReadsListByLabelSelector(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = manager(admin, namespace);
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> Result.done());
		manager.start();
		Client client = manager.client();
		String ns = namespace.name();
		client.create(labelled(ns, "web"));
		client.create(labelled(ns, "db"));
		await().atMost(WAIT).until(() -> client.list(V1ConfigMap.class, ns).size() >= 2);
		assertThat(client.list(V1ConfigMap.class, ns, "app=web")).extracting((cm) -> cm.getMetadata().getName())
			.containsExactly("web");
		assertThat(client.list(V1ConfigMap.class, ns, "app in (web,db),app!=db"))
			.extracting((cm) -> cm.getMetadata().getName())
			.containsExactly("web");
		assertThat(client.uncached().list(V1ConfigMap.class, ns, "app=db"))
			.extracting((cm) -> cm.getMetadata().getName())
			.containsExactly("db");
		assertThat(client.get(V1ConfigMap.class, Request.of(ns, "db"))).isPresent();
	}

	@Test
	void aReadRightAfterAWriteSeesThatWrite(ApiClient admin, TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Manager manager = manager(admin, namespace);
		Controller.builder(manager, Widget.class).complete((request) -> Result.done());
		manager.start();
		Client client = manager.client();
		String ns = namespace.name();
		Widget widget = client.create(
				new Widget().metadata(new V1ObjectMeta().name("fresh").namespace(ns)).spec(Map.of("size", "large")));
		List<Object> readBack = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			widget = client.status().update(widget.status(Map.of("round", "r" + i)));
			// what a reconcile would read first: the cache, a millisecond after the write
			readBack.add(manager.cache().get(Widget.class, Request.of(ns, "fresh")).orElseThrow().getStatus());
		}
		for (int i = 0; i < 20; i++) {
			assertThat(readBack.get(i)).isEqualTo(Map.of("round", "r" + i));
		}
		client.delete(widget);
		assertThat(manager.cache().get(Widget.class, Request.of(ns, "fresh"))).isEmpty();
	}

	@Test
	void reconcileThatHitsAConflictIsRequeuedAtOnceAndNotCountedAsAnError(ApiClient admin, TestNamespace namespace)
			throws Exception {
		List<ControllerMetrics.Outcome> outcomes = new CopyOnWriteArrayList<>();
		Manager manager = Manager.builder(admin)
			.namespace(namespace.name())
			.controllerMetrics((name) -> new ControllerMetrics() {

				@Override
				public void reconciled(Outcome outcome, long nanos) {
					outcomes.add(outcome);
				}

			})
			.build();
		this.managers.add(manager);
		Client client = manager.client();
		AtomicReference<V1ConfigMap> firstRead = new AtomicReference<>();
		AtomicInteger reconciles = new AtomicInteger();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			reconciles.incrementAndGet();
			V1ConfigMap current = client.uncached().get(V1ConfigMap.class, request).orElseThrow();
			if (firstRead.compareAndSet(null, current)) {
				// someone else writes between our read and our write
				client.patch(current, Patch.merge(Map.of("data", Map.of("by", "someone-else"))));
			}
			V1ConfigMap mine = firstRead.get();
			mine.setData(Map.of("by", "reconciler"));
			if (reconciles.get() > 1) {
				mine.getMetadata().resourceVersion(current.getMetadata().getResourceVersion());
			}
			client.update(mine);
			return Result.done();
		});
		manager.start();
		client.create(configMap(namespace.name(), "contended"));
		await().atMost(WAIT)
			.until(() -> client.uncached()
				.get(V1ConfigMap.class, Request.of(namespace.name(), "contended"))
				.map((cm) -> cm.getData() != null && "reconciler".equals(cm.getData().get("by")))
				.orElse(false));
		assertThat(outcomes).startsWith(ControllerMetrics.Outcome.CONFLICT, ControllerMetrics.Outcome.SUCCESS)
			.doesNotContain(ControllerMetrics.Outcome.ERROR);
	}

	private static V1ConfigMap labelled(String namespace, String app) {
		V1ConfigMap configMap = configMap(namespace, app);
		configMap.getMetadata().putLabelsItem("app", app);
		return configMap;
	}

	private static V1ConfigMap configMap(String namespace, String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name));
	}

}
