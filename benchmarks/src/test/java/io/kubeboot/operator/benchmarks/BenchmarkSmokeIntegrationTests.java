package io.kubeboot.operator.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubeboot.operator.benchmarks.harness.Benchmark;
import io.kubeboot.operator.benchmarks.harness.BenchmarkConfig;
import io.kubeboot.operator.benchmarks.harness.Implementation;
import io.kubeboot.operator.benchmarks.harness.Metric;
import io.kubeboot.operator.benchmarks.harness.Results;
import io.kubeboot.operator.benchmarks.writes.WritePath;
import io.kubeboot.operator.test.ControlPlane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every scenario of the benchmark once at N = 100 for every implementation, JOSDK on
 * its own class path included (memory at 100 and 200 objects, failover with 3s/2s/0.5s
 * leases, the microbenchmarks called once without JMH), so that the benchmark cannot rot.
 * Asserts only that each scenario finished and produced numbers, never how fast. The
 * operator processes run on the build's JDK: {@code spring-aot} with Spring AOT and a CDS
 * archive ({@link AotBenchmarkSmokeIntegrationTests} runs it with JDK 25's AOT cache).
 * The API server's audit log counts each implementation's requests.
 */
class BenchmarkSmokeIntegrationTests {

	@Test
	@Timeout(600)
	void everyScenarioProducesNumbers() throws Exception {
		Path directory = Path.of("target", "benchmark-smoke").toAbsolutePath();
		BenchmarkConfig config = BenchmarkConfig.smoke(directory);
		Results results;
		try (ControlPlane controlPlane = Benchmark.startControlPlane(config.workDir())) {
			results = new Benchmark(config, controlPlane).run();
		}
		List<Implementation> all = List.of(Implementation.values());
		Map<Implementation, String> skipped = results.skipped();
		String report = Files.readString(directory.resolve("results.md"));
		assertThat(skipped).isEmpty();
		assertThat(report).contains("| ours (Spring Boot starter) | ours (Spring Boot starter, the image's recipe",
				"spring-aot/spring",
				"| class-data archive of spring-aot | one training run " + "(-Dspring.aot.enabled=true -XX:"
						+ ((Runtime.version().feature() < 25) ? "ArchiveClassesAtExit" : "AOTCacheOutput"),
				"## API requests of a cold drain of 100");
		String training = Files.readString(config.workDir().resolve("spring-aot-training.log"));
		// the training run started from the beans Spring AOT generated at build time
		assertThat(training).contains("Starting AOT-processed SpringOperatorApplication");
		List<Implementation> ran = all.stream()
			.filter((implementation) -> !skipped.containsKey(implementation))
			.toList();
		List<Implementation> operators = ran.stream().filter(Implementation::runsBeyondColdDrain).toList();
		for (Implementation implementation : ran) {
			assertPositive(results, Metric.DRAIN_ALL, 100, implementation);
			assertPositive(results, Metric.DRAIN_FIRST, 100, implementation);
			assertPositive(results, Metric.DRAIN_RECONCILES, 100, implementation);
			assertPositive(results, Metric.DRAIN_FIRST_WRITE, 100, implementation);
			assertPositive(results, Metric.DRAIN_STARTUP_REQUESTS, 100, implementation);
			// at least the list (raw) or the list and the watch (the operators)
			assertThat(results.values(Metric.DRAIN_REQUESTS, 100, implementation))
				.as("requests of %s besides its status writes", implementation.id())
				.singleElement()
				.satisfies(
						(count) -> assertThat(count).isGreaterThanOrEqualTo(implementation.isOperator() ? 2.0 : 1.0));
		}
		for (Implementation implementation : operators) {
			assertPositive(results, Metric.LIVE_CHANGES, 100, implementation);
			assertThat(results.values(Metric.LIVE_P99, 100, implementation)).hasSize(1);
			assertPositive(results, Metric.BURST_DRAIN, 100, implementation);
			assertThat(results.values(Metric.BURST_P99, 100, implementation)).hasSize(1);
			assertPositive(results, Metric.MEMORY_HEAP, 100, implementation);
			assertPositive(results, Metric.MEMORY_HEAP, 200, implementation);
			assertThat(results.values(Metric.MEMORY_SLOPE, 200, implementation)).hasSize(1);
		}
		assertThat(all).contains(Implementation.JOSDK);
		for (Implementation implementation : all.stream().filter(Implementation::isLeaderElectionMeasured).toList()) {
			assertPositive(results, Metric.FAILOVER_KILL, config.failoverObjects(), implementation);
			assertPositive(results, Metric.FAILOVER_GRACEFUL, config.failoverObjects(), implementation);
		}
		// the streamed list scenario: both variants synced their caches
		for (String variant : List.of("streamed", "paged")) {
			assertThat(report).containsPattern("\\| ours, " + variant
					+ " list \\| [0-9.]+ \\(\\d+\\) \\| [0-9.]+ \\(\\d+\\) \\| [0-9.]+ \\(\\d+\\) \\|");
		}
		// the status writes scenario: every path wrote, over the protocol it names
		for (WritePath path : WritePath.values()) {
			String protocol = (path == WritePath.CLIENT_HTTP1) ? "http/1.1" : "h2";
			assertThat(report).containsPattern(Pattern.quote("| " + path.label() + " | " + protocol + " | ")
					+ "[0-9]+ \\(1; [0-9]+–[0-9]+\\) \\| [0-9]+ \\(1; [0-9]+–[0-9]+\\) \\| [0-9.]+ \\(1; [0-9.]+–[0-9.]+\\) "
					+ "\\| [0-9.]+x \\|");
		}
		// the sharded scenario: 3 replicas in the label-based mode share the 100 widgets
		Matcher threeReplicas = Pattern
			.compile("\\| 3 \\| [0-9.]+ \\| -?[0-9.]+ \\| [0-9.]+ \\| [0-9.]+ \\| (\\d+) / (\\d+) / (\\d+) \\|")
			.matcher(report);
		assertThat(report).contains("## Sharded: label-based sharding with 1 and 3 replicas")
			.containsPattern("\\| 3 \\| -?[0-9.]+ smallest, -?[0-9.]+ mean, -?[0-9.]+ largest \\|");
		assertThat(threeReplicas.find()).as("a drain by 3 replicas in %s", report).isTrue();
		assertThat(Integer.parseInt(threeReplicas.group(1)) + Integer.parseInt(threeReplicas.group(2))
				+ Integer.parseInt(threeReplicas.group(3)))
			.isEqualTo(100);
		assertThat(results.microbenchmarks()).hasSize(3);
		assertThat(directory.resolve("results.md")).isRegularFile();
		assertThat(Files.size(directory.resolve("drain.png"))).isPositive();
	}

	private static void assertPositive(Results results, Metric metric, int size, Implementation implementation) {
		assertThat(results.values(metric, size, implementation))
			.as("%s at N=%d of %s", metric.name(), size, implementation.id())
			.hasSize(1)
			.allSatisfy((value) -> assertThat(value).isPositive());
	}

}
