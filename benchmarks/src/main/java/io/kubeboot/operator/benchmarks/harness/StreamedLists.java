package io.kubeboot.operator.benchmarks.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.plain.ManagerOperatorMain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streamed list scenario ({@code lists}): what streaming the first list (Kubernetes'
 * WatchList) changes against reading it in pages, for a cache of N widgets: the time from
 * process start to a synced cache, the CPU spent until then, and the heap's peak. Both
 * variants are ours, on the plain {@code Manager}, alternating run by run; the widgets
 * already carry their observed generation, so no status is written.
 */
final class StreamedLists {

	private static final Logger logger = LoggerFactory.getLogger(StreamedLists.class);

	static final String SCENARIO = "lists";

	/** The system property of the object count, {@code 100000} by default. */
	static final String SIZE_PROPERTY = "benchmark.listSize";

	private final BenchmarkConfig config;

	private final Cluster cluster;

	private final Results results;

	private final ChildJdk jdk;

	private final int size;

	/**
	 * Measurements by variant: start to synced (ms), CPU until synced (ms), peak heap
	 * (bytes).
	 */
	private final Map<Variant, List<double[]>> measured = new LinkedHashMap<>();

	StreamedLists(BenchmarkConfig config, Cluster cluster, Results results, ChildJdk jdk) {
		this.config = config;
		this.cluster = cluster;
		this.results = results;
		this.jdk = jdk;
		this.size = config.smoke() ? 300 : Integer.parseInt(System.getProperty(SIZE_PROPERTY, "100000"));
	}

	/**
	 * Creates the widgets, runs both variants alternately and adds the section to the
	 * results.
	 * @throws Exception if a run fails
	 */
	void run() throws Exception {
		String namespace = SCENARIO + "-" + this.size;
		this.cluster.createNamespace(namespace);
		logger.info("Streamed lists: creating {} widgets in {}", this.size, namespace);
		this.cluster.createWidgets(namespace, this.size);
		this.cluster.observeAll(namespace);
		int runs = this.config.memoryRuns();
		for (int run = 1; run <= runs; run++) {
			for (Variant variant : Variant.values()) {
				measure(variant, namespace, run);
			}
		}
		this.results.section(section());
	}

	private void measure(Variant variant, String namespace, int run) throws Exception {
		Map<String, String> environment = new HashMap<>(this.cluster.clientEnvironment());
		environment.put(ChildSettings.NAMESPACE, namespace);
		environment.put(ChildSettings.STREAMING_LISTS, String.valueOf(variant.streaming));
		Duration timeout = Duration.ofSeconds(90).plusMillis(this.size * 30L);
		String name = "%s-%d-%s-%d".formatted(SCENARIO, this.size, variant.id, run);
		try (ChildProcess child = ChildProcess.start(this.jdk.java(), ManagerOperatorMain.class, name, environment,
				this.config.childJvmFlags(), this.config.jfr(), this.config.workDir())) {
			long synced = child.awaitTime("ready", timeout) - child.spawnedAt();
			String[] peak = child.ask("peak", Duration.ofSeconds(60));
			double[] values = { synced, Long.parseLong(peak[1]) / 1e6, Long.parseLong(peak[0]) };
			this.measured.computeIfAbsent(variant, (key) -> new ArrayList<>()).add(values);
			logger.info("Streamed lists N={} run {} {}: synced after {} ms, CPU {} ms, peak heap {} MiB", this.size,
					run, variant.id, (long) values[0], (long) values[1], "%.1f".formatted(values[2] / (1024 * 1024)));
		}
	}

	private String section() {
		StringBuilder out = new StringBuilder();
		out.append("## Streamed and paged lists\n\n");
		out.append(("Scenario `%s`: ours (the plain `Manager`) caches the %d widgets of a namespace, its first list "
				+ "streamed (a watch with `sendInitialEvents=true`, the default where the API server can) or "
				+ "listed (`streamingLists(false)`: a list at resourceVersion 0 with a limit of 500, which "
				+ "kube-apiserver serves whole from its watch cache); the variants alternate run by run. Start to synced: "
				+ "from the process's spawn to its caches having synced. CPU: the process's CPU time until then. "
				+ "Peak heap: the sum of the heap pools' peak usage (with the serial collector: the most the young "
				+ "and the old generation each held, garbage included). Medians (number of runs in brackets).\n\n")
			.formatted(SCENARIO, this.size));
		out.append("| variant | start to synced (s) | CPU until synced (s) | peak heap (MiB) |\n|---|---|---|---|\n");
		for (Variant variant : Variant.values()) {
			List<double[]> values = this.measured.getOrDefault(variant, List.of());
			out.append("| ")
				.append(variant.label)
				.append(" | ")
				.append(median(values, 0, 1000))
				.append(" | ")
				.append(median(values, 1, 1000))
				.append(" | ")
				.append(median(values, 2, 1024 * 1024))
				.append(" |\n");
		}
		out.append("| streamed / paged | ")
			.append(ratio(0))
			.append(" | ")
			.append(ratio(1))
			.append(" | ")
			.append(ratio(2))
			.append(" |\n\n");
		return out.toString();
	}

	private static String median(List<double[]> values, int index, double unit) {
		OptionalDouble median = Results.median(values.stream().map((each) -> each[index] / unit).toList());
		return median.isPresent() ? "%.2f (%d)".formatted(median.getAsDouble(), values.size()) : "";
	}

	private String ratio(int index) {
		OptionalDouble streamed = Results.median(
				this.measured.getOrDefault(Variant.STREAMED, List.of()).stream().map((each) -> each[index]).toList());
		OptionalDouble paged = Results
			.median(this.measured.getOrDefault(Variant.PAGED, List.of()).stream().map((each) -> each[index]).toList());
		return (streamed.isPresent() && paged.isPresent() && paged.getAsDouble() > 0)
				? "%.2fx".formatted(streamed.getAsDouble() / paged.getAsDouble()) : "";
	}

	/**
	 * How the first list is read.
	 */
	enum Variant {

		STREAMED("streamed", "ours, streamed list", true),

		PAGED("paged", "ours, paged list", false);

		final String id;

		final String label;

		final boolean streaming;

		Variant(String id, String label, boolean streaming) {
			this.id = id;
			this.label = label;
			this.streaming = streaming;
		}

	}

}
