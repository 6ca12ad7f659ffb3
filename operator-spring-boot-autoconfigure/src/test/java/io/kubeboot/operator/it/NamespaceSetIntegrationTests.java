package io.kubeboot.operator.it;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.NamespaceNotWatchedException;
import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.healthz.CheckResult;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerHealth;
import io.kubeboot.operator.rbac.PolicyRules;
import io.kubeboot.operator.rbac.RbacManifest;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.Yaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An operator of a set of namespaces against a real kube-apiserver: it reconciles the
 * objects of its namespaces and none of any other, reads and looks them up by index
 * across the set, and follows the set as it changes while it runs. An added namespace is
 * reconciled once its informers synced, and readiness is down until then; while RBAC
 * denies it, readiness says so and every other namespace keeps working. A removed one
 * leaves the cache, and nothing there is reconciled any more. A namespace that does not
 * exist yet is reconciled from its creation. With Spring, a refresh of
 * {@code operator.namespaces} changes the set.
 */
@WithControlPlane
class NamespaceSetIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final String OPERATOR = "user2";

	private static final String APP = "namespace-set-test";

	private static final CacheIndex<V1ConfigMap> BY_TIER = CacheIndex.of(V1ConfigMap.class, "tier",
			(configMap) -> List.of(configMap.getMetadata().getLabels().getOrDefault("tier", "")));

	private static final SecureRandom random = new SecureRandom();

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void anOperatorOfTwoNamespacesReconcilesTheirObjectsAndNoneOfAThird(ControlPlane controlPlane) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		String a = namespace(admin, "a");
		String b = namespace(admin, "b");
		String c = namespace(admin, "c");
		for (String namespace : List.of(a, b, c)) {
			create(admin, configMap(namespace, "one", "web"));
		}
		Manager manager = this.resources.manager(Manager.builder(admin)
			.namespaces(List.of(a, b))
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.build());
		manager.cache().addIndex(BY_TIER);
		List<String> reconciled = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class)
			.labelSelector("app=" + APP)
			.watches(V1Secret.class,
					(secret) -> List
						.of(Request.of(secret.getMetadata().getNamespace(), secret.getMetadata().getName())))
			.complete((request) -> {
				reconciled.add(request.namespace() + "/" + request.name());
				return Result.done();
			});
		manager.start();
		await().atMost(WAIT).until(() -> reconciled.containsAll(List.of(a + "/one", b + "/one")));

		// one informer per namespace of the set and kind, none of the third namespace
		Controller controller = Controller.forKind(manager, V1ConfigMap.class);
		assertThat(controller.reconciledKindKey()).isEqualTo(new InformerKey(V1ConfigMap.class, null, "app=" + APP));
		assertThat(controller.watches()).containsExactlyInAnyOrder(new InformerKey(V1ConfigMap.class, a, "app=" + APP),
				new InformerKey(V1ConfigMap.class, b, "app=" + APP), new InformerKey(V1Secret.class, a, null),
				new InformerKey(V1Secret.class, b, null));
		assertThat(manager.cache().informers()).extracting(Informer::key)
			.containsExactlyInAnyOrderElementsOf(controller.watches());
		// changes in the set are reconciled, through the watched kind too; none elsewhere
		create(admin, configMap(c, "two", "web"));
		create(admin, secret(c, "one"));
		create(admin, configMap(b, "two", "db"));
		create(admin, secret(a, "one"));
		await().atMost(WAIT)
			.until(() -> reconciled.contains(b + "/two")
					&& reconciled.stream().filter((entry) -> entry.equals(a + "/one")).count() >= 2);
		await().during(Duration.ofSeconds(1))
			.atMost(WAIT)
			.until(() -> reconciled.stream().noneMatch((entry) -> entry.startsWith(c + "/")));

		// reads and index lookups span the set
		assertThat(names(manager.client().list(V1ConfigMap.class, null))).containsExactlyInAnyOrder(a + "/one",
				b + "/one", b + "/two");
		assertThat(names(manager.cache().list(V1ConfigMap.class, null, BY_TIER.matching("web"))))
			.containsExactlyInAnyOrder(a + "/one", b + "/one");
		assertThat(names(manager.cache().list(V1ConfigMap.class, b, BY_TIER.matching("db"))))
			.containsExactly(b + "/two");
		// a namespace outside the set is refused, not found empty
		assertThatExceptionOfType(NamespaceNotWatchedException.class)
			.isThrownBy(() -> manager.client().get(V1ConfigMap.class, Request.of(c, "one")))
			.satisfies((ex) -> assertThat(ex.namespace()).isEqualTo(c));
	}

	@Test
	void aNamespaceAddedWhileRunningIsReconciledOnceRbacAllowsItAndReadinessWaitsForIt(ControlPlane controlPlane)
			throws Exception {
		ApiClient admin = controlPlane.adminClient();
		String a = namespace(admin, "a");
		String c = namespace(admin, "c");
		create(admin, configMap(a, "one", "web"));
		create(admin, configMap(c, "seven", "web"));
		Manager manager = this.resources.manager(Manager.builder(controlPlane.clientFor(OPERATOR))
			.namespaces(List.of(a))
			.watchFailureThreshold(Duration.ofSeconds(1))
			.cacheSyncTimeout(Duration.ofSeconds(30))
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.build());
		List<String> reconciled = journal(manager);
		// the Roles rendered for the set as it is: its one namespace
		grant(controlPlane, manager);
		ManagerHealth health = new ManagerHealth(manager);
		manager.start();
		await().atMost(WAIT).until(() -> reconciled.contains(a + "/one"));
		assertThat(ManagerHealth.allPassed(health.readiness())).isTrue();

		// RBAC denies the added namespace: readiness goes down naming its informer and
		// the
		// denial, the namespace stays unsynced, the other one keeps working
		WatchedNamespaces namespaces = manager.namespaces();
		namespaces.add(c);
		assertThat(namespaces.current()).containsExactlyInAnyOrder(a, c);
		assertThat(failures(health))
			.contains("caches: not synced: [V1ConfigMap[namespace=" + c + ", labelSelector=app=" + APP + "]]");
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(failures(health)).contains("V1ConfigMap[namespace=" + c)
				.contains("without a watch")
				.contains("403"));
		assertThat(namespaces.unsynced()).containsExactly(c);
		create(admin, configMap(a, "two", "web"));
		await().atMost(WAIT).until(() -> reconciled.contains(a + "/two"));
		assertThat(reconciled).noneMatch((entry) -> entry.startsWith(c + "/"));

		// once granted, the namespace syncs, its objects are reconciled, readiness
		// returns
		grant(controlPlane, manager);
		await().atMost(WAIT).until(() -> reconciled.contains(c + "/seven"));
		assertThat(namespaces.awaitSynced(WAIT)).isTrue();
		await().atMost(WAIT).until(() -> ManagerHealth.allPassed(health.readiness()));
	}

	@Test
	void aNamespaceOfTheSetWithoutRbacAtStartDoesNotFailTheStart(ControlPlane controlPlane) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		String a = namespace(admin, "a");
		String c = namespace(admin, "c");
		create(admin, configMap(a, "one", "web"));
		create(admin, configMap(c, "seven", "web"));
		// the Roles of a set of a alone: c has none
		Manager rendering = Manager.builder(controlPlane.clientFor(OPERATOR)).namespaces(List.of(a)).build();
		journal(rendering);
		grant(controlPlane, rendering);
		Manager manager = this.resources.manager(Manager.builder(controlPlane.clientFor(OPERATOR))
			.namespaces(List.of(a, c))
			.cacheSyncTimeout(Duration.ofSeconds(10))
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.build());
		List<String> reconciled = journal(manager);
		ManagerHealth health = new ManagerHealth(manager);
		manager.start();
		await().atMost(WAIT).until(() -> reconciled.contains(a + "/one"));
		assertThat(manager.namespaces().unsynced()).containsExactly(c);
		assertThat(failures(health))
			.contains("caches: not synced: [V1ConfigMap[namespace=" + c + ", labelSelector=app=" + APP + "]]");
		grant(controlPlane, manager);
		await().atMost(WAIT).until(() -> reconciled.contains(c + "/seven"));
		await().atMost(WAIT).until(() -> ManagerHealth.allPassed(health.readiness()));
	}

	@Test
	void aNamespaceWhereRbacRefusesAnOwnedKindHoldsItsRequestsOutsideTheQueueUntilGranted(ControlPlane controlPlane)
			throws Exception {
		ApiClient admin = controlPlane.adminClient();
		String a = namespace(admin, "a");
		String c = namespace(admin, "c");
		create(admin, configMap(a, "one", "web"));
		create(admin, configMap(c, "seven", "web"));
		Manager manager = this.resources.manager(Manager.builder(controlPlane.clientFor(OPERATOR))
			.namespaces(List.of(a, c))
			.cacheSyncTimeout(Duration.ofSeconds(30))
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.build());
		List<String> reconciled = new CopyOnWriteArrayList<>();
		Controller controller = Controller.builder(manager, V1ConfigMap.class)
			.labelSelector("app=" + APP)
			.owns(V1Secret.class)
			.complete((request) -> {
				reconciled.add(request.namespace() + "/" + request.name());
				return Result.done();
			});
		grant(controlPlane, a, "configmaps", "secrets");
		// in c, its ConfigMaps but not its Secrets
		grant(controlPlane, c, "configmaps");
		manager.start();
		await().atMost(WAIT).until(() -> reconciled.contains(a + "/one"));
		await().atMost(WAIT).until(() -> controller.waitingRequests() == 1);
		create(admin, configMap(a, "two", "web"));
		await().atMost(WAIT).until(() -> reconciled.contains(a + "/two"));
		assertThat(reconciled).noneMatch((entry) -> entry.startsWith(c + "/"));
		assertThat(controller.waitingRequests()).isEqualTo(1);
		grant(controlPlane, c, "secrets");
		await().atMost(WAIT).until(() -> reconciled.contains(c + "/seven"));
		assertThat(controller.waitingRequests()).isZero();
	}

	@Test
	void aNamespaceRemovedWhileRunningLeavesTheCacheAndIsNoLongerReconciled(ControlPlane controlPlane)
			throws Exception {
		ApiClient admin = controlPlane.adminClient();
		String a = namespace(admin, "a");
		String b = namespace(admin, "b");
		create(admin, configMap(a, "one", "web"));
		create(admin, configMap(b, "one", "web"));
		Manager manager = this.resources.manager(Manager.builder(admin)
			.namespaces(List.of(a, b))
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.build());
		List<String> reconciled = journal(manager);
		manager.start();
		await().atMost(WAIT).until(() -> reconciled.containsAll(List.of(a + "/one", b + "/one")));

		manager.namespaces().remove(b);
		Cache cache = manager.cache();
		assertThatExceptionOfType(NamespaceNotWatchedException.class)
			.isThrownBy(() -> cache.get(V1ConfigMap.class, Request.of(b, "one")));
		assertThat(names(cache.list(V1ConfigMap.class, null))).containsExactly(a + "/one");
		assertThat(cache.informers()).extracting(Informer::key)
			.containsExactly(new InformerKey(V1ConfigMap.class, a, "app=" + APP));
		int seen = reconciled.size();
		// changes in the removed namespace, and a request sent for it, reach no
		// reconcile;
		// the controller goes on with the namespace left
		CoreV1Api core = new CoreV1Api(admin);
		V1ConfigMap changed = core.readNamespacedConfigMap("one", b).execute();
		changed.getMetadata().putLabelsItem("tier", "db");
		core.replaceNamespacedConfigMap("one", b, changed).execute();
		create(admin, configMap(b, "two", "web"));
		Controller.forKind(manager, V1ConfigMap.class).enqueue(Request.of(b, "one"));
		create(admin, configMap(a, "two", "web"));
		await().atMost(WAIT).until(() -> reconciled.contains(a + "/two"));
		await().during(Duration.ofSeconds(1))
			.atMost(WAIT)
			.until(() -> reconciled.subList(seen, reconciled.size())
				.stream()
				.noneMatch((entry) -> entry.startsWith(b)));
	}

	@Test
	void aNamespaceThatDoesNotExistYetIsReconciledFromItsCreation(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient admin = controlPlane.adminClient();
		String later = name("later");
		Manager manager = this.resources.manager(Manager.builder(admin)
			.namespaces(List.of(namespace.name(), later))
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.build());
		List<String> reconciled = journal(manager);
		manager.start();
		assertThat(manager.namespaces().unsynced()).isEmpty();
		create(admin, new V1Namespace().metadata(new V1ObjectMeta().name(later)));
		this.resources.closeable(() -> new CoreV1Api(admin).deleteNamespace(later).execute());
		create(admin, configMap(later, "first", "web"));
		await().atMost(WAIT).until(() -> reconciled.contains(later + "/first"));
	}

	@Test
	void aRefreshOfTheNamespacesPropertyChangesTheSet(ControlPlane controlPlane) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		String a = namespace(admin, "a");
		String b = namespace(admin, "b");
		String c = namespace(admin, "c");
		for (String namespace : List.of(a, b, c)) {
			create(admin, configMap(namespace, "one", "web"));
		}
		ConfigurableApplicationContext application = this.resources
			.closeable(new SpringApplicationBuilder(NamespacesApplication.class)
				.initializers((context) -> ((GenericApplicationContext) context).registerBean("kubernetesApiClient",
						ApiClient.class, () -> admin))
				.run("--spring.main.web-application-type=none", "--spring.main.banner-mode=off",
						"--operator.namespaces=" + a + "," + b, "--operator.graceful-shutdown-timeout=500ms"));
		Set<String> reconciled = application.getBean(Recorder.class).reconciled;
		await().atMost(WAIT).until(() -> reconciled.containsAll(List.of(a + "/one", b + "/one")));

		// as Spring Cloud's refresh changes the environment, then publishes its event
		application.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("refreshed", Map.of("operator.namespaces", a + "," + c)));
		application.publishEvent(new EnvironmentChangeEvent(application, Set.of("operator.namespaces")));
		assertThat(application.getBean(WatchedNamespaces.class).current()).containsExactlyInAnyOrder(a, c);
		await().atMost(WAIT).until(() -> reconciled.contains(c + "/one"));
		reconciled.remove(b + "/one");
		create(admin, configMap(b, "two", "web"));
		create(admin, configMap(c, "two", "web"));
		await().atMost(WAIT).until(() -> reconciled.contains(c + "/two"));
		await().during(Duration.ofSeconds(1))
			.atMost(WAIT)
			.until(() -> reconciled.stream().noneMatch((entry) -> entry.startsWith(b + "/")));
	}

	/**
	 * Reconciles the test's ConfigMaps, recording each request.
	 */
	private static List<String> journal(Manager manager) {
		List<String> reconciled = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class).labelSelector("app=" + APP).complete((request) -> {
			reconciled.add(request.namespace() + "/" + request.name());
			return Result.done();
		});
		return reconciled;
	}

	/**
	 * Renders the Roles of the manager's namespaces as they are now and binds them to the
	 * operator's user, as an administrator applies the generated RBAC.
	 */
	private void grant(ControlPlane controlPlane, Manager manager) throws Exception {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(controlPlane.adminClient());
		String yaml = RbacManifest.builder("namespace-set").render(PolicyRules.of(manager.requiredPermissions()));
		for (Object object : Yaml.loadAll(yaml)) {
			// Roles only: no kind of the set is cluster-scoped
			V1Role role = (V1Role) object;
			String namespace = role.getMetadata().getNamespace();
			if (rbac.listNamespacedRole(namespace).execute().getItems().isEmpty()) {
				rbac.createNamespacedRole(namespace, role).execute();
				rbac.createNamespacedRoleBinding(namespace, new V1RoleBinding()
					.metadata(new V1ObjectMeta().name(role.getMetadata().getName()))
					.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io")
						.kind("Role")
						.name(role.getMetadata().getName()))
					.subjects(List
						.of(new RbacV1Subject().kind("User").name(OPERATOR).apiGroup("rbac.authorization.k8s.io"))))
					.execute();
			}
		}
	}

	/**
	 * Grants the operator's user list and watch of core resources in a namespace, with a
	 * Role of their own.
	 */
	private void grant(ControlPlane controlPlane, String namespace, String... resources) throws Exception {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(controlPlane.adminClient());
		String name = "namespace-set-" + String.join("-", resources);
		rbac.createNamespacedRole(namespace,
				new V1Role().metadata(new V1ObjectMeta().name(name))
					.rules(List.of(new V1PolicyRule().apiGroups(List.of(""))
						.resources(List.of(resources))
						.verbs(List.of("get", "list", "watch")))))
			.execute();
		rbac.createNamespacedRoleBinding(namespace,
				new V1RoleBinding().metadata(new V1ObjectMeta().name(name))
					.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name(name))
					.subjects(List
						.of(new RbacV1Subject().kind("User").name(OPERATOR).apiGroup("rbac.authorization.k8s.io"))))
			.execute();
	}

	private static String failures(ManagerHealth health) {
		List<CheckResult> readiness = health.readiness();
		return ManagerHealth.failures(readiness);
	}

	/**
	 * Creates a namespace of its own for the test, deleted after it.
	 */
	private String namespace(ApiClient admin, String role) throws Exception {
		String name = name(role);
		create(admin, new V1Namespace().metadata(new V1ObjectMeta().name(name)));
		this.resources.closeable(() -> new CoreV1Api(admin).deleteNamespace(name).execute());
		return name;
	}

	private static String name(String role) {
		StringBuilder suffix = new StringBuilder();
		for (int i = 0; i < 6; i++) {
			suffix.append("abcdefghijklmnopqrstuvwxyz0123456789".charAt(random.nextInt(36)));
		}
		return "t-nsset-" + suffix + "-" + role;
	}

	private static void create(ApiClient admin, KubernetesObject object) throws Exception {
		CoreV1Api core = new CoreV1Api(admin);
		if (object instanceof V1Namespace namespace) {
			core.createNamespace(namespace).execute();
		}
		else if (object instanceof V1ConfigMap configMap) {
			core.createNamespacedConfigMap(configMap.getMetadata().getNamespace(), configMap).execute();
		}
		else if (object instanceof V1Secret secret) {
			core.createNamespacedSecret(secret.getMetadata().getNamespace(), secret).execute();
		}
	}

	private static V1ConfigMap configMap(String namespace, String name, String tier) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace(namespace).name(name).labels(Map.of("app", APP, "tier", tier)));
	}

	private static V1Secret secret(String namespace, String name) {
		return new V1Secret().metadata(new V1ObjectMeta().namespace(namespace).name(name));
	}

	private static List<String> names(List<? extends KubernetesObject> objects) {
		List<String> names = new ArrayList<>();
		for (KubernetesObject object : objects) {
			names.add(object.getMetadata().getNamespace() + "/" + object.getMetadata().getName());
		}
		return names;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class NamespacesApplication {

		@Bean
		Recorder recorder() {
			return new Recorder();
		}

	}

	@Reconciles(value = V1ConfigMap.class, labelSelector = "app=" + APP)
	static class Recorder {

		final Set<String> reconciled = ConcurrentHashMap.newKeySet();

		Result reconcile(Request request) {
			this.reconciled.add(request.namespace() + "/" + request.name());
			return Result.done();
		}

	}

}
