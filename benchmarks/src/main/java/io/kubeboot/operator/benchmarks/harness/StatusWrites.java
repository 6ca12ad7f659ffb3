package io.kubeboot.operator.benchmarks.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.child.WidgetWorkload;
import io.kubeboot.operator.benchmarks.writes.StatusWritesMain;
import io.kubeboot.operator.benchmarks.writes.WritePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status writes scenario ({@code writes}): where the steady state of a drain goes
 * once the operator writes, measured without the rest of the operator. A process writes
 * widgets' statuses along one {@link WritePath} with the drain's workers, warms up, then
 * measures its writes' rate, CPU and allocation; the paths alternate run by run.
 */
final class StatusWrites {

	private static final Logger logger = LoggerFactory.getLogger(StatusWrites.class);

	static final String SCENARIO = "writes";

	/** The system property of the measured writes per run, {@code 4000} by default. */
	static final String WRITES_PROPERTY = "benchmark.writes";

	private static final int WIDGETS = 1000;

	private final BenchmarkConfig config;

	private final Cluster cluster;

	private final Results results;

	private final ChildJdk jdk;

	private final int widgets;

	private final int warmUp;

	private final int writes;

	/** Measurements by path: writes a second, CPU µs a write, KiB allocated a write. */
	private final Map<WritePath, List<double[]>> measured = new LinkedHashMap<>();

	private final Map<WritePath, String> protocols = new HashMap<>();

	StatusWrites(BenchmarkConfig config, Cluster cluster, Results results, ChildJdk jdk) {
		this.config = config;
		this.cluster = cluster;
		this.results = results;
		this.jdk = jdk;
		this.widgets = config.smoke() ? 20 : WIDGETS;
		this.warmUp = config.smoke() ? 20 : 2000;
		this.writes = config.smoke() ? 40 : Integer.parseInt(System.getProperty(WRITES_PROPERTY, "4000"));
	}

	/**
	 * Creates the widgets, runs every path alternately and adds the section to the
	 * results.
	 * @throws Exception if a run fails
	 */
	void run() throws Exception {
		String namespace = SCENARIO + "-" + this.widgets;
		this.cluster.createNamespace(namespace);
		logger.info("Status writes: creating {} widgets in {}", this.widgets, namespace);
		this.cluster.createWidgets(namespace, this.widgets);
		int runs = this.config.runs(this.widgets);
		WritePath[] paths = WritePath.values();
		for (int run = 1; run <= runs; run++) {
			// each round starts with another path, so that none is always the first
			// after the widgets' creation
			for (int i = 0; i < paths.length; i++) {
				measure(paths[(run - 1 + i) % paths.length], namespace, run);
			}
		}
		this.results.section(section());
	}

	private void measure(WritePath path, String namespace, int run) throws Exception {
		Map<String, String> environment = new HashMap<>(this.cluster.clientEnvironment());
		environment.put(ChildSettings.NAMESPACE, namespace);
		environment.put(WritePath.ENVIRONMENT, path.id());
		environment.put(StatusWritesMain.WIDGETS, String.valueOf(this.widgets));
		environment.put(StatusWritesMain.WARM_UP_WRITES, String.valueOf(this.warmUp));
		environment.put(StatusWritesMain.WRITES, String.valueOf(this.writes));
		Duration timeout = Duration.ofSeconds(60).plusMillis((this.warmUp + this.writes) * 20L);
		String name = "%s-%s-%d".formatted(SCENARIO, path.id(), run);
		try (ChildProcess child = ChildProcess.start(this.jdk.java(), StatusWritesMain.class, name, environment,
				this.config.childJvmFlags(), this.config.jfr(), this.config.workDir())) {
			String[] values = child.await("writes", timeout);
			double count = Double.parseDouble(values[0]);
			double[] perWrite = { count / (Long.parseLong(values[1]) / 1e9), Long.parseLong(values[2]) / 1e3 / count,
					Long.parseLong(values[3]) / 1024.0 / count };
			this.measured.computeIfAbsent(path, (key) -> new ArrayList<>()).add(perWrite);
			this.protocols.put(path, values[4]);
			logger.info("Status writes run {} {}: {} writes/s, CPU {} µs and {} KiB a write, {}", run, path.id(),
					"%.0f".formatted(perWrite[0]), "%.0f".formatted(perWrite[1]), "%.1f".formatted(perWrite[2]),
					values[4]);
		}
	}

	private String section() {
		StringBuilder out = new StringBuilder();
		out.append("## Status writes\n\n");
		out.append(("Scenario `%s`: a process writes `status.observedGeneration` of %d widgets with %d threads, "
				+ "as the drain's reconcilers do, along one path; %d writes warm it up, then %d are measured. "
				+ "Writes a second: the measured writes over their wall time. CPU: the process's CPU time "
				+ "(JIT compiler and garbage collector included) over the writes. Allocated: the bytes its "
				+ "threads allocated over the writes. Protocol: as the connection negotiated it. The paths "
				+ "alternate run by run. Medians (number of runs; the smallest and the largest of the runs).\n\n")
			.formatted(SCENARIO, this.widgets, WidgetWorkload.WORKERS, this.warmUp, this.writes));
		out.append("| write path | protocol | writes a second | CPU a write (µs) | allocated a write (KiB) | "
				+ "CPU against ours, HTTP/2 |\n|---|---|---|---|---|---|\n");
		OptionalDouble reference = median(WritePath.CLIENT_HTTP2, 1);
		for (WritePath path : WritePath.values()) {
			List<double[]> values = this.measured.getOrDefault(path, List.of());
			OptionalDouble cpu = median(path, 1);
			out.append("| ")
				.append(path.label())
				.append(" | ")
				.append(this.protocols.getOrDefault(path, ""))
				.append(" | ")
				.append(formatted(values, 0, "%.0f"))
				.append(" | ")
				.append(formatted(values, 1, "%.0f"))
				.append(" | ")
				.append(formatted(values, 2, "%.1f"))
				.append(" | ")
				.append((cpu.isPresent() && reference.isPresent() && reference.getAsDouble() > 0)
						? "%.2fx".formatted(cpu.getAsDouble() / reference.getAsDouble()) : "")
				.append(" |\n");
		}
		out.append('\n');
		return out.toString();
	}

	private OptionalDouble median(WritePath path, int index) {
		return Results.median(this.measured.getOrDefault(path, List.of()).stream().map((each) -> each[index]).toList());
	}

	private static String formatted(List<double[]> values, int index, String format) {
		List<Double> each = values.stream().map((run) -> run[index]).sorted().toList();
		OptionalDouble median = Results.median(each);
		return median.isPresent() ? (format + " (%d; " + format + "–" + format + ")").formatted(median.getAsDouble(),
				each.size(), each.get(0), each.get(each.size() - 1)) : "";
	}

}
