package io.kubeboot.operator.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Start-up failures as a user meets them: the operator in a JVM of its own, with the
 * environment of the case, ends in Spring Boot's {@code APPLICATION FAILED TO START}
 * report with a description and an action, without a stack trace or an unrelated error
 * before it.
 */
@WithControlPlane
class StartupFailureIntegrationTests {

	private static final String REPORT = """
			***************************
			APPLICATION FAILED TO START
			***************************

			Description:

			""";

	@TempDir
	Path home;

	@Test
	void withoutAnyConfigurationStartupFailsSayingWhereItLookedInsteadOfAskingLocalhost() throws Exception {
		Path missing = this.home.resolve("nowhere").resolve("config");
		Result result = run(Map.of("KUBECONFIG", missing.toString()));
		assertThat(result.exitCode()).isNotZero();
		assertThat(result.output()).contains(REPORT + "No Kubernetes configuration found. Looked at:\n"
				+ "    KUBECONFIG: " + missing + " does not exist\n" + "    ~/.kube/config: "
				+ this.home.resolve(".kube").resolve("config") + " does not exist\n"
				+ "    in-cluster: not in a pod (KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set)\n"
				+ "\nAction:\n\nPoint the operator at a cluster: set KUBECONFIG");
		assertThat(result.output()).doesNotContain("Failed to connect to localhost")
			.doesNotContain("API discovery failed");
		assertNoNoise(result);
	}

	@Test
	void unreachableApiServerFailsNamingItsUrlAndWhereItCameFrom() throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			closedPort = socket.getLocalPort();
		}
		String server = "https://127.0.0.1:" + closedPort;
		Path kubeconfig = kubeconfig("unreachable.yaml", server, "gone-admin");
		Result result = run(Map.of("KUBECONFIG", kubeconfig.toString()), "--operator.cache-sync-timeout=3s");
		assertThat(result.exitCode()).isNotZero();
		assertThat(result.output()).contains("Kubernetes client configured: server=" + server + " source=\"KUBECONFIG="
				+ kubeconfig + ", context gone-admin\"");
		assertThat(result.output()).contains(REPORT + "Cannot reach the API server at " + server + " (from KUBECONFIG="
				+ kubeconfig + ", context gone-admin) within PT3S: ConnectException: Connection refused\n"
				+ "\nAction:\n\nCheck that the API server at " + server + " is up");
		assertNoNoise(result);
	}

	@Test
	void apiServerRefusingTheCredentialsFailsNamingItsUrlAndTheAnswer(ControlPlane controlPlane) throws Exception {
		String server = controlPlane.apiServerUrl().toString();
		Path kubeconfig = kubeconfig("wrong-token.yaml", server, "wrong-token");
		Result result = run(Map.of("KUBECONFIG", kubeconfig.toString()), "--operator.cache-sync-timeout=3s");
		assertThat(result.exitCode()).isNotZero();
		assertThat(result.output()).contains(REPORT + "The API server at " + server + " (from KUBECONFIG=" + kubeconfig
				+ ", context wrong-token) answered every discovery request within PT3S with an error, the last: "
				+ "401 Unauthorized: Unauthorized\n\nAction:\n\nCheck that the API server at " + server + " is up");
		assertNoNoise(result);
	}

	@Test
	void leaseThatRbacForbidsFailsNamingTheVerbsAndTheNamespace(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		// user1 may do nothing at all
		Result result = run(Map.of("KUBECONFIG", controlPlane.kubeconfigFor("user1").toString()),
				"--spring.application.name=forbidden", "--operator.namespace=" + namespace,
				"--operator.leader-election.enabled=true", "--operator.leader-election.namespace=" + namespace);
		assertThat(result.exitCode()).isNotZero();
		assertThat(result.output()).contains(REPORT + "Leader election needs to get, create, update leases "
				+ "(coordination.k8s.io) in namespace '" + namespace + "' for its Lease 'forbidden-leader', which "
				+ "RBAC denies to this operator's identity\n\nAction:\n\nGrant the operator's service account get, "
				+ "create and update on leases (API group coordination.k8s.io) in namespace '" + namespace + "'");
		assertNoNoise(result);
	}

	/**
	 * Writes a kubeconfig that trusts any certificate and authenticates with a token the
	 * API server does not know.
	 */
	private Path kubeconfig(String file, String server, String context) throws IOException {
		return Files.writeString(this.home.resolve(file), """
				apiVersion: v1
				kind: Config
				clusters:
				- name: cluster
				  cluster:
				    server: %s
				    insecure-skip-tls-verify: true
				contexts:
				- name: %s
				  context:
				    cluster: cluster
				    user: user
				current-context: %s
				users:
				- name: user
				  user:
				    token: not-a-token-of-this-cluster
				""".formatted(server, context, context));
	}

	private static void assertNoNoise(Result result) {
		assertThat(result.output()).doesNotContain("Error starting Tomcat context")
			.doesNotContain("Application run failed");
		assertThat(result.output().lines().filter((line) -> line.startsWith("\tat "))).isEmpty();
	}

	/**
	 * Runs the application until it exits, in an environment without Kubernetes
	 * configuration other than the one given: no {@code KUBECONFIG}, a home directory
	 * without {@code .kube/config}, no in-cluster variables.
	 */
	private Result run(Map<String, String> environment, String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Duser.home=" + this.home,
						"-cp", System.getProperty("java.class.path"), StartupFailureApplication.class.getName(),
						"--server.port=0", "--server.address=127.0.0.1", "--spring.main.banner-mode=off"));
		command.addAll(List.of(args));
		Path log = this.home.resolve("output.log");
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
		builder.environment().remove("KUBECONFIG");
		builder.environment().remove("KUBERNETES_SERVICE_HOST");
		builder.environment().remove("KUBERNETES_SERVICE_PORT");
		builder.environment().put("HOME", this.home.toString());
		builder.environment().putAll(environment);
		Process process = builder.start();
		try {
			if (!process.waitFor(2, TimeUnit.MINUTES)) {
				throw new AssertionError("The application did not exit within 2 minutes:\n"
						+ Files.readString(log, StandardCharsets.UTF_8));
			}
		}
		finally {
			process.destroyForcibly();
		}
		return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
	}

	private record Result(int exitCode, String output) {
	}

}
