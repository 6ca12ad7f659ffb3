package io.kubeboot.operator.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.kubeboot.operator.benchmarks.harness.Benchmark;
import io.kubeboot.operator.benchmarks.harness.BenchmarkConfig;
import io.kubeboot.operator.benchmarks.harness.Implementation;
import io.kubeboot.operator.benchmarks.harness.Metric;
import io.kubeboot.operator.benchmarks.harness.Results;
import io.kubeboot.operator.test.ControlPlane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The cold drain at N = 100 with every implementation's process on a JDK 25 (the
 * benchmark's {@code benchmark.javaHome}), JOSDK on its own class path included, and
 * {@code spring-aot}: one training run writes JDK 25's AOT cache without a cluster, and
 * its run starts with Spring AOT and {@code -XX:AOTMode=on}, which fails rather than
 * start without a usable cache. Skipped when neither this JVM nor one under
 * {@code /usr/lib/jvm} is JDK 25 or later. Asserts that every implementation produced
 * numbers and the report has the column, never how fast.
 */
class AotBenchmarkSmokeIntegrationTests {

	@Test
	@Timeout(420)
	void everyImplementationDrainsOnJdk25AndSpringAotStartsWithItsCache() throws Exception {
		Optional<Path> jdk = jdk(25);
		assumeTrue(jdk.isPresent(), "No JDK 25 or later in java.home or /usr/lib/jvm: the AOT cache needs one");
		Path directory = Path.of("target", "benchmark-smoke-jdk25").toAbsolutePath();
		BenchmarkConfig config = BenchmarkConfig.smoke(directory)
			.withJavaHome(jdk.get())
			.with(new LinkedHashSet<>(List.of("drain")), List.of(Implementation.values()));
		Results results;
		try (ControlPlane controlPlane = ControlPlane.start()) {
			results = new Benchmark(config, controlPlane).run();
		}
		assertThat(results.skipped()).isEmpty();
		for (Implementation implementation : Implementation.values()) {
			assertThat(results.values(Metric.DRAIN_FIRST, 100, implementation))
				.as("process start → first reconcile of %s on %s", implementation.id(), jdk.get())
				.hasSize(1)
				.allSatisfy((value) -> assertThat(value).isPositive());
			assertThat(results.values(Metric.DRAIN_ALL, 100, implementation)).hasSize(1);
		}
		String report = Files.readString(directory.resolve("results.md"), StandardCharsets.UTF_8);
		assertThat(report).contains(
				"| ours (Spring Boot starter) | ours (Spring Boot starter, the image's recipe: Spring AOT + CDS or AOT cache) |",
				"spring-aot/spring", "| JDK of the operator processes | ", jdk.get() + " (-Dbenchmark.javaHome)",
				"| class-data archive of spring-aot | one training run", "| operator class path | jar files only");
		String training = Files.readString(directory.resolve("work").resolve("spring-aot-training.log"),
				StandardCharsets.UTF_8);
		assertThat(training).contains("AOTCache creation is complete");
	}

	/**
	 * A JDK home of at least a feature release: this JVM's, else one under
	 * {@code /usr/lib/jvm}, as Debian's and Temurin's packages install them.
	 */
	static Optional<Path> jdk(int feature) throws IOException {
		if (Runtime.version().feature() >= feature) {
			return Optional.of(Path.of(System.getProperty("java.home")));
		}
		Path jvms = Path.of("/usr/lib/jvm");
		if (!Files.isDirectory(jvms)) {
			return Optional.empty();
		}
		try (Stream<Path> homes = Files.list(jvms)) {
			for (Path home : homes.sorted().toList()) {
				Path release = home.resolve("release");
				if (Files.isRegularFile(release) && Files.isExecutable(home.resolve("bin").resolve("java"))
						&& feature(release) >= feature) {
					return Optional.of(home);
				}
			}
		}
		return Optional.empty();
	}

	private static int feature(Path release) throws IOException {
		for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
			if (line.startsWith("JAVA_VERSION=")) {
				try {
					return Runtime.Version.parse(line.substring("JAVA_VERSION=".length()).replace("\"", "")).feature();
				}
				catch (IllegalArgumentException ex) {
					return 0;
				}
			}
		}
		return 0;
	}

}
