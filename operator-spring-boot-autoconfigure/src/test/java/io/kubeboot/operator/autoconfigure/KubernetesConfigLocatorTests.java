package io.kubeboot.operator.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.webhook.ServingCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Where the auto-configured client's configuration comes from, with the environment and
 * the directories of a test: client-java's order, the origin recorded, and no fallback to
 * {@code http://localhost:8080}.
 */
@ExtendWith(OutputCaptureExtension.class)
class KubernetesConfigLocatorTests {

	@TempDir
	Path home;

	@TempDir
	Path elsewhere;

	private final Map<String, String> environment = new HashMap<>();

	@Test
	void kubeconfigVariableComesFirstAndIsNamedWithItsContext() throws IOException {
		Path file = kubeconfig(this.elsewhere.resolve("kind.yaml"), "https://127.0.0.1:6443", "kind-dev");
		kubeconfig(this.home.resolve(".kube/config"), "https://10.0.0.1:443", "home");
		this.environment.put("KUBECONFIG", file.toString());
		this.environment.put("HOME", this.home.toString());
		KubernetesClientSource source = locator().locate();
		assertThat(source.client().getBasePath()).isEqualTo("https://127.0.0.1:6443");
		assertThat(source.describe()).isEqualTo("KUBECONFIG=" + file + ", context kind-dev");
	}

	@Test
	void homeConfigIsNextAndIsNamedWithItsPath() throws IOException {
		Path file = kubeconfig(this.home.resolve(".kube/config"), "https://10.0.0.1:443", "home");
		this.environment.put("HOME", this.home.toString());
		KubernetesClientSource source = locator().locate();
		assertThat(source.client().getBasePath()).isEqualTo("https://10.0.0.1:443");
		assertThat(source.describe()).isEqualTo("~/.kube/config (" + file + "), context home");
	}

	@Test
	void userHomeStandsInForAnUnsetHome() throws IOException {
		kubeconfig(this.home.resolve(".kube/config"), "https://10.0.0.1:443", "home");
		KubernetesClientSource source = new KubernetesConfigLocator(this.environment::get, this.home.toString(),
				this.elsewhere)
			.locate();
		assertThat(source.client().getBasePath()).isEqualTo("https://10.0.0.1:443");
	}

	@Test
	void kubeconfigNamingAMissingFileFallsThroughToTheHomeConfigWithAWarning(CapturedOutput output) throws IOException {
		kubeconfig(this.home.resolve(".kube/config"), "https://10.0.0.1:443", "home");
		this.environment.put("KUBECONFIG", this.elsewhere.resolve("typo.yaml").toString());
		this.environment.put("HOME", this.home.toString());
		assertThat(locator().locate().client().getBasePath()).isEqualTo("https://10.0.0.1:443");
		assertThat(output).contains("KUBECONFIG names a file that does not exist, using the next place: KUBECONFIG="
				+ this.elsewhere.resolve("typo.yaml") + " source=\"~/.kube/config (");
	}

	@Test
	void inClusterServiceAccountIsLast() throws IOException {
		this.environment.put("HOME", this.home.toString());
		this.environment.put("KUBERNETES_SERVICE_HOST", "10.96.0.1");
		this.environment.put("KUBERNETES_SERVICE_PORT", "443");
		Files.writeString(this.elsewhere.resolve("token"), "a-token");
		try (ServingCertificate certificate = ServingCertificate.selfSigned(List.of("10.96.0.1"))) {
			Files.writeString(this.elsewhere.resolve("ca.crt"), certificate.caBundlePem().orElseThrow());
		}
		KubernetesClientSource source = locator().locate();
		assertThat(source.client().getBasePath()).isEqualTo("https://10.96.0.1:443");
		assertThat(source.describe())
			.isEqualTo("in-cluster (KUBERNETES_SERVICE_HOST=10.96.0.1, KUBERNETES_SERVICE_PORT=443)");
	}

	@Test
	void noConfigurationFailsNamingEveryPlaceItLookedAt() {
		this.environment.put("KUBECONFIG", this.elsewhere.resolve("nowhere").toString());
		this.environment.put("HOME", this.home.toString());
		KubernetesConfigurationException failure = catchThrowableOfType(KubernetesConfigurationException.class,
				locator()::locate);
		assertThat(failure).hasMessage("No Kubernetes configuration found. Looked at:\n" + "    KUBECONFIG: "
				+ this.elsewhere.resolve("nowhere") + " does not exist\n" + "    ~/.kube/config: "
				+ this.home.resolve(".kube/config") + " does not exist\n"
				+ "    in-cluster: not in a pod (KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set)");
		assertThat(failure.action()).startsWith("Point the operator at a cluster: set KUBECONFIG")
			.endsWith("There is no fallback to http://localhost:8080.");
	}

	@Test
	void podWithoutItsTokenFailsSayingWhy() {
		this.environment.put("HOME", this.home.toString());
		this.environment.put("KUBERNETES_SERVICE_HOST", "10.96.0.1");
		this.environment.put("KUBERNETES_SERVICE_PORT", "443");
		assertThat(catchThrowableOfType(KubernetesConfigurationException.class, locator()::locate))
			.hasMessageEndingWith("    KUBECONFIG: not set\n    ~/.kube/config: " + this.home.resolve(".kube/config")
					+ " does not exist\n    in-cluster: KUBERNETES_SERVICE_HOST is set, but "
					+ this.elsewhere.resolve("token") + " does not exist (is automountServiceAccountToken false?)");
	}

	@Test
	void kubeconfigWithoutCurrentContextFailsNamingTheFile() throws IOException {
		Path file = this.elsewhere.resolve("config");
		Files.writeString(file, "apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n");
		this.environment.put("KUBECONFIG", file.toString());
		assertThat(catchThrowableOfType(KubernetesConfigurationException.class, locator()::locate))
			.hasMessage("The kubeconfig KUBECONFIG=" + file + " has no current-context");
	}

	@Test
	void kubeconfigThatIsNoYamlFailsNamingTheFile() throws IOException {
		Path file = Files.writeString(this.elsewhere.resolve("config"), "clusters: [");
		this.environment.put("KUBECONFIG", file.toString());
		assertThat(catchThrowableOfType(KubernetesConfigurationException.class, locator()::locate))
			.hasMessageStartingWith("Cannot read the kubeconfig KUBECONFIG=" + file + ": ");
	}

	@Test
	void kubeconfigNamingSeveralFilesReadsTheFirstWithAWarning(CapturedOutput output) throws IOException {
		Path first = kubeconfig(this.elsewhere.resolve("first.yaml"), "https://127.0.0.1:6443", "first");
		Path second = kubeconfig(this.home.resolve("second.yaml"), "https://10.0.0.1:443", "second");
		String variable = first + File.pathSeparator + second;
		this.environment.put("KUBECONFIG", variable);
		assertThat(locator().locate().describe()).isEqualTo("KUBECONFIG=" + first + ", context first");
		assertThat(output).contains(
				"KUBECONFIG names several files; only the first is read: KUBECONFIG=" + variable + " file=" + first);
	}

	private KubernetesConfigLocator locator() {
		return new KubernetesConfigLocator(this.environment::get, null, this.elsewhere);
	}

	static Path kubeconfig(Path file, String server, String context) throws IOException {
		Files.createDirectories(file.getParent());
		return Files.writeString(file, """
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
				    token: a-token
				""".formatted(server, context, context));
	}

}
