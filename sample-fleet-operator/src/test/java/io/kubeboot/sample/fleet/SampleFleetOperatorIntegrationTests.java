package io.kubeboot.sample.fleet;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.cluster.ClusterStatus;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.sample.fleet.v1alpha1.FleetConfig;
import io.kubeboot.sample.fleet.v1alpha1.FleetConfigSpec;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.util.Yaml;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample against three control planes: the hub (the shared local control plane, with
 * the FleetConfig CRD) and two members, each joining through a kubeconfig Secret in the
 * hub's {@code fleet-system} while the operator runs, one of them leaving again. The
 * member {@code west} grants the operator's identity there nothing but the roles of the
 * generated {@code deploy/member-rbac.yaml}.
 */
@SpringBootTest
@WithControlPlane
class SampleFleetOperatorIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String MEMBER_USER = "user1";

	private static ControlPlane east;

	private static ControlPlane west;

	@Autowired
	Client hub;

	@Autowired
	Fleet fleet;

	@BeforeAll
	static void startMembers() {
		east = ControlPlane.start();
		west = ControlPlane.start();
	}

	@AfterAll
	static void stopMembers() {
		for (ControlPlane member : new ControlPlane[] { east, west }) {
			if (member != null) {
				member.close();
			}
		}
	}

	@Test
	void everyMemberHoldsTheConfigMapOfEachFleetConfigWhileItIsInTheFleet() throws Exception {
		this.hub.create(new V1Namespace().metadata(new V1ObjectMeta().name("fleet-system")));
		join("east", east.kubeconfig());
		join("west", grantMemberRbac(west, MEMBER_USER));
		await().atMost(WAIT)
			.until(() -> this.fleet.statuses().stream().map(ClusterStatus::name).toList(),
					(names) -> names.equals(List.of("east", "west")));

		this.hub.create(new FleetConfig().metadata(new V1ObjectMeta().name("team"))
			.spec(new FleetConfigSpec().namespace("team-config").data(Map.of("log-level", "info"))));
		awaitData(east, Map.of("log-level", "info"));
		awaitData(west, Map.of("log-level", "info"));
		await().atMost(WAIT)
			.until(() -> this.hub.uncached().get(FleetConfig.class, Request.clusterScoped("team")).orElseThrow(),
					(config) -> config.getStatus() != null
							&& config.getStatus().getClusters().equals(Map.of("east", 1L, "west", 1L)));

		// an edit in a member is put back
		new CoreV1Api(west.adminClient())
			.replaceNamespacedConfigMap("team", "team-config",
					configMap(west).orElseThrow().data(Map.of("log-level", "debug")))
			.execute();
		awaitData(west, Map.of("log-level", "info"));

		// a member that leaves keeps what it has, and gets no more changes
		this.hub.delete(this.hub.uncached().get(V1Secret.class, Request.of("fleet-system", "west")).orElseThrow());
		await().atMost(WAIT).until(() -> this.fleet.cluster("west").isEmpty());
		FleetConfig team = this.hub.uncached().get(FleetConfig.class, Request.clusterScoped("team")).orElseThrow();
		team.getSpec().data(Map.of("log-level", "warn"));
		this.hub.update(team);
		awaitData(east, Map.of("log-level", "warn"));
		assertThat(configMap(west).orElseThrow().getData()).isEqualTo(Map.of("log-level", "info"));

		// a FleetConfig deleted in the hub is removed from the members
		this.hub.delete(this.hub.uncached().get(FleetConfig.class, Request.clusterScoped("team")).orElseThrow());
		await().atMost(WAIT).until(() -> configMap(east).isEmpty());

		// the last member leaves before its control plane stops
		this.hub.delete(this.hub.uncached().get(V1Secret.class, Request.of("fleet-system", "east")).orElseThrow());
		await().atMost(WAIT).until(() -> this.fleet.statuses().isEmpty());
	}

	private void join(String name, Path kubeconfig) throws Exception {
		this.hub.create(new V1Secret()
			.metadata(new V1ObjectMeta().namespace("fleet-system")
				.name(name)
				.putLabelsItem("cluster.kubeboot.io/kubeconfig", "true"))
			.data(Map.of("kubeconfig", Files.readString(kubeconfig).getBytes(StandardCharsets.UTF_8))));
	}

	/**
	 * Applies the generated {@code deploy/member-rbac.yaml} to a member, binding its
	 * roles to an unprivileged user of the control plane as well (which has no service
	 * account tokens), and returns that user's kubeconfig.
	 */
	private static Path grantMemberRbac(ControlPlane member, String user) throws Exception {
		ApiClient admin = member.adminClient();
		CoreV1Api core = new CoreV1Api(admin);
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(admin);
		RbacV1Subject subject = new RbacV1Subject().kind("User").apiGroup("rbac.authorization.k8s.io").name(user);
		for (Object document : Yaml.loadAll(GeneratedDeployTests.DEPLOY.resolve("member-rbac.yaml").toFile())) {
			if (document instanceof V1Namespace namespace) {
				core.createNamespace(namespace).execute();
			}
			else if (document instanceof V1ServiceAccount account) {
				core.createNamespacedServiceAccount(account.getMetadata().getNamespace(), account).execute();
			}
			else if (document instanceof V1ClusterRole role) {
				rbac.createClusterRole(role).execute();
			}
			else if (document instanceof V1Role role) {
				rbac.createNamespacedRole(role.getMetadata().getNamespace(), role).execute();
			}
			else if (document instanceof V1ClusterRoleBinding binding) {
				rbac.createClusterRoleBinding(binding.addSubjectsItem(subject)).execute();
			}
			else if (document instanceof V1RoleBinding binding) {
				rbac.createNamespacedRoleBinding(binding.getMetadata().getNamespace(), binding.addSubjectsItem(subject))
					.execute();
			}
			else if (!(document instanceof V1Secret)) {
				throw new AssertionError("member-rbac.yaml holds an unexpected object: " + document);
			}
		}
		return member.kubeconfigFor(user);
	}

	private static void awaitData(ControlPlane member, Map<String, String> data) {
		await().atMost(WAIT)
			.until(() -> configMap(member).map(V1ConfigMap::getData), (found) -> found.equals(Optional.of(data)));
	}

	private static Optional<V1ConfigMap> configMap(ControlPlane member) throws ApiException {
		try {
			return Optional
				.of(new CoreV1Api(member.adminClient()).readNamespacedConfigMap("team", "team-config").execute());
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return Optional.empty();
			}
			throw ex;
		}
	}

}
