package io.kubeboot.operator.benchmarks.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class CarriedOverTests {

	private static final String PREVIOUS = """
			# Benchmarks

			## Machine and date

			| | |
			|---|---|
			| date | 2026-11-29T15:07:12.601404946Z |

			## Cold drain

			old drain table

			## API requests of a cold drain of 1000

			old requests

			## Failover

			old failover table

			## Streamed and paged lists

			old lists table

			## Targets

			| target | measured (medians) | result |
			|---|---|---|
			| cold drain N=5000, spring ≤ 0.95x baseline | 28080 vs 25566 = 1.10x | **missed by 16%** |
			| failover after a graceful stop with release < 1000 ms, spring | 87 ms | met |

			## Every run

			| scenario | N | metric | implementation | values |
			|---|---|---|---|---|
			| drain | 1000 | process start → first reconcile (ms) | spring | 4402, 4500 |
			| failover | 100 | kill -9 of the leader → standby's first reconcile (ms) | spring | 15567 |
			""";

	@Test
	void theScenariosLeftOutKeepTheirSectionsAndTargetsWithTheirDate(@TempDir Path directory) throws Exception {
		Path previous = Files.writeString(directory.resolve("BENCHMARKS.md"), PREVIOUS);
		CarriedOver carried = CarriedOver.from(previous, config(directory, "memory", "live"));
		StringBuilder out = new StringBuilder();
		for (String scenario : List.of("drain", "failover", "lists", "sharded", "live")) {
			carried.appendSection(out, scenario);
		}
		assertThat(out.toString()).isEqualTo(
				"""
						## Cold drain

						*Not rerun: the figures of the run of 2026-11-29T15:07 (`-Dbenchmark.scenarios` left this scenario out).*

						old drain table

						## API requests of a cold drain of 1000

						*Not rerun: the figures of the run of 2026-11-29T15:07 (`-Dbenchmark.scenarios` left this scenario out).*

						old requests

						## Failover

						*Not rerun: the figures of the run of 2026-11-29T15:07 (`-Dbenchmark.scenarios` left this scenario out).*

						old failover table

						## Streamed and paged lists

						*Not rerun: the figures of the run of 2026-11-29T15:07 (`-Dbenchmark.scenarios` left this scenario out).*

						old lists table

						""");
		assertThat(carried.targetRows()).containsExactly(
				"| cold drain N=5000, spring ≤ 0.95x baseline (run of 2026-11-29T15:07) | 28080 vs 25566 = 1.10x "
						+ "| **missed by 16%** |",
				"| failover after a graceful stop with release < 1000 ms, spring (run of 2026-11-29T15:07) | 87 ms | met |");
		assertThat(carried.runRows()).containsExactly(
				"| drain | 1000 | process start → first reconcile (ms) | spring | 4402, 4500 |",
				"| failover | 100 | kill -9 of the leader → standby's first reconcile (ms) | spring | 15567 |");
	}

	@Test
	void whatWasCarriedOverBeforeKeepsItsDate(@TempDir Path directory) throws Exception {
		Path previous = Files.writeString(directory.resolve("BENCHMARKS.md"), PREVIOUS);
		BenchmarkConfig drainOnly = config(directory, "drain");
		CarriedOver first = CarriedOver.from(previous, drainOnly);
		StringBuilder report = new StringBuilder("""
				# Benchmarks

				## Machine and date

				| | |
				|---|---|
				| date | 2026-11-30T12:00:00Z |

				""");
		first.appendSection(report, "failover");
		report.append("## Targets\n\n| target | measured (medians) | result |\n|---|---|---|\n");
		first.targetRows().forEach((row) -> report.append(row).append('\n'));
		Path rewritten = Files.writeString(directory.resolve("BENCHMARKS.md"), report);
		CarriedOver second = CarriedOver.from(rewritten, drainOnly);
		StringBuilder out = new StringBuilder();
		second.appendSection(out, "failover");
		assertThat(out.toString()).contains("the figures of the run of 2026-11-29T15:07").doesNotContain("2026-11-30");
		assertThat(second.targetRows()).containsExactly(
				"| failover after a graceful stop with release < 1000 ms, spring (run of 2026-11-29T15:07) | 87 ms | met |");
	}

	@Test
	void aRunOfEveryScenarioCarriesNothing(@TempDir Path directory) throws Exception {
		Path previous = Files.writeString(directory.resolve("BENCHMARKS.md"), PREVIOUS);
		CarriedOver carried = CarriedOver.from(previous, config(directory, "drain", "live", "burst", "memory",
				"failover", "cache-memory", "lists", "sharded", "jmh"));
		StringBuilder out = new StringBuilder();
		carried.appendSection(out, "failover");
		assertThat(out).isEmpty();
		assertThat(carried.targetRows()).isEmpty();
		assertThat(CarriedOver.from(directory.resolve("none.md"), config(directory, "drain")).targetRows()).isEmpty();
	}

	private static BenchmarkConfig config(Path directory, String... scenarios) {
		return new BenchmarkConfig(false, new LinkedHashSet<>(List.of(scenarios)), List.of(Implementation.SPRING),
				List.of(1000), List.of(), List.of(), List.of(), 100, Duration.ofSeconds(15), Duration.ofSeconds(10),
				Duration.ofSeconds(2), 0, false, true, List.of(), directory, directory, directory);
	}

}
