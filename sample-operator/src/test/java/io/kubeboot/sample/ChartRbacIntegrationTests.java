package io.kubeboot.sample;

import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.Helm;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The chart's roles as {@code helm install --set watchNamespaces={<namespace>} --set
 * leaderElection.enabled=true} renders them, which the plain {@code rbac.yaml} does not
 * show: the operator's rules as a Role in the watched namespace, leader election's Role
 * in the release's namespace, the cluster-scoped kinds' ClusterRole, and, the metrics
 * being secured ({@code metrics.secure} of the settings), the ClusterRole of the access
 * reviews. Applied for a user in place of the ServiceAccount, they let the sample, scoped
 * to that namespace and guarding its metrics, elect its leader, reconcile a bucket, write
 * its ConfigMap, status and Events, and release its Lease without a single
 * {@code Forbidden}, nor a rule its start-up self-check finds denied.
 */
@WithControlPlane
class ChartRbacIntegrationTests {

	private static final String USER = "user2";

	private static final Duration WAIT = Duration.ofSeconds(60);

	private final List<OperatorProcess> processes = new ArrayList<>();

	private final List<JsonObject> clusterScoped = new ArrayList<>();

	private ServerSideApply apply;

	@AfterEach
	void cleanUp() throws Exception {
		for (OperatorProcess process : this.processes) {
			process.close();
		}
		for (JsonObject object : this.clusterScoped) {
			this.apply.delete(object);
		}
	}

	@Test
	void theChartsRolesForOneNamespaceAreAllTheSampleNeeds(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient admin = controlPlane.adminClient();
		this.apply = new ServerSideApply(admin, "chart-rbac-test");
		StorageBuckets.installCrd(admin);
		String rendered = Helm.installed()
			.template(Manifests.DEPLOY.resolve("chart"), "sample-operator", namespace.name(),
					Map.of("watchNamespaces", "{" + namespace.name() + "}", "leaderElection.enabled", "true",
							// watching one namespace, the writes granted namespace by
							// namespace are
							// bound there
							"grantedNamespaces", "{}"));
		List<String> kinds = new ArrayList<>();
		for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(new StringReader(rendered))) {
			if (!(document instanceof Map<?, ?> map) || !isRbac(String.valueOf(map.get("kind")))) {
				continue;
			}
			JsonObject object = new Gson().toJsonTree(document).getAsJsonObject();
			String kind = object.get("kind").getAsString();
			kinds.add(kind + " " + object.getAsJsonObject("metadata").get("name").getAsString());
			if (kind.equals("ServiceAccount")) {
				continue; // the user stands in for it
			}
			if (kind.endsWith("Binding")) {
				object.add("subjects", userSubject());
			}
			ServerSideApply.Answer answer = this.apply.apply(object, false);
			assertThat(answer.isSuccess()).as(answer.body()).isTrue();
			if (!object.getAsJsonObject("metadata").has("namespace")) {
				this.clusterScoped.add(object);
			}
		}
		// the operator's rules in the watched namespace, the Lease's in the release's;
		// cluster-wide only
		// the metrics' reviews (the operator's) and the scraper's get on the path
		String clusterName = "sample-operator-" + namespace.name();
		assertThat(kinds).contains("Role " + clusterName, "Role sample-operator-leader-election")
			.filteredOn((kind) -> kind.startsWith("ClusterRoleBinding"))
			.containsExactlyInAnyOrder("ClusterRoleBinding " + clusterName + "-metrics-auth",
					"ClusterRoleBinding " + clusterName + "-metrics-reader");
		StorageBuckets buckets = new StorageBuckets(admin, namespace.name());
		try (BucketEndpoint endpoint = BucketEndpoint.start()) {
			buckets.create("photos", endpoint.url());
			String[] replica = SampleArguments.replica(namespace, "replica-a");
			String[] arguments = Arrays.copyOf(replica, replica.length + 1);
			// as the chart runs it (OPERATOR_METRICS_AUTH_ENABLED): the self-check asks
			// for the reviews
			arguments[replica.length] = "--operator.metrics.auth.enabled=true";
			OperatorProcess operator = OperatorProcess.start(controlPlane.kubeconfigFor(USER), arguments);
			this.processes.add(operator);
			await().atMost(WAIT).until(() -> buckets.availableStatus("photos").equals("True"));
			await().atMost(WAIT).until(() -> buckets.eventCount("photos", "Normal", "EndpointReachable") == 1);
			await().atMost(WAIT).until(() -> buckets.connection("photos").isPresent());
			buckets.delete("photos");
			await().atMost(WAIT).until(() -> !buckets.exists("photos"));
			operator.terminate();
			assertThat(operator.waitForExit(WAIT.toSeconds())).isEqualTo(143);
			assertThat(operator.logged("Released leader lease")).isTrue();
			assertThat(operator.output()).noneMatch((line) -> line.contains("Forbidden") || line.contains(" ERROR ")
					|| line.contains("RBAC denies") || line.contains("Cannot check RBAC"));
		}
	}

	private static boolean isRbac(String kind) {
		return List.of("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding").contains(kind);
	}

	private static JsonArray userSubject() {
		JsonObject subject = new JsonObject();
		subject.addProperty("kind", "User");
		subject.addProperty("name", USER);
		subject.addProperty("apiGroup", "rbac.authorization.k8s.io");
		JsonArray subjects = new JsonArray();
		subjects.add(subject);
		return subjects;
	}

}
