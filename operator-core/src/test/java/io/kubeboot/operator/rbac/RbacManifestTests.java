package io.kubeboot.operator.rbac;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.util.Yaml;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Rendering rules as YAML.
 */
class RbacManifestTests {

	private static final List<PolicyRule> RULES = List.of(
			new PolicyRule("", null, "storage.example.com", "buckets", List.of(), List.of("list", "watch", "patch"),
					List.of("controller bucket adds and removes its finalizer",
							"controller bucket reconciles Bucket objects: its informer lists and watches them, and "
									+ "this reason is long enough to be wrapped at a word boundary")),
			new PolicyRule("", null, "", "events", List.of(), List.of("create", "patch"), List.of("the recorder")),
			new PolicyRule("", "team-a", "", "secrets", List.of(), List.of("get"), List.of()),
			new PolicyRule("leader-election", "operators", "coordination.k8s.io", "leases", List.of("shop-leader"),
					List.of("get", "watch", "update"), List.of("leader election renews")),
			new PolicyRule("leader-election", "operators", "coordination.k8s.io", "leases", List.of(),
					List.of("create"), List.of("leader election creates")));

	@Test
	void rendersAClusterRoleARolePerNamespaceAndTheLeaderElectionRoleWithReasonsAsComments() {
		String yaml = RbacManifest.builder("shop").header("Made by a test.", "", "Second paragraph.").render(RULES);
		assertThat(yaml).isEqualTo(
				"""
						# Made by a test.
						#
						# Second paragraph.
						apiVersion: rbac.authorization.k8s.io/v1
						kind: ClusterRole
						metadata:
						  name: shop
						rules:
						  # the recorder
						  - apiGroups: [""]
						    resources: ["events"]
						    verbs: ["create", "patch"]
						  # controller bucket adds and removes its finalizer
						  # controller bucket reconciles Bucket objects: its informer lists and watches them, and this reason is long
						  # enough to be wrapped at a word boundary
						  - apiGroups: ["storage.example.com"]
						    resources: ["buckets"]
						    verbs: ["list", "watch", "patch"]
						---
						apiVersion: rbac.authorization.k8s.io/v1
						kind: Role
						metadata:
						  name: shop
						  namespace: team-a
						rules:
						  - apiGroups: [""]
						    resources: ["secrets"]
						    verbs: ["get"]
						---
						apiVersion: rbac.authorization.k8s.io/v1
						kind: Role
						metadata:
						  name: shop-leader-election
						  namespace: operators
						rules:
						  # leader election creates
						  - apiGroups: ["coordination.k8s.io"]
						    resources: ["leases"]
						    verbs: ["create"]
						  # leader election renews
						  - apiGroups: ["coordination.k8s.io"]
						    resources: ["leases"]
						    resourceNames: ["shop-leader"]
						    verbs: ["get", "watch", "update"]
						""");
	}

	@Test
	void withAServiceAccountRendersItAndBindsEveryRoleToIt() throws Exception {
		String yaml = RbacManifest.builder("shop").serviceAccount("operators", "shop-operator").render(RULES);
		List<Object> objects = Yaml.loadAll(yaml);
		assertThat(objects).extracting((object) -> object.getClass().getSimpleName())
			.containsExactly("V1ServiceAccount", "V1ClusterRole", "V1ClusterRoleBinding", "V1Role", "V1RoleBinding",
					"V1Role", "V1RoleBinding");
		V1ServiceAccount account = (V1ServiceAccount) objects.get(0);
		assertThat(account.getMetadata().getNamespace()).isEqualTo("operators");
		assertThat(account.getMetadata().getName()).isEqualTo("shop-operator");
		V1ClusterRole clusterRole = (V1ClusterRole) objects.get(1);
		assertThat(clusterRole.getRules()).extracting(V1PolicyRule::getResources)
			.containsExactly(List.of("events"), List.of("buckets"));
		V1ClusterRoleBinding clusterBinding = (V1ClusterRoleBinding) objects.get(2);
		assertThat(clusterBinding.getRoleRef().getName()).isEqualTo("shop");
		assertThat(clusterBinding.getSubjects()).singleElement().satisfies((subject) -> {
			assertThat(subject.getKind()).isEqualTo("ServiceAccount");
			assertThat(subject.getName()).isEqualTo("shop-operator");
			assertThat(subject.getNamespace()).isEqualTo("operators");
		});
		V1Role leaderElection = (V1Role) objects.get(5);
		assertThat(leaderElection.getMetadata().getName()).isEqualTo("shop-leader-election");
		assertThat(leaderElection.getRules().get(1).getResourceNames()).containsExactly("shop-leader");
		V1RoleBinding binding = (V1RoleBinding) objects.get(6);
		assertThat(binding.getMetadata().getNamespace()).isEqualTo("operators");
		assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
		assertThat(binding.getRoleRef().getName()).isEqualTo("shop-leader-election");
	}

	@Test
	void theOrderOfTheRulesDoesNotChangeTheOutput() {
		List<PolicyRule> shuffled = new ArrayList<>(RULES);
		Collections.reverse(shuffled);
		assertThat(RbacManifest.builder("shop").render(shuffled)).isEqualTo(RbacManifest.builder("shop").render(RULES));
	}

	@Test
	void aNameThatIsNoObjectNameIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> RbacManifest.builder("Shop_Operator"))
			.withMessage("name 'Shop_Operator' must be a lowercase RFC 1123 subdomain");
	}

	@Test
	void aClusterRoleGrantedPerNamespaceIsRenderedWithoutABindingAndSaysSo() throws Exception {
		List<PolicyRule> rules = List.of(
				new PolicyRule("", null, "", "configmaps", List.of(), List.of("list", "watch"), List.of("caches")),
				new PolicyRule("connections", null, "", "configmaps", List.of(), List.of("create", "update"),
						List.of("writes each bucket's ConfigMap"), true));
		String yaml = RbacManifest.builder("shop").serviceAccount("operators", "shop-operator").render(rules);
		assertThat(yaml).contains(
				"""
						# Not bound here: granted namespace by namespace, by a RoleBinding of this ClusterRole to the ServiceAccount
						# in each namespace that needs it
						apiVersion: rbac.authorization.k8s.io/v1
						kind: ClusterRole
						metadata:
						  name: shop-connections
						""");
		List<Object> objects = Yaml.loadAll(yaml);
		assertThat(objects).extracting((object) -> object.getClass().getSimpleName())
			.containsExactly("V1ServiceAccount", "V1ClusterRole", "V1ClusterRoleBinding", "V1ClusterRole");
		assertThat(((V1ClusterRoleBinding) objects.get(2)).getRoleRef().getName()).isEqualTo("shop");
	}

}
