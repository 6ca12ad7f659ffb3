package io.kubeboot.operator.it;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
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
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentCondition;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The {@link Client} against a real kube-apiserver: every write, typed failures, and a
 * conflict in a reconcile requeued at once instead of counted as an error.
 */
@WithControlPlane
class ClientIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	private final TestResources resources = new TestResources();

	private Manager manager(ApiClient admin, TestNamespace namespace) {
		Manager manager = Manager.builder(admin).namespace(namespace.name()).fieldManager("client-tests").build();
		return this.resources.manager(manager);
	}

	/**
	 * A started manager whose cache holds the namespace's Widgets, as a controller's
	 * does.
	 */
	private Manager startedWithWidgetsCached(ApiClient admin, TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Manager manager = manager(admin, namespace);
		Controller.builder(manager, Widget.class).complete((request) -> Result.done());
		manager.start();
		return manager;
	}

	/**
	 * A name taken from a custom resource's field must not address another resource: a
	 * name no object can have is refused before any request, and every other name is
	 * escaped in the path (a {@code ?} does not start a query string).
	 */
	@Test
	void namesThatWouldLeaveTheirPathAreRefusedBeforeAnyRequestAndTheOthersAreEscaped(ApiClient admin,
			TestNamespace namespace) throws Exception {
		Client client = manager(admin, namespace).client();
		String ns = namespace.name();
		CoreV1Api core = new CoreV1Api(admin);
		core.createNamespacedSecret(ns,
				new V1Secret().metadata(new V1ObjectMeta().name("x")).putStringDataItem("token", "kept"))
			.execute();
		V1ConfigMap traversal = configMap(ns, "../secrets/x");
		String refused = "Invalid object name \"../secrets/x\": a Kubernetes name is not empty, \".\" or \"..\" and "
				+ "contains no \"/\" or \"%\" (ConfigMap (core/v1)), refused before any request";
		assertThatIllegalArgumentException()
			.isThrownBy(() -> client.patch(traversal, Patch.merge(Map.of("data", Map.of("token", "a2VwdA==")))))
			.withMessage(refused);
		assertThatIllegalArgumentException().isThrownBy(() -> client.delete(traversal)).withMessage(refused);
		assertThatIllegalArgumentException().isThrownBy(() -> client.update(traversal)).withMessage(refused);
		assertThatIllegalArgumentException().isThrownBy(() -> Request.of(ns, "../secrets/x"));
		assertThatIllegalArgumentException().isThrownBy(() -> Request.of("../kube-system", "x"));
		assertThat(core.readNamespacedSecret("x", ns).execute().getData()).containsOnlyKeys("token");
		// a Role's name may hold any character but "/" and "%"
		String name = "reader:with?query#fragment";
		client.create(new V1Role().metadata(new V1ObjectMeta().name(name).namespace(ns)));
		assertThat(client.uncached().get(V1Role.class, Request.of(ns, name)))
			.hasValueSatisfying((role) -> assertThat(role.getMetadata().getName()).isEqualTo(name));
		assertThat(client.delete(new V1Role().metadata(new V1ObjectMeta().name(name).namespace(ns)))).isTrue();
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
		// the API server records each status write against the status subresource: the
		// apply owns the field it applied, the update and the patch the ones they wrote
		// (read as a plain map: client-java's models leave managedFields out)
		Map<?, ?> read = (Map<?, ?>) new CustomObjectsApi(admin)
			.getNamespacedCustomObject("test.kubeboot.io", "v1", ns, "widgets", "w")
			.execute();
		List<?> managedFields = (List<?>) ((Map<?, ?>) read.get("metadata")).get("managedFields");
		assertThat(managedFields).map(Map.class::cast).anySatisfy((entry) -> {
			assertThat(entry.get("operation")).isEqualTo("Apply");
			assertThat(entry.get("subresource")).isEqualTo("status");
			assertThat(String.valueOf(entry.get("fieldsV1"))).contains("f:observed").doesNotContain("f:spec");
		}).anySatisfy((entry) -> {
			assertThat(entry.get("operation")).isEqualTo("Update");
			assertThat(entry.get("subresource")).isEqualTo("status");
			assertThat(String.valueOf(entry.get("fieldsV1"))).contains("f:phase");
		});
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
		Manager manager = startedWithWidgetsCached(admin, namespace);
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
	void aReadRightAfterDeletingAnObjectWithAFinalizerSeesItMarkedForDeletion(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Manager manager = startedWithWidgetsCached(admin, namespace);
		Client client = manager.client();
		String ns = namespace.name();
		for (Client.Propagation propagation : List.of(Client.Propagation.BACKGROUND, Client.Propagation.FOREGROUND)) {
			String name = "held-" + propagation.name().toLowerCase(Locale.ROOT);
			Widget widget = client.create(new Widget()
				.metadata(new V1ObjectMeta().name(name).namespace(ns).finalizers(List.of("test.kubeboot.io/hold")))
				.spec(Map.of("size", "large")));
			client.delete(widget, propagation);
			// it stays, marked for deletion: the read returns it once the cache has that
			// version (it used to wait 5 s for it to leave the cache, and fail)
			Widget marked = manager.cache().get(Widget.class, Request.of(ns, name)).orElseThrow();
			assertThat(marked.getMetadata().getDeletionTimestamp()).isNotNull();
			marked.getMetadata().setFinalizers(List.of());
			client.update(marked);
			assertThat(manager.cache().get(Widget.class, Request.of(ns, name))).isEmpty();
		}
	}

	/**
	 * Read-your-writes: a cache that lags this process's writes by half a second (each
	 * object stored late by a slow transform) still answers a read right after each write
	 * with what was written: a create, an update, a delete that leaves the object marked
	 * (a finalizer, a foreground delete), and the removal of its last finalizer.
	 */
	@Test
	void readsRightAfterEachWriteSeeItThoughTheCacheLags(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = Manager.builder(admin)
			.namespace(namespace.name())
			.fieldManager("client-tests")
			.defaultCacheTransform((object) -> {
				try {
					Thread.sleep(500);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				return object;
			})
			.build();
		this.resources.manager(manager);
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> Result.done());
		manager.start();
		Client client = manager.client();
		String ns = namespace.name();
		for (Client.Propagation propagation : List.of(Client.Propagation.BACKGROUND, Client.Propagation.FOREGROUND)) {
			Request request = Request.of(ns, "lagging-" + propagation.name().toLowerCase(Locale.ROOT));
			client.create(configMap(ns, request.name()).data(Map.of("v", "1")));
			assertThat(manager.cache().get(V1ConfigMap.class, request))
				.hasValueSatisfying((read) -> assertThat(read.getData()).containsEntry("v", "1"));
			V1ConfigMap held = client.patch(manager.cache().get(V1ConfigMap.class, request).orElseThrow(),
					Patch.merge(Map.of("data", Map.of("v", "2"), "metadata",
							Map.of("finalizers", List.of("test.kubeboot.io/hold")))));
			assertThat(manager.cache().get(V1ConfigMap.class, request))
				.hasValueSatisfying((read) -> assertThat(read.getData()).containsEntry("v", "2"));
			client.delete(held, propagation);
			V1ConfigMap marked = manager.cache().get(V1ConfigMap.class, request).orElseThrow();
			assertThat(marked.getMetadata().getDeletionTimestamp()).as("marked for deletion").isNotNull();
			marked.getMetadata().setFinalizers(List.of());
			client.update(marked);
			assertThat(manager.cache().get(V1ConfigMap.class, request)).as("gone").isEmpty();
		}
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
		this.resources.manager(manager);
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

	@Test
	@SuppressWarnings("unchecked")
	void mainObjectOfACustomResourceIsAppliedAndPatchedWithTimesInWholeSeconds(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Widgets.install(admin);
		Client client = manager(admin, namespace).client();
		String ns = namespace.name();
		OffsetDateTime since = OffsetDateTime.of(2026, 3, 1, 14, 30, 15, 123_456_789, ZoneOffset.ofHours(2));
		Widget applied = client.apply(new Widget().metadata(new V1ObjectMeta().name("w").namespace(ns))
			.spec(Map.of("size", "large", "since", since)));
		assertThat(applied.getSpec()).containsEntry("size", "large");
		// what the API server stores: a custom resource keeps the string it was sent
		Map<String, Object> stored = rawWidget(admin, ns, "w");
		assertThat((Map<String, Object>) stored.get("spec")).containsEntry("since", "2026-03-01T12:30:15Z");
		assertThat((List<Map<String, Object>>) ((Map<String, Object>) stored.get("metadata")).get("managedFields"))
			.anySatisfy((entry) -> assertThat(entry).containsEntry("manager", "client-tests")
				.containsEntry("operation", "Apply"));
		assertThatExceptionOfType(ConflictException.class).isThrownBy(() -> Client
			.create(admin, client, "someone-else", Duration.ofSeconds(10))
			.apply(new Widget().metadata(new V1ObjectMeta().name("w").namespace(ns)).spec(Map.of("size", "small"))));

		Widget merged = client.patch(applied, Patch.merge(Map.of("spec", Map.of("size", "small"))));
		assertThat(merged.getSpec()).containsEntry("size", "small").containsEntry("since", "2026-03-01T12:30:15Z");
		assertThat(merged.getMetadata().getGeneration()).isEqualTo(applied.getMetadata().getGeneration() + 1);
		Widget changed = client.uncached().get(Widget.class, Request.of(ns, "w")).orElseThrow();
		changed.getMetadata().putLabelsItem("team", "a");
		changed.getSpec().put("since", since.plusDays(1));
		Widget patched = client.patch(merged, Patch.mergeFrom(merged, changed));
		assertThat(patched.getMetadata().getLabels()).containsEntry("team", "a");
		assertThat((Map<String, Object>) rawWidget(admin, ns, "w").get("spec")).containsEntry("size", "small")
			.containsEntry("since", "2026-03-02T12:30:15Z");
	}

	@Test
	void statusOfABuiltInKindIsUpdatedAndPatchedWithoutTouchingItsSpec(ApiClient admin, TestNamespace namespace) {
		Client client = manager(admin, namespace).client();
		String ns = namespace.name();
		V1Deployment created = client.create(new V1Deployment().metadata(new V1ObjectMeta().namespace(ns).name("web"))
			.spec(new V1DeploymentSpec().replicas(1)
				.selector(new V1LabelSelector().matchLabels(Map.of("app", "web")))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", "web")))
					.spec(new V1PodSpec().containers(List.of(new V1Container().name("web").image("web:1")))))));
		OffsetDateTime now = OffsetDateTime.of(2026, 3, 1, 12, 0, 7, 900_000_000, ZoneOffset.UTC);
		created.getSpec().replicas(5); // a status write does not change the spec
		V1Deployment updated = client.status()
			.update(created.status(new V1DeploymentStatus().observedGeneration(1L)
				.replicas(0)
				.addConditionsItem(new V1DeploymentCondition().type("Available")
					.status("False")
					.reason("Testing")
					.lastTransitionTime(now))));
		assertThat(updated.getStatus().getObservedGeneration()).isEqualTo(1L);
		assertThat(updated.getStatus().getConditions()).singleElement()
			.satisfies((condition) -> assertThat(condition.getLastTransitionTime())
				.isEqualTo(OffsetDateTime.of(2026, 3, 1, 12, 0, 7, 0, ZoneOffset.UTC)));
		V1Deployment stored = client.uncached().get(V1Deployment.class, Request.of(ns, "web")).orElseThrow();
		assertThat(stored.getSpec().getReplicas()).isEqualTo(1);
		assertThat(stored.getStatus().getConditions()).extracting(V1DeploymentCondition::getReason)
			.containsExactly("Testing");

		V1Deployment patched = client.status()
			.patch(updated, Patch.merge(Map.of("status", Map.of("observedGeneration", 2, "readyReplicas", 0))));
		assertThat(patched.getStatus().getObservedGeneration()).isEqualTo(2L);
		assertThat(patched.getStatus().getConditions()).extracting(V1DeploymentCondition::getReason)
			.containsExactly("Testing");
		assertThat(patched.getSpec().getReplicas()).isEqualTo(1);
		assertThatExceptionOfType(ConflictException.class)
			.isThrownBy(() -> client.status().update(created.status(new V1DeploymentStatus().replicas(0))));
	}

	@Test
	void conflictInAReconcileIsLoggedAtInfoWithoutAStackTraceAndRetriedWithoutBackoff(ApiClient admin,
			TestNamespace namespace) throws Exception {
		Logger controllerLogger = (Logger) LoggerFactory.getLogger(Controller.class);
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		logs.start();
		controllerLogger.addAppender(logs);
		try {
			AtomicInteger backoffs = new AtomicInteger();
			Manager manager = Manager.builder(admin).namespace(namespace.name()).rateLimiter(() -> {
				RateLimiter<Request> delegate = RateLimiters.defaultControllerRateLimiter();
				return new RateLimiter<>() {

					@Override
					public Duration when(Request item) {
						backoffs.incrementAndGet();
						return delegate.when(item);
					}

					@Override
					public void forget(Request item) {
						delegate.forget(item);
					}

					@Override
					public int numRequeues(Request item) {
						return delegate.numRequeues(item);
					}

				};
			}).build();
			this.resources.manager(manager);
			Client client = manager.client();
			String ns = namespace.name();
			int conflicts = 5;
			AtomicInteger reconciles = new AtomicInteger();
			Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
				V1ConfigMap current = client.uncached().get(V1ConfigMap.class, request).orElseThrow();
				if (reconciles.incrementAndGet() <= conflicts) {
					// based on a version someone else has written since
					client.patch(current, Patch.merge(Map.of("data", Map.of("round", "r" + reconciles.get()))));
				}
				client.update(current.data(Map.of("by", "reconciler")));
				return Result.done();
			});
			manager.start();
			client.create(configMap(ns, "contended"));
			await().atMost(WAIT)
				.until(() -> client.uncached()
					.get(V1ConfigMap.class, Request.of(ns, "contended"))
					.map((cm) -> cm.getData() != null && "reconciler".equals(cm.getData().get("by")))
					.orElse(false));
			// later reconciles (the watch bringing back the writes) succeed
			assertThat(reconciles.get()).isGreaterThan(conflicts);
			// requeued at once each time: the rate limiter was never asked for a delay
			assertThat(backoffs).hasValue(0);
			List<ILoggingEvent> conflictLogs;
			synchronized (logs) {
				conflictLogs = new ArrayList<>(logs.list);
			}
			conflictLogs.removeIf((event) -> !event.getFormattedMessage().startsWith("Write conflict"));
			assertThat(conflictLogs).hasSize(conflicts).allSatisfy((event) -> {
				assertThat(event.getLevel()).isEqualTo(Level.INFO);
				assertThat(event.getThrowableProxy()).isNull();
				assertThat(event.getFormattedMessage())
					.startsWith("Write conflict, requeued: controller=configmap request=" + ns
							+ "/contended error=\"PUT /api/v1/namespaces/" + ns
							+ "/configmaps/contended failed: 409 Conflict: ");
			});
		}
		finally {
			controllerLogger.detachAppender(logs);
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> rawWidget(ApiClient admin, String namespace, String name) throws ApiException {
		return (Map<String, Object>) new CustomObjectsApi(admin)
			.getNamespacedCustomObject("test.kubeboot.io", "v1", namespace, "widgets", name)
			.execute();
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
