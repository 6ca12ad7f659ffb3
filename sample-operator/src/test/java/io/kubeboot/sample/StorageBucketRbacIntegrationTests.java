package io.kubeboot.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code deploy/rbac.yaml}, generated from the sample's code, with the RoleBinding that
 * grants its ConfigMap writes in a namespace, grants the sample everything it does and
 * the sample needs nothing more: the sample runs as a user that has no permission but the
 * manifests' roles, bound in the test's namespace (the sample is scoped to it with
 * {@code operator.namespace}), and never meets a {@code Forbidden}, nor does its start-up
 * self-check find a rule missing.
 */
@WithControlPlane
class StorageBucketRbacIntegrationTests {

	private static final String USER = "user1";

	private static final Duration WAIT = Duration.ofSeconds(60);

	private final List<OperatorProcess> processes = new ArrayList<>();

	private final List<String> clusterRoles = new ArrayList<>();

	private ApiClient admin;

	@AfterEach
	void cleanUp() throws Exception {
		for (OperatorProcess process : this.processes) {
			process.close();
		}
		for (String clusterRole : this.clusterRoles) {
			new RbacAuthorizationV1Api(this.admin).deleteClusterRole(clusterRole).execute();
		}
	}

	@Test
	void theManifestsRolesAreAllTheSampleNeeds(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		this.admin = controlPlane.adminClient();
		StorageBuckets.installCrd(this.admin);
		grantManifestRolesTo(USER, namespace.name());
		StorageBuckets buckets = new StorageBuckets(this.admin, namespace.name());
		try (BucketEndpoint endpoint = BucketEndpoint.start()) {
			buckets.create("photos", endpoint.url());
			OperatorProcess operator = OperatorProcess.start(controlPlane.kubeconfigFor(USER),
					SampleArguments.replica(namespace, "replica-a"));
			this.processes.add(operator);
			// list and watch buckets, pods and labelled ConfigMaps, get, create and
			// update the Lease, add the finalizer, patch the bucket's status, create an
			// Event
			await().atMost(WAIT).until(() -> buckets.availableStatus("photos").equals("True"));
			await().atMost(WAIT).until(() -> buckets.eventCount("photos", "Normal", "EndpointReachable") == 1);
			// the same Event again: the recorder patches its series (its count, on
			// core/v1)
			endpoint.answer(503);
			await().atMost(WAIT).until(() -> buckets.availableStatus("photos").equals("False"));
			endpoint.answer(200);
			await().atMost(WAIT).until(() -> buckets.availableStatus("photos").equals("True"));
			await().atMost(WAIT).until(() -> buckets.eventCount("photos", "Normal", "EndpointReachable") == 2);
			assertThat(buckets.events("photos")).filteredOn((event) -> "EndpointReachable".equals(event.getReason()))
				.singleElement()
				.satisfies((event) -> assertThat(StorageBuckets.occurrences(event)).isEqualTo(2));
			// keep the bucket's ConfigMap (cached by label, created), then remove the
			// finalizer of a deleted bucket
			await().atMost(WAIT).until(() -> buckets.connection("photos").isPresent());
			buckets.delete("photos");
			await().atMost(WAIT).until(() -> !buckets.exists("photos"));
			// release the Lease on the way out
			operator.terminate();
			assertThat(operator.waitForExit(WAIT.toSeconds())).isEqualTo(143);
			assertThat(operator.logged("Released leader lease")).isTrue();
			// the start-up self-check asked about every rule the sample derives and
			// declares
			assertThat(operator.output()).noneMatch((line) -> line.contains("Forbidden") || line.contains(" ERROR ")
					|| line.contains("RBAC denies") || line.contains("Cannot check RBAC"));
		}
	}

	/**
	 * In a namespace where no RoleBinding grants the ConfigMap writes (granted namespace
	 * by namespace, never cluster-wide; the start-up self-check of an operator of all
	 * namespaces does not count them missing, see {@code RbacSelfCheck} in the core's
	 * tests), a bucket is still probed and its status written; a Warning Event tells its
	 * owner why it has no ConfigMap, and once the namespace grants the writes the
	 * ConfigMap comes at the next probe.
	 */
	@Test
	void aBucketWhereConfigMapWritesAreNotGrantedIsProbedAndItsOwnerToldWhy(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		this.admin = controlPlane.adminClient();
		StorageBuckets.installCrd(this.admin);
		grantManifestRolesTo(USER, namespace.name(), false);
		StorageBuckets buckets = new StorageBuckets(this.admin, namespace.name());
		try (BucketEndpoint endpoint = BucketEndpoint.start()) {
			buckets.create("photos", endpoint.url());
			OperatorProcess operator = OperatorProcess.start(controlPlane.kubeconfigFor(USER),
					SampleArguments.replica(namespace, "replica-a"));
			this.processes.add(operator);
			await().atMost(WAIT).until(() -> buckets.availableStatus("photos").equals("True"));
			await().atMost(WAIT).until(() -> buckets.eventCount("photos", "Warning", "ConnectionNotGranted") == 1);
			assertThat(buckets.connection("photos")).isEmpty();
			// scoped to one namespace (operator.namespace), the writes are an ordinary
			// rule there, and the start-up self-check names it as missing
			assertThat(operator.output()).anyMatch((line) -> line.contains("RBAC denies")
					&& line.contains("create, update configmaps in namespace '" + namespace.name() + "'"));
			grantBucketNamespaceTo(USER, namespace.name());
			await().atMost(WAIT).until(() -> buckets.connection("photos").isPresent());
			// told once, not at every probe
			assertThat(buckets.eventCount("photos", "Warning", "ConnectionNotGranted")).isEqualTo(1);
		}
	}

	/**
	 * Applies {@code deploy/rbac.yaml} with the user in place of the ServiceAccount, in
	 * the test's namespace: the ClusterRoles (renamed, as they outlive the namespace) are
	 * bound there with RoleBindings (the one granted per namespace by the RoleBinding
	 * {@code rbac.yaml} makes in {@code default}), the leader election Role moves there.
	 */
	private void grantManifestRolesTo(String user, String namespace) throws Exception {
		grantManifestRolesTo(user, namespace, true);
	}

	private void grantManifestRolesTo(String user, String namespace, boolean bucketNamespace) throws Exception {
		Map<String, String> renamed = new HashMap<>();
		List<JsonObject> manifests = new ArrayList<>();
		for (JsonObject manifest : Manifests.load("rbac.yaml")) {
			if (bucketNamespace || !grantsPerNamespace(manifest)) {
				manifests.add(manifest);
			}
		}
		applyAsUser(manifests, user, namespace, renamed);
	}

	/**
	 * Applies the RoleBinding of {@code deploy/rbac.yaml} that grants the ConfigMap
	 * writes in a namespace, with the user in place of the ServiceAccount, in the test's
	 * namespace, after {@code rbac.yaml}'s roles.
	 */
	private void grantBucketNamespaceTo(String user, String namespace) throws Exception {
		Map<String, String> renamed = new HashMap<>();
		for (String clusterRole : this.clusterRoles) {
			renamed.put(clusterRole.substring(0, clusterRole.length() - namespace.length() - 1), clusterRole);
		}
		List<JsonObject> grants = Manifests.load("rbac.yaml")
			.stream()
			.filter(StorageBucketRbacIntegrationTests::grantsPerNamespace)
			.toList();
		applyAsUser(grants, user, namespace, renamed);
	}

	/**
	 * Whether a manifest is a RoleBinding of a ClusterRole: the grant of the writes given
	 * namespace by namespace.
	 */
	private static boolean grantsPerNamespace(JsonObject manifest) {
		return manifest.get("kind").getAsString().equals("RoleBinding")
				&& manifest.getAsJsonObject("roleRef").get("kind").getAsString().equals("ClusterRole");
	}

	private void applyAsUser(List<JsonObject> manifests, String user, String namespace, Map<String, String> renamed)
			throws Exception {
		for (JsonObject manifest : manifests) {
			String kind = manifest.get("kind").getAsString();
			JsonObject metadata = manifest.getAsJsonObject("metadata");
			JsonObject roleRef = manifest.getAsJsonObject("roleRef");
			switch (kind) {
				case "ServiceAccount" -> {
					continue; // the user stands in for it
				}
				case "ClusterRole" -> {
					String clusterRole = metadata.get("name").getAsString() + "-" + namespace;
					renamed.put(metadata.get("name").getAsString(), clusterRole);
					metadata.addProperty("name", clusterRole);
					this.clusterRoles.add(clusterRole);
				}
				case "ClusterRoleBinding" -> {
					manifest.addProperty("kind", "RoleBinding");
					roleRef.addProperty("name", renamed.get(roleRef.get("name").getAsString()));
					metadata.addProperty("namespace", namespace);
					manifest.add("subjects", userSubject(user));
				}
				case "Role" -> metadata.addProperty("namespace", namespace);
				case "RoleBinding" -> {
					if (roleRef.get("kind").getAsString().equals("ClusterRole")) {
						roleRef.addProperty("name", renamed.get(roleRef.get("name").getAsString()));
					}
					metadata.addProperty("namespace", namespace);
					manifest.add("subjects", userSubject(user));
				}
				default -> throw new IllegalStateException("Unexpected kind in the RBAC manifests: " + kind);
			}
			assertThat(Manifests.create(this.admin, manifest)).as(kind).isTrue();
		}
	}

	private static JsonArray userSubject(String user) {
		JsonObject subject = new JsonObject();
		subject.addProperty("kind", "User");
		subject.addProperty("name", user);
		subject.addProperty("apiGroup", "rbac.authorization.k8s.io");
		JsonArray subjects = new JsonArray();
		subjects.add(subject);
		return subjects;
	}

}
