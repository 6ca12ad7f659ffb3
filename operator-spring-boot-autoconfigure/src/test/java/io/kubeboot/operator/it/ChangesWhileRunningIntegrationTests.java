package io.kubeboot.operator.it;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.google.gson.JsonParser;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.manager.ManagerHealth;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the caches do when the cluster changes under a running operator, against a real
 * kube-apiserver: RBAC revoked and granted again (fault 25 of RELIABILITY.md), the
 * reconciled kind's CRD deleted and re-created (fault 26), the watched namespace deleted
 * and re-created.
 * <p>
 * The managers renew their watches every 2 to 4 seconds: the API server authorizes a
 * watch when it opens and never ends it when RBAC changes, so revoked RBAC shows at the
 * next renewal (on the defaults, within {@code operator.watch-timeout}).
 */
@WithControlPlane
class ChangesWhileRunningIntegrationTests {

	/** How long readiness may take to go down, and to come back. */
	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final Duration WATCH_TIMEOUT = Duration.ofSeconds(4);

	/** The readiness bound of {@code operator.health.watch-failure-threshold}. */
	private static final Duration WATCH_FAILURE_THRESHOLD = Duration.ofSeconds(5);

	private static final String GIZMOS = "gizmos.changes.kubeboot.io";

	private static final String READER = "user3";

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@RegisterExtension
	private final CapturedLogs logs = new CapturedLogs("io.kubeboot.operator.cache");

	private final Requests requests = new Requests();

	@Test
	void listAndWatchRevokedTakeReadinessDownAreLoggedOnceAndComeBackWithTheChangesMeanwhile(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(controlPlane.adminClient());
		rbac.createNamespacedRole(ns, role(List.of("get", "list", "watch"))).execute();
		rbac.createNamespacedRoleBinding(ns, readerBinding()).execute();
		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		admin.createNamespacedConfigMap(ns, configMap("kept", "before")).execute();
		admin.createNamespacedConfigMap(ns, configMap("deleted", "before")).execute();
		Manager manager = built(Manager.builder(this.requests.counting(controlPlane.clientFor(READER)))
			.namespace(ns)
			.watchTimeout(WATCH_TIMEOUT));
		Map<String, String> latest = reconciledConfigMaps(manager);
		manager.start();
		await().atMost(WAIT).until(() -> "{v=before}".equals(latest.get("kept")) && latest.containsKey("deleted"));
		ManagerHealth health = new ManagerHealth(manager, WATCH_FAILURE_THRESHOLD);
		assertThat(ManagerHealth.allPassed(health.readiness())).isTrue();

		rbac.deleteNamespacedRoleBinding("cache-reader", ns).execute();
		admin.createNamespacedConfigMap(ns, configMap("created", "meanwhile")).execute();
		admin.replaceNamespacedConfigMap("kept", ns, configMap("kept", "meanwhile")).execute();
		admin.deleteNamespacedConfigMap("deleted", ns).execute();
		await().atMost(WAIT).until(() -> !ManagerHealth.allPassed(health.readiness()));
		assertThat(ManagerHealth.failures(health.readiness()))
			.startsWith("watches: V1ConfigMap[namespace=" + ns + "] without a watch for ")
			.contains(": 403 Forbidden: configmaps is forbidden: User \"" + READER + "\" cannot ");
		// the informer keeps trying, and says so once
		await().atMost(WAIT).until(() -> this.requests.answered("/api/v1/namespaces/" + ns + "/configmaps", 403) >= 4);
		assertThat(errorsAndWarnings()).singleElement()
			.isEqualTo("ERROR List or watch forbidden by RBAC, retrying until it is granted: informer=V1ConfigMap"
					+ "[namespace=" + ns + "] verbs=list,watch resource=configmaps namespace=" + ns
					+ " error=\"403 Forbidden: configmaps is forbidden: User \"" + READER + "\" cannot "
					+ lastDeniedVerb() + " resource \"configmaps\" in API group \"\" in the namespace \"" + ns
					+ "\"\"");

		rbac.createNamespacedRoleBinding(ns, readerBinding()).execute();
		await().atMost(WAIT).until(() -> ManagerHealth.allPassed(health.readiness()));
		await().atMost(WAIT)
			.until(() -> "{v=meanwhile}".equals(latest.get("created")) && "{v=meanwhile}".equals(latest.get("kept"))
					&& "deleted".equals(latest.get("deleted")));
		assertThat(names(manager.cache().list(V1ConfigMap.class, ns))).containsExactlyInAnyOrder("created", "kept");
		assertThat(infos()).filteredOn((line) -> line.startsWith("List and watch work again: "))
			.singleElement()
			.asString()
			.startsWith("List and watch work again: informer=V1ConfigMap[namespace=" + ns + "] failedFor=");
		assertThat(errorsAndWarnings()).hasSize(1);
	}

	@Test
	void watchRevokedWhileTheListIsStillAllowedTakesReadinessDownAndTheListsSlowDown(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(controlPlane.adminClient());
		rbac.createNamespacedRole(ns, role(List.of("get", "list", "watch"))).execute();
		rbac.createNamespacedRoleBinding(ns, readerBinding()).execute();
		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		admin.createNamespacedConfigMap(ns, configMap("one", "before")).execute();
		Manager manager = built(Manager.builder(this.requests.counting(controlPlane.clientFor(READER)))
			.namespace(ns)
			.watchTimeout(WATCH_TIMEOUT));
		Map<String, String> latest = reconciledConfigMaps(manager);
		manager.start();
		await().atMost(WAIT).until(() -> latest.containsKey("one"));
		ManagerHealth health = new ManagerHealth(manager, WATCH_FAILURE_THRESHOLD);

		long revoked = System.nanoTime();
		rbac.replaceNamespacedRole("cache-reader", ns, role(List.of("get", "list"))).execute();
		// every list succeeds, every watch is refused: the cache has no watch
		await().atMost(WAIT).until(() -> !ManagerHealth.allPassed(health.readiness()));
		assertThat(ManagerHealth.failures(health.readiness()))
			.startsWith("watches: V1ConfigMap[namespace=" + ns + "] without a watch for ")
			.contains("cannot watch resource \"configmaps\"");
		// and is not read in full every second meanwhile
		String path = "/api/v1/namespaces/" + ns + "/configmaps";
		await().atMost(WAIT)
			.until(() -> this.requests.longestGapBetweenLists(path, revoked).compareTo(Duration.ofSeconds(4)) >= 0);
		assertThat(errorsAndWarnings()).singleElement()
			.asString()
			.startsWith("ERROR List or watch forbidden by RBAC, retrying until it is granted: informer=V1ConfigMap"
					+ "[namespace=" + ns + "] verbs=watch resource=configmaps namespace=" + ns + " error=");

		rbac.replaceNamespacedRole("cache-reader", ns, role(List.of("get", "list", "watch"))).execute();
		await().atMost(WAIT).until(() -> ManagerHealth.allPassed(health.readiness()));
		admin.createNamespacedConfigMap(ns, configMap("two", "after")).execute();
		await().atMost(WAIT).until(() -> latest.containsKey("two"));
	}

	@Test
	void deletedCrdIsReportedEmptiesTheCacheAndItsObjectsAreReconciledAgainOnceRecreated(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		ApiClient admin = controlPlane.adminClient();
		installGizmos(admin);
		try {
			createGizmo(admin, ns, "before");
			Manager manager = built(Manager.builder(this.requests.counting(controlPlane.adminClient())).namespace(ns));
			Map<String, String> latest = new ConcurrentHashMap<>();
			Controller.builder(manager, Gizmo.class).complete((request) -> {
				latest.put(request.name(),
						manager.cache().get(Gizmo.class, request).isPresent() ? "cached" : "deleted");
				return Result.done();
			});
			manager.start();
			await().atMost(WAIT).until(() -> "cached".equals(latest.get("before")));
			ManagerHealth health = new ManagerHealth(manager, WATCH_FAILURE_THRESHOLD);

			// deleting the CRD deletes its objects: the controller sees them go
			uninstallGizmos(admin);
			await().atMost(WAIT).until(() -> "deleted".equals(latest.get("before")));
			assertThat(manager.cache().list(Gizmo.class, ns)).isEmpty();
			await().atMost(WAIT).until(() -> !ManagerHealth.allPassed(health.readiness()));
			assertThat(ManagerHealth.failures(health.readiness()))
				.startsWith("watches: Gizmo[namespace=" + ns + "] without a watch for ")
				.endsWith(": 404 Not Found: Gizmo (changes.kubeboot.io/v1) is not served by the API server "
						+ "(was its CustomResourceDefinition deleted?)");
			String path = "/apis/changes.kubeboot.io/v1/namespaces/" + ns + "/gizmos";
			await().atMost(WAIT).until(() -> this.requests.answered(path, 404) >= 4);
			assertThat(errorsAndWarnings()).containsExactly("ERROR Kind no longer served by the API server, retrying "
					+ "until it is (was its CustomResourceDefinition deleted?): informer=Gizmo[namespace=" + ns
					+ "] kind=Gizmo apiVersion=changes.kubeboot.io/v1 resource=" + GIZMOS);

			installGizmos(admin);
			createGizmo(admin, ns, "after");
			await().atMost(WAIT).until(() -> "cached".equals(latest.get("after")));
			await().atMost(WAIT).until(() -> ManagerHealth.allPassed(health.readiness()));
			assertThat(names(manager.cache().list(Gizmo.class, ns))).containsExactly("after");
			assertThat(infos()).filteredOn((line) -> line.startsWith("List and watch work again: ")).hasSize(1);

			// deleted and re-created at once: the watch of the deleted CRD ends, and the
			// objects of the new one reach the cache
			uninstallGizmos(admin);
			installGizmos(admin);
			createGizmo(admin, ns, "again");
			await().atMost(WAIT)
				.until(() -> "cached".equals(latest.get("again")) && "deleted".equals(latest.get("after")));
			assertThat(names(manager.cache().list(Gizmo.class, ns))).containsExactly("again");
			await().atMost(WAIT).until(() -> ManagerHealth.allPassed(health.readiness()));
		}
		finally {
			uninstallGizmos(admin);
		}
	}

	/**
	 * An informer registered once the manager runs (a leader-only runnable's once
	 * elected, as the label-based sharder's) does not take a serving replica out of its
	 * Service while it syncs; its watch failing for long does, as any other's. Here it
	 * never syncs: its user may not list the kind.
	 */
	@Test
	void anInformerRegisteredWhileRunningCountsForReadinessByItsWatchNotByItsSync(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		Manager manager = built(Manager.builder(controlPlane.clientFor(READER))
			.namespace(namespace.name())
			.watchTimeout(WATCH_TIMEOUT));
		manager.start();
		ManagerHealth health = new ManagerHealth(manager, WATCH_FAILURE_THRESHOLD);
		assertThat(ManagerHealth.allPassed(health.readiness())).isTrue();
		Informer<V1ConfigMap> late = manager.cache().informer(V1ConfigMap.class, namespace.name(), null);
		assertThat(late.hasSynced()).isFalse();
		assertThat(ManagerHealth.allPassed(health.readiness())).as(ManagerHealth.failures(health.readiness())).isTrue();
		await().atMost(WAIT).until(() -> !ManagerHealth.allPassed(health.readiness()));
		assertThat(late.hasSynced()).isFalse();
		assertThat(ManagerHealth.failures(health.readiness()))
			.startsWith("watches: V1ConfigMap[namespace=" + namespace.name() + "] without a watch for ")
			.doesNotContain("caches");
	}

	@Test
	void deletedNamespaceEmptiesTheCacheWithoutAnyErrorAndIsWatchedAgainOnceRecreated(ControlPlane controlPlane)
			throws Exception {
		String ns = "changes-" + UUID.randomUUID().toString().substring(0, 8);
		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		admin.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(ns))).execute();
		try {
			admin.createNamespacedConfigMap(ns, configMap("before", "x")).execute();
			Manager manager = built(Manager.builder(this.requests.counting(controlPlane.adminClient()))
				.namespace(ns)
				.watchTimeout(WATCH_TIMEOUT));
			Map<String, String> latest = reconciledConfigMaps(manager);
			manager.start();
			await().atMost(WAIT).until(() -> latest.containsKey("before"));
			String path = "/api/v1/namespaces/" + ns + "/configmaps";
			try (ReadinessSampler readiness = new ReadinessSampler(
					new ManagerHealth(manager, WATCH_FAILURE_THRESHOLD))) {
				deleteNamespace(admin, ns);
				await().atMost(WAIT).until(() -> "deleted".equals(latest.get("before")));
				assertThat(manager.cache().list(V1ConfigMap.class, ns)).isEmpty();
				// watches of a namespace that does not exist are renewed as any other
				long watches = this.requests.answered(path, 200);
				await().atMost(WAIT).until(() -> this.requests.answered(path, 200) >= watches + 3);
				assertThat(readiness.sawNotReady()).as("readiness failed: %s", readiness.failures()).isFalse();
			}
			assertThat(errorsAndWarnings()).isEmpty();

			admin.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(ns))).execute();
			admin.createNamespacedConfigMap(ns, configMap("after", "x")).execute();
			await().atMost(WAIT).until(() -> "{v=x}".equals(latest.get("after")));
			assertThat(names(manager.cache().list(V1ConfigMap.class, ns))).containsExactly("after");
		}
		finally {
			deleteNamespace(admin, ns);
		}
	}

	private Manager built(ManagerBuilder builder) {
		return this.resources.manager(builder.build());
	}

	private List<String> errorsAndWarnings() {
		return this.logs.events()
			.stream()
			.filter((event) -> event.getLevel().isGreaterOrEqual(Level.WARN))
			.map((event) -> event.getLevel() + " " + event.getFormattedMessage())
			.toList();
	}

	private List<String> infos() {
		return this.logs.events()
			.stream()
			.filter((event) -> event.getLevel() == Level.INFO)
			.map(ILoggingEvent::getFormattedMessage)
			.toList();
	}

	/**
	 * The verb of the request whose denial was logged: the watch, renewed first, unless
	 * the list came first.
	 */
	private String lastDeniedVerb() {
		String line = errorsAndWarnings().get(0);
		return line.contains("cannot watch resource") ? "watch" : "list";
	}

	/**
	 * Adds a ConfigMap controller whose reconciles record what the cache holds of each
	 * request: its data, or {@code deleted}.
	 */
	private static Map<String, String> reconciledConfigMaps(Manager manager) {
		Map<String, String> latest = new ConcurrentHashMap<>();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			latest.put(request.name(),
					manager.cache()
						.get(V1ConfigMap.class, request)
						.map((cm) -> String.valueOf(cm.getData()))
						.orElse("deleted"));
			return Result.done();
		});
		return latest;
	}

	private static V1Role role(List<String> verbs) {
		return new V1Role().metadata(new V1ObjectMeta().name("cache-reader"))
			.rules(List.of(new V1PolicyRule().apiGroups(List.of("")).resources(List.of("configmaps")).verbs(verbs)));
	}

	private static V1RoleBinding readerBinding() {
		return new V1RoleBinding().metadata(new V1ObjectMeta().name("cache-reader"))
			.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("cache-reader"))
			.subjects(List.of(new RbacV1Subject().kind("User").name(READER).apiGroup("rbac.authorization.k8s.io")));
	}

	private static V1ConfigMap configMap(String name, String value) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", value));
	}

	private static List<String> names(List<? extends KubernetesObject> objects) {
		return objects.stream().map((object) -> object.getMetadata().getName()).toList();
	}

	/**
	 * Deletes a namespace as the namespace controller would, which the test control plane
	 * does not run: the namespace's objects are deleted, then its finalizer is removed.
	 */
	private static void deleteNamespace(CoreV1Api admin, String ns) throws ApiException {
		try {
			admin.deleteNamespace(ns).execute();
			admin.deleteCollectionNamespacedConfigMap(ns).execute();
			V1Namespace terminating = admin.readNamespace(ns).execute();
			terminating.getSpec().setFinalizers(List.of());
			admin.replaceNamespaceFinalize(ns, terminating).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				throw ex;
			}
		}
		await().atMost(WAIT).until(() -> notFound(() -> admin.readNamespace(ns).execute()));
	}

	private static void installGizmos(ApiClient admin) throws ApiException {
		String crd = """
				{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
				 "metadata": {"name": "gizmos.changes.kubeboot.io"},
				 "spec": {"group": "changes.kubeboot.io", "scope": "Namespaced",
				  "names": {"plural": "gizmos", "singular": "gizmo", "kind": "Gizmo", "listKind": "GizmoList"},
				  "versions": [{"name": "v1", "served": true, "storage": true,
				   "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}}
				""";
		KubernetesApiResponse<DynamicKubernetesObject> created = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
				"customresourcedefinitions", admin)
			.create(new DynamicKubernetesObject(JsonParser.parseString(crd).getAsJsonObject()));
		if (!created.isSuccess()) {
			throw new ApiException(created.getHttpStatusCode(), String.valueOf(created.getStatus()));
		}
		ApiextensionsV1Api api = new ApiextensionsV1Api(admin);
		await().atMost(WAIT).until(() -> {
			V1CustomResourceDefinition current = api.readCustomResourceDefinition(GIZMOS).execute();
			return current.getStatus() != null && current.getStatus().getConditions() != null
					&& current.getStatus()
						.getConditions()
						.stream()
						.anyMatch((condition) -> "Established".equals(condition.getType())
								&& "True".equals(condition.getStatus()));
		});
	}

	/**
	 * Deletes the Gizmo CRD and waits until it is gone: the API server deletes every
	 * gizmo first.
	 */
	private static void uninstallGizmos(ApiClient admin) throws ApiException {
		ApiextensionsV1Api api = new ApiextensionsV1Api(admin);
		try {
			api.deleteCustomResourceDefinition(GIZMOS).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				throw ex;
			}
		}
		await().atMost(WAIT).until(() -> notFound(() -> api.readCustomResourceDefinition(GIZMOS).execute()));
	}

	private static void createGizmo(ApiClient admin, String ns, String name) throws ApiException {
		KubernetesApiResponse<DynamicKubernetesObject> created = new DynamicKubernetesApi("changes.kubeboot.io", "v1",
				"gizmos", admin)
			.create(new DynamicKubernetesObject(JsonParser
				.parseString("{\"apiVersion\": \"changes.kubeboot.io/v1\", \"kind\": \"Gizmo\", \"metadata\": "
						+ "{\"name\": \"" + name + "\", \"namespace\": \"" + ns + "\"}}")
				.getAsJsonObject()));
		if (!created.isSuccess()) {
			throw new ApiException(created.getHttpStatusCode(), String.valueOf(created.getStatus()));
		}
	}

	private static boolean notFound(Read read) throws ApiException {
		try {
			read.run();
			return false;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return true;
			}
			throw ex;
		}
	}

	@FunctionalInterface
	private interface Read {

		void run() throws ApiException;

	}

	/**
	 * A custom resource whose CRD the tests delete and re-create; no other test uses it.
	 */
	@KubernetesKind(group = "changes.kubeboot.io", version = "v1", kind = "Gizmo")
	public static class Gizmo extends CustomResource<Map<String, Object>, Map<String, Object>> {

	}

	/**
	 * Records the requests of the manager's clients: path, whether a watch, status code
	 * and when.
	 */
	private static final class Requests implements Interceptor {

		private final List<Seen> seen = new CopyOnWriteArrayList<>();

		ApiClient counting(ApiClient client) {
			client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(this).build());
			return client;
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			okhttp3.Request request = chain.request();
			Response response = chain.proceed(request);
			this.seen.add(new Seen(request.url().encodedPath(), "true".equals(request.url().queryParameter("watch")),
					response.code(), System.nanoTime()));
			return response;
		}

		/**
		 * Counts the lists and watches of a collection answered with a status code.
		 */
		long answered(String path, int code) {
			return this.seen.stream()
				.filter((request) -> request.path().equals(path) && request.code() == code)
				.count();
		}

		/**
		 * Returns the longest time between two successive lists of a collection since an
		 * instant.
		 */
		Duration longestGapBetweenLists(String path, long sinceNanos) {
			List<Long> lists = this.seen.stream()
				.filter((request) -> request.path().equals(path) && !request.watch()
						&& request.nanos() - sinceNanos > 0)
				.map(Seen::nanos)
				.toList();
			long longest = 0;
			for (int i = 1; i < lists.size(); i++) {
				longest = Math.max(longest, lists.get(i) - lists.get(i - 1));
			}
			return Duration.ofNanos(longest);
		}

		private record Seen(String path, boolean watch, int code, long nanos) {

		}

	}

}
