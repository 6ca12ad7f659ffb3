package io.kubeboot.operator.benchmarks.index;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the cache index benchmark's two mappings find the same ConfigMaps for every
 * Secret, in one smoke pass against its scripted API server: the benchmark cannot rot,
 * and its timings are never checked.
 */
class IndexBenchmarkTests {

	@Test
	void theScanAndTheIndexMapEverySecretToTheSameConfigMaps() throws Exception {
		List<String> rows = IndexBenchmarkMain.smoke(1_000, 100);
		assertThat(rows).hasSize(5);
		assertThat(rows.get(2)).startsWith("| scan: `cache.list(...)` filtered | ").endsWith(" | 1,000 |");
		assertThat(rows.get(3)).startsWith("| index: `MapFunctions.byIndex` | ").endsWith(" | 10 |");
	}

}
