package io.kubeboot.operator.rbac;

import java.util.List;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Eviction;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Permissions to rules without the API server.
 */
class PolicyRulesTests {

	@Test
	void permissionsThatDifferInVerbsAndReasonsOnlyMergeWithVerbsInKubernetesOrder() {
		List<PolicyRule> rules = PolicyRules
			.of(List.of(Permission.of(V1Deployment.class, "patch", "get").inNamespace("shop").because("b"),
					Permission.of(V1Deployment.class, "watch", "list").inNamespace("shop").because("a"),
					Permission.of(V1Deployment.class, "escalate", "get").inNamespace("shop").because("a")));
		assertThat(rules).containsExactly(new PolicyRule("", "shop", "apps", "deployments", List.of(),
				List.of("get", "list", "watch", "patch", "escalate"), List.of("a", "b")));
	}

	@Test
	void rulesAreSortedClusterFirstThenNamespaceGroupResourceAndNames() {
		List<PolicyRule> rules = PolicyRules.of(List.of(Permission.of("", "secrets", "get").inNamespace("b"),
				Permission.of("apps", "deployments", "get").inNamespace("a"),
				Permission.of("", "configmaps", "get").resourceNames("x").inNamespace("a"),
				Permission.of("", "configmaps", "get").inNamespace("a"), Permission.of("", "nodes", "get"),
				Permission.of("", "leases", "get").inRole("leader-election").inNamespace("a")));
		assertThat(rules)
			.extracting((rule) -> rule.role() + "|" + rule.namespace() + "|" + rule.apiGroup() + "|" + rule.resource()
					+ "|" + rule.resourceNames())
			.containsExactly("|null||nodes|[]", "|a||configmaps|[]", "|a||configmaps|[x]", "|a|apps|deployments|[]",
					"|b||secrets|[]", "leader-election|a||leases|[]");
	}

	@Test
	void kindsAreNamedWithoutTheApiServer() {
		List<PolicyRule> rules = PolicyRules.of(List.of(Permission.of(V1NetworkPolicy.class, "get").inNamespace("a"),
				Permission.of(EventsV1Event.class, "create").inNamespace("a"),
				Permission.of(V1Namespace.class, "get").inNamespace("a"), Permission.of(Bucket.class, "get"),
				Permission.of(Lamp.class, "get")));
		assertThat(rules).extracting((rule) -> rule.namespace() + " " + rule.apiGroup() + " " + rule.resource())
			.containsExactlyInAnyOrder("a networking.k8s.io networkpolicies", "a events.k8s.io events",
					"null  namespaces", "null storage.example.com buckets", "null home.example.com lampen");
	}

	@Test
	void aSubresourceIsPartOfTheResource() {
		assertThat(PolicyRules.of(List.of(Permission.of("", "pods/log", "get"),
				Permission.of(Bucket.class, "patch").subresource("status"))))
			.extracting(PolicyRule::resource)
			.containsExactly("pods/log", "buckets/status");
	}

	@Test
	void aModelOfAKindThisLibraryDoesNotKnowNeedsItsResourceNamed() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PolicyRules.of(List.of(Permission.of(V1Eviction.class, "create"))))
			.withMessage("Cannot tell the API group of io.kubernetes.client.openapi.models.V1Eviction without the "
					+ "API server: name its resource with Permission.of(group, resource, verbs), or resolve the "
					+ "permissions against the API server");
	}

	@Test
	void aPermissionNeedsVerbs() {
		assertThatIllegalArgumentException().isThrownBy(() -> Permission.of(Bucket.class))
			.withMessage("a permission needs at least one verb");
		assertThatIllegalArgumentException().isThrownBy(() -> Permission.of(Bucket.class, "read all"))
			.withMessage("'read all' is not a verb: use get, list, watch, create, update, patch, delete or "
					+ "deletecollection");
	}

	@Test
	void describeNamesVerbsResourceNamesAndNamespace() {
		PolicyRule rule = new PolicyRule("", "x", "storage.example.com", "buckets/status", List.of("a"),
				List.of("get", "patch"), List.of());
		assertThat(rule.describe(List.of("patch")))
			.isEqualTo("patch buckets.storage.example.com/status named 'a' in namespace 'x'");
		assertThat(new PolicyRule("", null, "", "events", List.of(), List.of("create"), List.of())
			.describe(List.of("create"))).isEqualTo("create events in all namespaces");
	}

	@KubernetesKind(group = "storage.example.com", version = "v1", kind = "Bucket")
	static class Bucket extends CustomResource<Object, Object> {

	}

	@KubernetesKind(group = "home.example.com", version = "v1", kind = "Lamp", plural = "lampen")
	static class Lamp extends CustomResource<Object, Object> {

	}

	@Test
	void aPermissionGrantedPerNamespaceGoesToAClusterRoleOfItsOwnAndGrantsNothingCheckedEverywhere() {
		Permission connections = Permission.of(V1ConfigMap.class, "create", "update")
			.inRole("connections")
			.grantedPerNamespace()
			.because("writes each bucket's ConfigMap");
		List<PolicyRule> rules = PolicyRules
			.of(List.of(connections, Permission.of(V1ConfigMap.class, "list", "watch").because("caches them")));
		assertThat(rules)
			.extracting(PolicyRule::role, PolicyRule::namespace, PolicyRule::verbs, PolicyRule::grantedPerNamespace)
			.containsExactly(tuple("", null, List.of("list", "watch"), false),
					tuple("connections", null, List.of("create", "update"), true));
		assertThat(rules.get(1).describe(rules.get(1).verbs()))
			.isEqualTo("create, update configmaps in the namespaces that grant it");
		// not granted in every namespace, so no check may count on it there
		assertThat(connections.grants(V1ConfigMap.class, "kube-system", "create")).isFalse();
		// placed in one namespace, it is an ordinary Role there
		assertThat(PolicyRules.of(List.of(connections.inNamespace("shop")))).singleElement()
			.satisfies((rule) -> assertThat(rule.grantedPerNamespace()).isFalse());
	}

	@Test
	void aPermissionGrantedPerNamespaceNeedsARoleOfItsOwn() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PolicyRules
				.of(List.of(Permission.of(V1ConfigMap.class, "create").grantedPerNamespace().because("writes"))))
			.withMessageStartingWith("A permission granted per namespace needs a role of its own");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PolicyRules
				.of(List.of(Permission.of(V1ConfigMap.class, "create").inRole("connections").grantedPerNamespace(),
						Permission.of("", "secrets", "get").inRole("connections"))))
			.withMessageStartingWith("Role 'connections' holds rules granted per namespace and rules for all");
	}

}
