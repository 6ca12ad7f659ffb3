package io.kubeboot.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.rbac.PolicyRules;
import io.kubeboot.operator.rbac.RbacManifest;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code deploy/rbac.yaml} is what the sample's code needs, no more and no less: the
 * application is built as {@code deployment.yaml} runs it (all namespaces, leader
 * election with its Lease in {@code sample-operator}, Events on, the metrics endpoint
 * secured, the Pod logger off), its manager is asked for the permissions its reconcilers,
 * Lease, Events and the metrics endpoint's access reviews need, and the rules rendered
 * from them must equal the file. Nothing talks to a cluster: the manager is built but not
 * started. The ConfigMap writes, granted per namespace, come out as the ClusterRole
 * {@code sample-operator-bucket-connections} without a binding:
 * {@code deploy/bucket-namespace.yaml}, written by hand, binds it in a namespace, and
 * {@code DeployManifestTests} checks that it binds that ClusterRole and nothing else.
 * <p>
 * The rendered file is written to {@code target/rbac.yaml}. After changing what a
 * reconciler watches or writes, refresh the checked-in copy with
 * {@code cp target/rbac.yaml deploy/rbac.yaml}, or run this test with
 * {@code -Drbac.update=true}, which writes it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "operator.auto-startup=false", "operator.leader-election.namespace=sample-operator",
				"operator.webhook.self-signed=true", "operator.metrics.auth.enabled=true" })
class GeneratedRbacTests {

	static final Path RENDERED = Path.of("target", "rbac.yaml");

	static final Path CHECKED_IN = Manifests.DEPLOY.resolve("rbac.yaml");

	private static final String[] HEADER = {
			"What the sample operator may do, and nothing more. Generated from its code "
					+ "(what its reconcilers cache and declare, its finalizer, Lease and Events, and the reviews with "
					+ "which its metrics endpoint asks who calls) by GeneratedRbacTests, with "
					+ "the settings of deployment.yaml; the build fails when this file differs. After changing a "
					+ "reconciler, run mvn test and copy target/rbac.yaml here, or run GeneratedRbacTests with "
					+ "-Drbac.update=true.",
			"",
			"It watches all namespaces (operator.namespace is unset in application.yaml), so the ClusterRole "
					+ "sample-operator, bound cluster-wide, lets it read what it caches (StorageBuckets and the "
					+ "ConfigMaps labelled as its own: RBAC cannot select by label), patch StorageBuckets and their "
					+ "status, and record Events. It writes ConfigMaps only where it is granted namespace by "
					+ "namespace: the ClusterRole sample-operator-bucket-connections is not bound here, "
					+ "bucket-namespace.yaml binds it in one namespace that holds StorageBuckets. README.md says what "
					+ "stays cluster-wide and why.",
			"",
			"To run it in one namespace only, set OPERATOR_NAMESPACE in deployment.yaml, turn the "
					+ "ClusterRoleBinding into a RoleBinding of the same ClusterRole in that namespace and apply "
					+ "bucket-namespace.yaml there.",
			"",
			"Not listed because every authenticated user has it already: API discovery, which tells the operator "
					+ "the StorageBucket resource's name and scope, and selfsubjectaccessreviews, with which the "
					+ "operator checks these rules at start-up. PodLogger, the demo controller, is off "
					+ "(sample.pod-logger.enabled=false): turned on, it needs list and watch of pods." };

	@Autowired
	private Manager manager;

	@Test
	void deployRbacIsWhatTheCodeNeeds() throws IOException {
		String rendered = RbacManifest.builder("sample-operator")
			.header(wrapped(HEADER))
			.serviceAccount("sample-operator", "sample-operator")
			.render(PolicyRules.of(this.manager.requiredPermissions()));
		Files.createDirectories(RENDERED.getParent());
		Files.writeString(RENDERED, rendered, StandardCharsets.UTF_8);
		if (Boolean.getBoolean("rbac.update")) {
			Files.writeString(CHECKED_IN, rendered, StandardCharsets.UTF_8);
		}
		String checkedIn = Files.readString(CHECKED_IN, StandardCharsets.UTF_8);
		assertThat(checkedIn)
			.as("%s differs from what the code needs (%s):%n%s%nRefresh it: cp %s %s (in sample-operator), or run "
					+ "GeneratedRbacTests with -Drbac.update=true", CHECKED_IN, RENDERED, diff(checkedIn, rendered),
					RENDERED, CHECKED_IN)
			.isEqualTo(rendered);
	}

	/**
	 * The header's paragraphs as comment lines of at most 100 characters.
	 */
	private static String[] wrapped(String... paragraphs) {
		List<String> lines = new ArrayList<>();
		for (String paragraph : paragraphs) {
			StringBuilder line = new StringBuilder();
			for (String word : paragraph.split(" ")) {
				if (!line.isEmpty() && line.length() + 1 + word.length() > 98) {
					lines.add(line.toString());
					line.setLength(0);
				}
				line.append(line.isEmpty() ? "" : " ").append(word);
			}
			lines.add(line.toString());
		}
		return lines.toArray(String[]::new);
	}

	/**
	 * The lines only one side has, as a unified diff without context: {@code -} the
	 * checked-in file's, {@code +} the rendered one's.
	 */
	static String diff(String before, String after) {
		String[] a = before.split("\n", -1);
		String[] b = after.split("\n", -1);
		int[][] common = new int[a.length + 1][b.length + 1];
		for (int i = a.length - 1; i >= 0; i--) {
			for (int j = b.length - 1; j >= 0; j--) {
				common[i][j] = a[i].equals(b[j]) ? common[i + 1][j + 1] + 1
						: Math.max(common[i + 1][j], common[i][j + 1]);
			}
		}
		StringBuilder diff = new StringBuilder();
		int i = 0;
		int j = 0;
		while (i < a.length || j < b.length) {
			if (i < a.length && j < b.length && a[i].equals(b[j])) {
				i++;
				j++;
			}
			else if (i < a.length && (j == b.length || common[i + 1][j] >= common[i][j + 1])) {
				diff.append(String.format("-%4d %s%n", i + 1, a[i++]));
			}
			else {
				diff.append(String.format("+%4d %s%n", j + 1, b[j++]));
			}
		}
		return diff.toString();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class NoCluster {

		/** A client the manager is built with and never uses: it is not started. */
		@Bean
		ApiClient apiClient() {
			return new ApiClient().setBasePath("https://127.0.0.1:1");
		}

	}

}
