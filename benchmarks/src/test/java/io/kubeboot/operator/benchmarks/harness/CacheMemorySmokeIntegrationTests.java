package io.kubeboot.operator.benchmarks.harness;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.test.ControlPlane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the cache memory scenario once at 100 and 200 widgets, so that it cannot rot.
 * Asserts only that every variant produced a number and the report has its section, never
 * how much memory anything took.
 */
class CacheMemorySmokeIntegrationTests {

	@Test
	@Timeout(300)
	void everyVariantProducesAHeapPerCachedObject() throws Exception {
		Path directory = Path.of("target", "cache-memory-smoke").toAbsolutePath();
		BenchmarkConfig config = BenchmarkConfig.smoke(directory);
		Results results = new Results();
		Map<CacheMemory.Variant, List<Double>> perObject;
		try (ControlPlane controlPlane = ControlPlane.start()) {
			Cluster cluster = new Cluster(controlPlane);
			cluster.installCrd();
			perObject = new CacheMemory(config, cluster, results, ChildJdk.harness()).run();
		}
		assertThat(perObject).containsOnlyKeys(CacheMemory.Variant.values());
		assertThat(perObject.values()).allSatisfy((values) -> assertThat(values).hasSize(1));
		assertThat(results.sections()).singleElement()
			.asString()
			.startsWith("## Heap per cached object\n")
			.contains("| ours, widgets cached as metadata only |");
	}

}
