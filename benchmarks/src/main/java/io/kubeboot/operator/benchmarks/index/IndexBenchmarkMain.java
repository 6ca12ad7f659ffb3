package io.kubeboot.operator.benchmarks.index;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.openapi.models.V1Secret;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Prints what mapping one Secret event to the ConfigMaps that name it costs with a scan
 * of the cache and with a cache index, measured by {@link MapByIndexBenchmark} (JMH, one
 * fork, 3 x 1 s warm-up, 5 x 1 s measurement) against a {@link ScriptedApiServer} in this
 * JVM: no cluster. Run it from the repository root with
 * {@code mvn -B -pl benchmarks -am verify -DskipTests -Pindex-benchmark};
 * {@code -Dindex.configMaps=} (default 10,000) and {@code -Dindex.secrets=} (default
 * 1,000) set the sizes, {@code -Dindex.smoke=true} maps every Secret once each way,
 * checks that both ways agree and prints one pass's times instead. It prints numbers and
 * never fails on them.
 */
public final class IndexBenchmarkMain {

	private IndexBenchmarkMain() {
	}

	public static void main(String[] args) throws Exception {
		int configMaps = Integer.getInteger("index.configMaps", 10_000);
		int secrets = Integer.getInteger("index.secrets", 1_000);
		List<String> rows = Boolean.getBoolean("index.smoke") ? smoke(configMaps, secrets)
				: measure(configMaps, secrets);
		System.out.println();
		System.out.println(
				"Mapping one Secret event to the ConfigMaps naming it: %,d ConfigMaps cached, %,d naming each Secret"
					.formatted(configMaps, configMaps / secrets));
		System.out.println();
		rows.forEach(System.out::println);
		System.exit(0);
	}

	private static List<String> measure(int configMaps, int secrets) throws Exception {
		Options options = new OptionsBuilder().include(MapByIndexBenchmark.class.getName())
			.param("configMaps", String.valueOf(configMaps))
			.param("secrets", String.valueOf(secrets))
			.jvmArgs("-Xmx1g", "-XX:+UseSerialGC")
			.shouldFailOnError(true)
			.build();
		Collection<RunResult> runs = new Runner(options).run();
		Result<?> scan = null;
		Result<?> index = null;
		for (RunResult run : runs) {
			if (run.getParams().getBenchmark().endsWith(".scan")) {
				scan = run.getPrimaryResult();
			}
			else {
				index = run.getPrimaryResult();
			}
		}
		if (scan == null || index == null) {
			throw new IllegalStateException("JMH ran " + runs.size() + " benchmarks instead of scan and index");
		}
		return table(configMaps, secrets, "%.2f ± %.2f µs".formatted(scan.getScore(), scan.getScoreError()),
				"%.2f ± %.2f µs".formatted(index.getScore(), index.getScoreError()),
				"%.5fx".formatted(index.getScore() / scan.getScore()));
	}

	/**
	 * Maps every Secret once by a scan and once by the index, checks that both find the
	 * same ConfigMaps, and returns the table of that one pass (no warm-up: the times say
	 * little).
	 * @param configMaps how many ConfigMaps are cached
	 * @param secrets how many Secrets they name
	 * @return the rows of the table
	 * @throws Exception if the manager does not start
	 * @throws IllegalStateException if the two ways disagree
	 */
	static List<String> smoke(int configMaps, int secrets) throws Exception {
		try (IndexedMapping mapping = IndexedMapping.start(configMaps, secrets)) {
			long scanNanos = 0;
			long indexNanos = 0;
			for (int i = 0; i < secrets; i++) {
				V1Secret secret = IndexedMapping.secret(i);
				long started = System.nanoTime();
				Set<Request> scanned = Set.copyOf(mapping.scan.map(secret));
				long scannedAt = System.nanoTime();
				Set<Request> indexed = Set.copyOf(mapping.index.map(secret));
				indexNanos += System.nanoTime() - scannedAt;
				scanNanos += scannedAt - started;
				if (!indexed.equals(scanned) || scanned.size() != configMaps / secrets) {
					throw new IllegalStateException("Secret " + secret.getMetadata().getName() + ": the scan found "
							+ scanned + ", the index " + indexed);
				}
			}
			return table(configMaps, secrets, "%.2f µs (one pass, smoke)".formatted(scanNanos / 1e3 / secrets),
					"%.2f µs (one pass, smoke)".formatted(indexNanos / 1e3 / secrets),
					"%.5fx".formatted((double) indexNanos / scanNanos));
		}
	}

	private static List<String> table(int configMaps, int secrets, String scan, String index, String ratio) {
		List<String> rows = new ArrayList<>();
		rows.add("| mapping | time per Secret event | ConfigMaps visited per event |");
		rows.add("|---|---|---|");
		rows.add("| scan: `cache.list(...)` filtered | " + scan + " | %,d |".formatted(configMaps));
		rows.add("| index: `MapFunctions.byIndex` | " + index + " | %,d |".formatted(configMaps / secrets));
		rows.add("| index / scan | " + ratio + " | |");
		return rows;
	}

}
