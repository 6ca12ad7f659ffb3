package ${package};

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

import static org.assertj.core.api.Assertions.fail;

/**
 * {@code deploy/rbac.yaml} is what the operator's code needs, no more and no less: the
 * application is built as {@code deploy/deployment.yaml} runs it (all namespaces, its
 * Lease in the namespace {@code ${artifactId}}), its manager is asked for the permissions
 * its reconcilers (with their {@code @RbacRule}s), Lease and Events need, and the rules
 * rendered from them must equal the file. Nothing talks to a cluster: the manager is
 * built, not started.
 * <p>
 * The rendered file is written to {@code target/rbac.yaml}. After changing what a
 * reconciler watches or writes, copy it: {@code cp target/rbac.yaml deploy/rbac.yaml}, or
 * run {@code mvn test -Drbac.update=true}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "operator.auto-startup=false", "operator.leader-election.namespace=${artifactId}" })
class GeneratedRbacTests {

	static final Path RENDERED = Path.of("target", "rbac.yaml");

	static final Path CHECKED_IN = Path.of("deploy", "rbac.yaml");

	private static final String[] HEADER = {
			"What the operator may do, and nothing more: generated from its code (what its reconcilers cache",
			"and declare with @RbacRule, its finalizer, Lease and Events) by GeneratedRbacTests, which fails",
			"the build when this file differs. After changing a reconciler, run mvn test and copy",
			"target/rbac.yaml here, or run mvn test -Drbac.update=true.", "",
			"It watches all namespaces (operator.namespace is unset in application.yaml), so its access to",
			"the kinds it caches is cluster-wide. To run it in one namespace only, set OPERATOR_NAMESPACE in",
			"deployment.yaml and turn the ClusterRoleBinding into a RoleBinding of the same ClusterRole in",
			"that namespace.", "",
			"Not listed because every authenticated user has it already: API discovery and",
			"selfsubjectaccessreviews, with which the operator checks these rules at start-up." };

	@Autowired
	private Manager manager;

	@Test
	void deployHoldsWhatTheCodeNeeds() throws IOException {
		String rendered = RbacManifest.builder("${artifactId}")
			.header(HEADER)
			.serviceAccount("${artifactId}", "${artifactId}")
			.render(PolicyRules.of(this.manager.requiredPermissions()));
		Files.createDirectories(RENDERED.getParent());
		Files.writeString(RENDERED, rendered, StandardCharsets.UTF_8);
		if (Boolean.getBoolean("rbac.update")) {
			Files.writeString(CHECKED_IN, rendered, StandardCharsets.UTF_8);
		}
		String checkedIn = Files.readString(CHECKED_IN, StandardCharsets.UTF_8);
		if (!checkedIn.equals(rendered)) {
			fail("%s differs from what the code needs (- %s, + %s):%n%s%n"
					+ "Copy it: cp %s %s, or run mvn test -Drbac.update=true", CHECKED_IN, CHECKED_IN, RENDERED,
					LineDiff.of(checkedIn.lines().toList(), rendered.lines().toList()), RENDERED, CHECKED_IN);
		}
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class NoCluster {

		/**
		 * A client the manager is built with and never uses: it is not started.
		 */
		@Bean
		ApiClient apiClient() {
			return new ApiClient().setBasePath("https://127.0.0.1:1");
		}

	}

}
