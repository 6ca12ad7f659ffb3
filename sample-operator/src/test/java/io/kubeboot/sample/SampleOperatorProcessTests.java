package io.kubeboot.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample operator as a user runs it: its own JVM, configured only through
 * {@code KUBECONFIG}, stopped with SIGTERM.
 */
@WithControlPlane
class SampleOperatorProcessTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private Process process;

	@AfterEach
	void killProcess() throws IOException {
		if (this.process != null) {
			this.process.destroyForcibly();
		}
		if (this.log != null) {
			Files.deleteIfExists(this.log);
		}
	}

	@Test
	void reconcilesEveryConfigMapFromKubeconfigAndStopsGracefullyOnSigterm(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("before")).data(Map.of("a", "1")))
			.execute();
		List<String> output = start(controlPlane.kubeconfig(), "--operator.namespace=" + namespace);
		await().atMost(WAIT)
			.until(() -> contains(output, "Reconciled ConfigMap: configMap=" + namespace + "/before keys=1"));
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("after")).data(Map.of("a", "1", "b", "2")))
			.execute();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> contains(output, "Reconciled ConfigMap: configMap=" + namespace + "/after keys=2"));
		this.process.destroy(); // SIGTERM
		assertThat(this.process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> contains(output, "Manager stopped"));
		assertThat(output).noneMatch((line) -> line.contains("Exception") || line.contains(" ERROR "));
	}

	private Path log;

	private List<String> start(Path kubeconfig, String... args) throws Exception {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
						System.getProperty("java.class.path"), SampleOperatorApplication.class.getName()));
		command.addAll(List.of(args));
		this.log = Files.createTempFile("sample-operator", ".log");
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(this.log.toFile());
		builder.environment().put("KUBECONFIG", kubeconfig.toString());
		builder.environment().remove("KUBERNETES_SERVICE_HOST");
		this.process = builder.start();
		return new OutputLines(this.log);
	}

	/** The process's output so far, read again on every access. */
	private static final class OutputLines extends java.util.AbstractList<String> {

		private final Path file;

		OutputLines(Path file) {
			this.file = file;
		}

		private List<String> lines() {
			try {
				return Files.readAllLines(this.file, StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		@Override
		public String get(int index) {
			return lines().get(index);
		}

		@Override
		public int size() {
			return lines().size();
		}

		@Override
		public java.util.stream.Stream<String> stream() {
			return lines().stream();
		}

	}

	private static boolean contains(List<String> output, String text) {
		return output.stream().anyMatch((line) -> line.contains(text));
	}

}
