package io.kubeboot.operator.rbac;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.events.KubernetesEventRecorder;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a manager derives it needs from what it runs, resolved without the API server.
 */
class RequiredPermissionsTests {

	private static final ApiClient UNREACHABLE = new ApiClient().setBasePath("https://127.0.0.1:1");

	@Test
	void controllersLeaderElectionAndEventsBecomeOneRulePerResourceWithTheirReasons() {
		Manager manager = manager().leaderElection(election()).build();
		Controller.builder(manager, Bucket.class)
			.owns(V1ConfigMap.class, "app.kubernetes.io/managed-by=shop", EventFilters.all())
			.watches(V1Secret.class, (secret) -> List.of())
			.withFinalizer("storage.example.com/deregister", (request) -> Result.done())
			.requires(Permission.of(Bucket.class, "patch").subresource("status").because("writes the status"))
			.requires(Permission.of(V1ConfigMap.class, "create", "update"))
			.complete((request) -> Result.done());
		manager.add("event-recorder", KubernetesEventRecorder.builder(UNREACHABLE).build());
		assertThat(PolicyRules.of(manager.requiredPermissions())).containsExactly(
				rule(null, "", "configmaps", List.of("list", "watch", "create", "update"),
						"controller bucket owns ConfigMap objects labelled app.kubernetes.io/managed-by=shop: its "
								+ "informer lists and watches them",
						"declared by controller bucket"),
				rule(null, "", "events", List.of("create", "patch"),
						"the event recorder creates core/v1 Events and patches their count where events.k8s.io/v1 is "
								+ "not served"),
				rule(null, "", "secrets", List.of("list", "watch"),
						"controller bucket watches Secret objects: its informer lists and watches them"),
				rule(null, "events.k8s.io", "events", List.of("create", "patch"),
						"the event recorder creates events.k8s.io/v1 Events and patches the series of repeated ones"),
				rule(null, "storage.example.com", "buckets", List.of("list", "watch", "patch"),
						"controller bucket adds and removes its finalizer storage.example.com/deregister with merge "
								+ "patches",
						"controller bucket reconciles Bucket objects: its informer lists and watches them"),
				rule(null, "storage.example.com", "buckets/status", List.of("patch"),
						"controller bucket: writes the status"),
				new PolicyRule("leader-election", "operators", "coordination.k8s.io", "leases", List.of(),
						List.of("create"),
						List.of("leader election creates its Lease shop-leader (RBAC cannot restrict create to a name)")),
				new PolicyRule("leader-election", "operators", "coordination.k8s.io", "leases", List.of("shop-leader"),
						List.of("get", "watch", "update"), List.of("leader election reads and renews its Lease; with "
								+ "watch a standby takes over a released Lease at once")));
	}

	@Test
	void aNamespacedOperatorsRulesGoToItsNamespaceAndClusterScopedKindsToTheCluster() {
		Manager manager = manager().namespace("shop").build();
		Controller.builder(manager, V1ConfigMap.class)
			.watches(V1Namespace.class, (namespace) -> List.of())
			.requires(Permission.of(V1Secret.class, "get"))
			.requires(Permission.of("", "nodes", "list").inAllNamespaces())
			.complete((request) -> Result.done());
		manager.add("event-recorder", KubernetesEventRecorder.builder(UNREACHABLE).build());
		assertThat(PolicyRules.of(manager.requiredPermissions()))
			.extracting((rule) -> rule.namespace() + " " + rule.resource() + " " + rule.verbs())
			.containsExactly("null namespaces [list, watch]", "null nodes [list]", "shop configmaps [list, watch]",
					"shop events [create, patch]", "shop secrets [get]", "shop events [create, patch]");
	}

	@Test
	void aFinalizerOfAControllerWithALabelSelectorAlsoNeedsGet() {
		Manager manager = manager().build();
		Controller.builder(manager, V1ConfigMap.class)
			.labelSelector("app=shop")
			.withFinalizer("shop.example.com/audit", (request) -> Result.done())
			.complete((request) -> Result.done());
		assertThat(PolicyRules.of(manager.requiredPermissions())).singleElement().satisfies((rule) -> {
			assertThat(rule.verbs()).containsExactly("get", "list", "watch", "patch");
			assertThat(rule.reasons()).contains("controller configmap reads an object that left its label selector "
					+ "uncached, to remove its finalizer");
		});
	}

	@Test
	void informersNoControllerAskedForAreListedAndWatchedWhereTheyCache() {
		Manager manager = manager().build();
		manager.cache().informer(V1Secret.class, "vault", null);
		assertThat(PolicyRules.of(manager.requiredPermissions())).containsExactly(rule("vault", "", "secrets",
				List.of("list", "watch"), "the cache's informer V1Secret[namespace=vault] lists and watches them"));
	}

	@Test
	void aRunnablesPermissionsGoWhereTheCachesHoldObjects() {
		Manager manager = manager().build();
		manager.cache().informer(V1ConfigMap.class, "a", null);
		manager.cache().informer(V1ConfigMap.class, "b", "app=shop");
		manager.add("exporter", new ManagerRunnable() {

			@Override
			public void start(StopSignal stop) {
			}

			@Override
			public List<Permission> requiredPermissions() {
				return List.of(Permission.of(V1Secret.class, "create").because("exports"),
						Permission.of(V1Secret.class, "delete").inNamespace("c"));
			}

		});
		assertThat(PolicyRules.of(manager.requiredPermissions()))
			.filteredOn((rule) -> rule.resource().equals("secrets"))
			.extracting((rule) -> rule.namespace() + " " + rule.verbs())
			.containsExactly("a [create]", "b [create]", "c [delete]");
	}

	@Test
	void withoutAnyInformerUnplacedPermissionsGoToTheManagersNamespace() {
		Manager manager = manager().namespace("shop").build();
		manager.add("event-recorder", KubernetesEventRecorder.builder(UNREACHABLE).build());
		assertThat(PolicyRules.of(manager.requiredPermissions()))
			.extracting((rule) -> rule.namespace() + " " + rule.apiGroup())
			.containsExactly("shop ", "shop events.k8s.io");
	}

	@Test
	void whatRunsBesideTheManagerJoinsItsPermissionsPlacedAsARunnablesAre() {
		Manager manager = manager().namespace("shop")
			.requires(
					Permission.of("authentication.k8s.io", "tokenreviews", "create")
						.inAllNamespaces()
						.inRole("metrics-auth")
						.because("reviews tokens"),
					Permission.of(V1ConfigMap.class, "get").because("reads its settings"))
			.build();
		assertThat(PolicyRules.of(manager.requiredPermissions()))
			.extracting((rule) -> rule.role() + " " + rule.namespace() + " " + rule.resource() + " " + rule.reasons())
			.containsExactly(" shop configmaps [reads its settings]",
					"metrics-auth null tokenreviews [reviews tokens]");
	}

	@Test
	void anOperatorOfSeveralNamespacesNeedsARolePerNamespaceAndAClusterRoleOnlyForClusterScopedKinds() {
		Manager manager = manager().namespaces(List.of("shop-b", "shop-a")).build();
		Controller.builder(manager, Bucket.class)
			.owns(V1ConfigMap.class)
			.watches(V1Namespace.class, (namespace) -> List.of())
			.withFinalizer("storage.example.com/deregister", (request) -> Result.done())
			.complete((request) -> Result.done());
		manager.add("event-recorder", KubernetesEventRecorder.builder(UNREACHABLE).build());
		List<PolicyRule> rules = PolicyRules.of(manager.requiredPermissions());
		assertThat(rules)
			.extracting((rule) -> rule.namespace() + " " + rule.apiGroup() + "/" + rule.resource() + " " + rule.verbs())
			.containsExactly("null /namespaces [list, watch]", "shop-a /configmaps [list, watch]",
					"shop-a /events [create, patch]", "shop-a events.k8s.io/events [create, patch]",
					"shop-a storage.example.com/buckets [list, watch, patch]", "shop-b /configmaps [list, watch]",
					"shop-b /events [create, patch]", "shop-b events.k8s.io/events [create, patch]",
					"shop-b storage.example.com/buckets [list, watch, patch]");
		String yaml = RbacManifest.builder("shop-operator").serviceAccount("ops", "shop-operator").render(rules);
		assertThat(kinds(yaml)).containsExactly("ServiceAccount ops/shop-operator", "ClusterRole shop-operator",
				"ClusterRoleBinding shop-operator", "Role shop-a/shop-operator", "RoleBinding shop-a/shop-operator",
				"Role shop-b/shop-operator", "RoleBinding shop-b/shop-operator");
	}

	@Test
	void anOperatorOfSeveralNamespacesWithoutClusterScopedKindsNeedsNoClusterRole() {
		Manager manager = manager().namespaces(List.of("shop-a", "shop-b")).build();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> Result.done());
		String yaml = RbacManifest.builder("shop-operator")
			.serviceAccount("ops", "shop-operator")
			.render(PolicyRules.of(manager.requiredPermissions()));
		assertThat(kinds(yaml)).containsExactly("ServiceAccount ops/shop-operator", "Role shop-a/shop-operator",
				"RoleBinding shop-a/shop-operator", "Role shop-b/shop-operator", "RoleBinding shop-b/shop-operator");
	}

	@Test
	void thePermissionsOfAnOperatorOfSeveralNamespacesFollowTheSetAsItChanges() {
		Manager manager = manager().namespaces(List.of("shop-a", "shop-b")).build();
		Controller.builder(manager, V1ConfigMap.class)
			.requires(Permission.of(V1Secret.class, "get").because("reads the credentials"))
			.complete((request) -> Result.done());
		manager.namespaces().add("shop-c");
		manager.namespaces().remove("shop-a");
		assertThat(PolicyRules.of(manager.requiredPermissions()))
			.extracting((rule) -> rule.namespace() + " " + rule.resource() + " " + rule.verbs())
			.containsExactly("shop-b configmaps [list, watch]", "shop-b secrets [get]",
					"shop-c configmaps [list, watch]", "shop-c secrets [get]");
	}

	@Test
	void aKindWatchedInAllNamespacesByAnOperatorOfSeveralNeedsItsRulesClusterWide() {
		Manager manager = manager().namespaces(List.of("shop-a", "shop-b")).build();
		Controller.builder(manager, V1ConfigMap.class)
			.watches(V1Secret.class, "*", null, (secret) -> List.of())
			.complete((request) -> Result.done());
		Controller.builder(manager, V1Pod.class).namespace("*").complete((request) -> Result.done());
		assertThat(PolicyRules.of(manager.requiredPermissions()))
			.extracting((rule) -> rule.namespace() + " " + rule.resource() + " " + rule.verbs())
			.containsExactly("null pods [list, watch]", "null secrets [list, watch]", "shop-a configmaps [list, watch]",
					"shop-b configmaps [list, watch]");
	}

	/**
	 * Returns the kind, namespace and name of each document of a manifest.
	 */
	private static List<String> kinds(String yaml) {
		return Arrays.stream(yaml.split("---\n")).map((document) -> {
			Matcher kind = Pattern.compile("(?m)^kind: (\\S+)$").matcher(document);
			Matcher name = Pattern.compile("(?m)^  name: (\\S+)$").matcher(document);
			Matcher namespace = Pattern.compile("(?m)^  namespace: (\\S+)$").matcher(document);
			assertThat(kind.find() && name.find()).as("a kind and a name in %s", document).isTrue();
			return kind.group(1) + " " + (namespace.find() ? namespace.group(1) + "/" : "") + name.group(1);
		}).toList();
	}

	private static ManagerBuilder manager() {
		return Manager.builder(UNREACHABLE);
	}

	private static LeaderElectionConfig election() {
		return new LeaderElectionConfig("operators", "shop-leader", "replica-1", Duration.ofSeconds(15),
				Duration.ofSeconds(10), Duration.ofSeconds(2), true, LostLeasePolicy.EXIT);
	}

	private static PolicyRule rule(String namespace, String group, String resource, List<String> verbs,
			String... reasons) {
		return new PolicyRule("", namespace, group, resource, List.of(), verbs, List.of(reasons));
	}

	@KubernetesKind(group = "storage.example.com", version = "v1", kind = "Bucket")
	static class Bucket extends CustomResource<Object, Object> {

	}

}
