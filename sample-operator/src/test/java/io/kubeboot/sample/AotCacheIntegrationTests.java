package io.kubeboot.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The fast start of {@code docs/guides/deploying.md}, step by step on the packaged
 * sample: the jar extracted, a training run that writes JDK 25's AOT cache where an image
 * is built (no cluster, no kubeconfig, no webhook certificate), then the operator started
 * with the cache, which {@code -XX:AOTMode=on} makes the JVM refuse to start without.
 */
@WithControlPlane
class AotCacheIntegrationTests {

	private static final Duration RUN = Duration.ofMinutes(3);

	@Test
	void aTrainingRunNeedsNoClusterAndTheOperatorStartsWithItsCache(ControlPlane controlPlane, TestNamespace namespace,
			@TempDir Path directory) throws Exception {
		Optional<Path> java = Jdk.atLeast(25);
		assumeTrue(java.isPresent(), "No JDK 25 or later in java.home or /usr/lib/jvm: the AOT cache needs one");
		Path application = directory.resolve("application");
		Path jar = packagedJar();
		assertThat(run(directory, java.get().toString(), "-Djarmode=tools", "-jar", jar.toAbsolutePath().toString(),
				"extract", "--destination", application.toString()))
			.isZero();
		Path home = Files.createDirectories(directory.resolve("home"));
		Path trainingLog = directory.resolve("training.log");
		ProcessBuilder training = new ProcessBuilder(java.get().toString(), "-XX:AOTCacheOutput=app.aot",
				"-Dspring.context.exit=onRefresh", "-jar", jar.getFileName().toString())
			.directory(application.toFile())
			.redirectErrorStream(true)
			.redirectOutput(trainingLog.toFile());
		// where an image is built: no kubeconfig, not in a pod, no certificate mounted
		training.environment().remove("KUBECONFIG");
		training.environment().remove("KUBERNETES_SERVICE_HOST");
		training.environment().put("HOME", home.toString());
		int exit = waitFor(training.start());
		String output = Files.readString(trainingLog, StandardCharsets.UTF_8);
		assertThat(exit).as(output).isZero();
		assertThat(output).contains(
				"Kubernetes client configured: server=https://kubernetes.training-run.invalid "
						+ "source=\"none, a training run (spring.context.exit=onRefresh) that never connects\"",
				"Training run (spring.context.exit=onRefresh): the webhook certificate files are not mounted");
		assertThat(application.resolve("app.aot")).isRegularFile();

		StorageBuckets.installCrd(controlPlane.adminClient());
		StorageBuckets buckets = new StorageBuckets(controlPlane.adminClient(), namespace.name());
		List<String> launcher = List.of(java.get().toString(), "-XX:AOTMode=on", "-XX:AOTCache=app.aot", "-jar",
				jar.getFileName().toString());
		try (BucketEndpoint endpoint = BucketEndpoint.start();
				OperatorProcess operator = OperatorProcess.start(launcher, application, controlPlane.kubeconfig(),
						SampleArguments.replica(namespace, "with-aot-cache"))) {
			buckets.create("photos", endpoint.url());
			await().atMost(RUN).until(() -> buckets.availableStatus("photos").equals("True"));
			assertThat(operator.output()).noneMatch((line) -> line.contains(" ERROR "));
			operator.output()
				.stream()
				.filter((line) -> line.contains("Started SampleOperatorApplication"))
				.forEach((line) -> System.out.println("with the AOT cache: " + line));
		}
	}

	/**
	 * The sample that {@code mvn package} left in {@code target/}, before the integration
	 * tests.
	 */
	static Path packagedJar() throws IOException {
		try (Stream<Path> files = Files.list(Path.of("target"))) {
			List<Path> jars = files.filter((file) -> file.getFileName().toString().matches("sample-operator-.*\\.jar"))
				.toList();
			assertThat(jars).as("the packaged sample in target/ (mvn package runs before the integration tests)")
				.hasSize(1);
			return jars.get(0);
		}
	}

	private static int run(Path directory, String... command) throws Exception {
		Path log = Files.createTempFile(directory, "command", ".log");
		Process process = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		int exit = waitFor(process);
		if (exit != 0) {
			System.out.println(Files.readString(log, StandardCharsets.UTF_8));
		}
		return exit;
	}

	private static int waitFor(Process process) throws InterruptedException {
		if (!process.waitFor(RUN.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new IllegalStateException("Did not exit within " + RUN + ": " + process.info().commandLine());
		}
		return process.exitValue();
	}

	/**
	 * Finds a JDK of at least a feature release: this JVM's, else one under
	 * {@code /usr/lib/jvm}, as Debian and Temurin's packages install them.
	 */
	static final class Jdk {

		private Jdk() {
		}

		static Optional<Path> atLeast(int feature) throws IOException {
			if (Runtime.version().feature() >= feature) {
				return Optional.of(Path.of(System.getProperty("java.home"), "bin", "java"));
			}
			Path jvms = Path.of("/usr/lib/jvm");
			if (!Files.isDirectory(jvms)) {
				return Optional.empty();
			}
			List<Path> found = new ArrayList<>();
			try (Stream<Path> homes = Files.list(jvms)) {
				for (Path home : homes.sorted().toList()) {
					Path release = home.resolve("release");
					Path java = home.resolve("bin").resolve("java");
					if (Files.isRegularFile(release) && Files.isExecutable(java) && feature(release) >= feature) {
						found.add(java);
					}
				}
			}
			return found.stream().findFirst();
		}

		private static int feature(Path release) throws IOException {
			for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
				if (line.startsWith("JAVA_VERSION=")) {
					String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
					try {
						return Runtime.Version.parse(version).feature();
					}
					catch (IllegalArgumentException ex) {
						return 0;
					}
				}
			}
			return 0;
		}

	}

}
