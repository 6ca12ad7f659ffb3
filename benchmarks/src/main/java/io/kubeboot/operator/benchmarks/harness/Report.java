package io.kubeboot.operator.benchmarks.harness;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;

import io.kubeboot.operator.benchmarks.child.WidgetWorkload;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the report and {@code drain.png} (cold drain time against N) into the output
 * directory. A full run writes {@code BENCHMARKS.md}, the project's benchmark document:
 * how to run the benchmark, what it measures, the machine and date, the medians and
 * ratios of every scenario with the plot, the targets, the JMH results, every run, and at
 * the end the hand-written {@code analysis.md} from the output directory if it exists.
 * The smoke run writes only the results into {@code results.md}.
 */
final class Report {

	/**
	 * The command that runs the full benchmark, from the repository root.
	 */
	static final String COMMAND = "mvn -B -pl benchmarks -am verify -DskipTests -Pbenchmark";

	private static final Logger logger = LoggerFactory.getLogger(Report.class);

	private static final Implementation[] OURS = { Implementation.SPRING, Implementation.MANAGER };

	private static final Implementation[] REFERENCES = { Implementation.BASELINE, Implementation.JOSDK,
			Implementation.RAW };

	private Report() {
	}

	static void write(BenchmarkConfig config, Results results) throws IOException {
		CarriedOver carried = CarriedOver.from(config.outputDir().resolve("BENCHMARKS.md"), config);
		StringBuilder out = new StringBuilder();
		if (config.smoke()) {
			out.append("# Benchmark results\n\n");
			out.append("Smoke run (N = 100, one run each; timings are not meaningful).\n\n");
			out.append("| | |\n|---|---|\n");
		}
		else {
			out.append("# Benchmarks\n\n");
			howToRun(out, config);
			whatIsMeasured(out);
			out.append("## Machine and date\n\n| | |\n|---|---|\n");
		}
		results.environment()
			.forEach((name, value) -> out.append("| ").append(name).append(" | ").append(value).append(" |\n"));
		out.append('\n');
		int tablesStart = out.length();
		results.skipped()
			.forEach((implementation, reason) -> out.append("**Skipped: `")
				.append(implementation.id())
				.append("`** (")
				.append(implementation.label())
				.append("): ")
				.append(reason)
				.append(".\n\n"));
		boolean drain = section(out, results, config, "drain", "Cold drain",
				"N widgets exist; the operator process is spawned; times from the spawn. Reconciles per object: "
						+ "the reconciles the process ran until it settled after the drain, divided by N; a status "
						+ "write comes back on the watch and reconciles the object a second time unless an event "
						+ "filter drops it, as the starter's default `GenerationChangedPredicate` and JOSDK's generation-aware "
						+ "default do.");
		if (drain && config.runs("drain")) {
			out.append("![Cold drain time against N](drain.png)\n\n");
		}
		// with its plot, which only a run of the drain rewrites, and its requests
		carried.appendSection(out, "drain");
		section(out, results, config, "live", "Live changes during a cold drain",
				("N widgets exist and the operator process is spawned, as in the cold drain. From its first "
						+ "reconcile on, while fewer than 80%% of the N widgets have their status, the harness creates "
						+ "a new widget every %s; the latency is from the create request to the start of that "
						+ "widget's reconcile, measured in the operator. p50, p99 and max are over the changes of one "
						+ "run. Ours queue every object of the initial list at a low priority and a change at the "
						+ "default one (the priority queue, %s in this run); client-java-extended's queue is first "
						+ "in, first out, so a change waits behind what is left of the backlog.")
					.formatted(config.smoke() ? "50 ms" : "200 ms", config.priorityQueue() ? "on" : "**off**"));
		carried.appendSection(out, "live");
		section(out, results, config, "burst", "Burst",
				"The operator runs, synced and idle; N widgets are created with 8 threads; times from the first create.");
		carried.appendSection(out, "burst");
		section(out, results, config, "memory", "Memory",
				"Heap after full GC (System.gc() in the process) and RSS with N widgets cached and reconciled.");
		carried.appendSection(out, "memory");
		section(out, results, config, "failover", "Failover",
				"Leader election on a Lease (%s / %s / %s); a warm standby; N = objects in the namespace.".formatted(
						duration(config.leaseDuration()), duration(config.renewDeadline()),
						duration(config.retryPeriod())));
		carried.appendSection(out, "failover");
		results.sections().forEach(out::append);
		for (String scenario : List.of(CacheMemory.SCENARIO, StreamedLists.SCENARIO, StatusWrites.SCENARIO,
				ShardedDrain.SCENARIO)) {
			carried.appendSection(out, scenario);
		}
		targets(out, results, config, carried.targetRows());
		carried.appendSection(out, "jmh");
		if (!results.microbenchmarks().isEmpty()) {
			out.append("## Work queue microbenchmarks (JMH)\n\n");
			out.append("| benchmark | kubeboot | client-java-extended | kubeboot/client-java-extended |\n");
			out.append("|---|---|---|---|\n");
			results.microbenchmarks().forEach((row) -> out.append(row).append('\n'));
			out.append('\n');
		}
		// the command prints the results, not only the document
		System.out.println("\n" + out.substring(tablesStart));
		everyRun(out, results, carried.runRows());
		for (String note : results.notes()) {
			out.append("- ").append(note).append('\n');
		}
		if (!config.smoke()) {
			analysis(out, config);
		}
		Path markdown = config.outputDir().resolve(config.smoke() ? "results.md" : "BENCHMARKS.md");
		Files.writeString(markdown, out.toString(), StandardCharsets.UTF_8);
		logger.info("Wrote {}", markdown);
		if (config.runs("drain")) {
			chart(config, results);
		}
	}

	private static void howToRun(StringBuilder out, BenchmarkConfig config) {
		out.append("## How to run\n\n");
		out.append("From the repository root, after `scripts/install-control-plane.sh` (a local etcd and "
				+ "kube-apiserver; the benchmark starts them itself):\n\n");
		out.append("```\n").append(COMMAND).append("\n```\n\n");
		out.append("It rewrites this document (`BENCHMARKS.md`) and `drain.png` in `benchmarks/`, and takes about "
				+ "two hours with the defaults on two cores (drain 25 minutes, live 12, burst 20, memory 8, failover 10, "
				+ "cache memory 20, status writes 9, sharded 22, JMH 5). Nothing else should run on the machine meanwhile. "
				+ "Optional system properties, passed through by `benchmarks/pom.xml` "
				+ "(the values shown are the ones this run used):\n\n");
		out.append(
				"- `-Dbenchmark.scenarios=drain,live,burst,memory,failover,cache-memory,lists,writes,sharded,jmh`: the scenarios to run; "
						+ "the sections of the others are kept from the document this run rewrites, marked with "
						+ "the date and time of the run that measured them, with their rows of the targets and "
						+ "of every run " + "(this run: `%s`)\n".formatted(String.join(",", config.scenarios())));
		out.append(("- `-Dbenchmark.implementations=%s`: the implementations, in the order the runs alternate "
				+ "(this run: `%s`)\n")
			.formatted(BenchmarkConfig.DEFAULT_IMPLEMENTATIONS,
					config.implementations().stream().map(Implementation::id).collect(Collectors.joining(","))));
		out.append(("- `-Dbenchmark.drainSizes=%s`: the object counts of the cold drain; the sharded drain uses the "
				+ "largest\n")
			.formatted(sizes(config.drainSizes())));
		out.append("- `-Dbenchmark.liveSizes=%s`: the object counts of the cold drain with live changes\n"
			.formatted(sizes(config.liveSizes())));
		out.append("- `-Dbenchmark.burstSizes=%s`: the object counts of the burst\n"
			.formatted(sizes(config.burstSizes())));
		out.append("- `-Dbenchmark.memorySizes=%s`: the two cached object counts of the memory scenario\n"
			.formatted(sizes(config.memorySizes())));
		out.append("- `-D%s=%s`: the two cached object counts of the cache memory scenario (`%s`)\n".formatted(
				CacheMemory.SIZES_PROPERTY, System.getProperty(CacheMemory.SIZES_PROPERTY, "10000,100000"),
				CacheMemory.SCENARIO));
		out.append("- `-D%s=%s`: the cached object count of the streamed list scenario (`%s`)\n".formatted(
				StreamedLists.SIZE_PROPERTY, System.getProperty(StreamedLists.SIZE_PROPERTY, "100000"),
				StreamedLists.SCENARIO));
		out.append("- `-D%s=%s`: the measured writes of each run of the status writes scenario (`%s`)\n".formatted(
				StatusWrites.WRITES_PROPERTY, System.getProperty(StatusWrites.WRITES_PROPERTY, "4000"),
				StatusWrites.SCENARIO));
		out.append("- `-D%s=%s`: the widgets of the sharded scenario's heap part (`%s`)\n".formatted(
				ShardedDrain.HEAP_SIZE_PROPERTY, System.getProperty(ShardedDrain.HEAP_SIZE_PROPERTY, "10000"),
				ShardedDrain.SCENARIO));
		out.append(("- `-Dbenchmark.leaseDurations=%s,%s,%s`: lease duration, renew deadline and retry period "
				+ "of the failover scenario\n")
			.formatted(seconds(config.leaseDuration()), seconds(config.renewDeadline()),
					seconds(config.retryPeriod())));
		out.append("- `-Dbenchmark.runs=N`: N runs per implementation and size in every scenario; `0` (the "
				+ "default) means 5 up to 1,000 objects, 3 above, and 3 for memory and failover (this run: %s)\n"
					.formatted((config.fixedRuns() > 0) ? String.valueOf(config.fixedRuns()) : "the default"));
		out.append(("- `-D%s=/usr/lib/jvm/temurin-25-jdk-amd64`: the home of the JDK every operator process "
				+ "runs on (the microbenchmarks' forks too); by default the harness's own, which runs Maven. "
				+ "`spring-aot` starts with a CDS archive before JDK %d and with the AOT cache from it on "
				+ "(this run: %s)\n")
			.formatted(ChildJdk.PROPERTY, AotCache.JDK, config.javaHome()));
		out.append("- `-Dbenchmark.extraJvmFlags=\"-XX:TieredStopAtLevel=1\"`: JVM flags added to every operator "
				+ "process's `%s`, separated by spaces (this run: `%s`)\n".formatted(
						String.join(" ", BenchmarkConfig.CHILD_JVM_FLAGS), String.join(" ", config.childJvmFlags())));
		out.append("- `-Dbenchmark.outputDir=...`: where the report and `drain.png` are written, `benchmarks/` by "
				+ "default (a run on another JDK can keep this one)\n");
		out.append(
				"- `-Dbenchmark.jfr=true`: every operator process records a JFR profile (the Spring ones with their start-up steps, Spring's `FlightRecorderApplicationStartup`) into the work "
						+ "directory (`benchmarks/target/benchmark`) alongside its log\n");
		out.append("- `-Dbenchmark.priorityQueue=false`: ours run with `operator.controller.priority-queue=false` "
				+ "(a first-in, first-out work queue) (this run: %s)\n\n"
					.formatted(config.priorityQueue() ? "the default, on" : "off"));
		out.append("`analysis.md` in `benchmarks/` is written by hand after a run and included at the end "
				+ "of this document.\n\n");
	}

	private static void whatIsMeasured(StringBuilder out) {
		out.append("## What is measured\n\n");
		out.append(("Every operator runs %d workers against a `Widget` custom resource; the reconcile reads the "
				+ "widget from the informer cache and patches `status.observedGeneration` (a merge patch of the "
				+ "status subresource) when it differs from `metadata.generation`, ours through the starter's "
				+ "`Client` (`client.status().patch(...)`), JOSDK through its fabric8 client, the others through "
				+ "client-java's `PatchUtils`. Five implementations run the same reconcile: ours through the "
				+ "Spring Boot starter (`spring`), ours through the plain `Manager` without Spring (`manager`), "
				+ "client-java-extended's `ControllerManager` as the baseline (`baseline`), the Java Operator SDK "
				+ "(`josdk`: JOSDK 5's `Operator` with one `Reconciler<Widget>` and the fabric8 client it creates, "
				+ "on fabric8's default HTTP client, Vert.x; generation-aware, server-side apply off; on a class path of its "
				+ "own, module `benchmarks-josdk`), and raw client-java (`raw`: list once, no cache or watch, write "
				+ "every status and exit) as the ceiling, which runs only the cold drain. A sixth, `spring-aot`, "
				+ "is `spring` again, with the same class path and JVM flags, started the way the archetype's image "
				+ "starts: Spring AOT (`-Dspring.aot.enabled=true`, the beans that this module's build generated "
				+ "with `process-aot`) and a class-data archive. Before its first run, one training run of the same "
				+ "application with `-Dspring.context.exit=onRefresh`, without a kubeconfig (it exits once the "
				+ "context is refreshed, before anything connects), writes the archive: a dynamic CDS archive "
				+ "(`-XX:ArchiveClassesAtExit=<file>`, runs add `-Xshare:on -XX:SharedArchiveFile=<file>`) on "
				+ "JDK 17 to 24, JDK 25's AOT cache (`-XX:AOTCacheOutput=<file>`, runs add `-XX:AOTMode=on "
				+ "-XX:AOTCache=<file>`) from 25 on; either way an archive the JVM cannot use fails the run. It "
				+ "runs only the cold drain, in the column beside `spring`; the training's time and the archive's "
				+ "size are in the table of the machine. The implementations on the harness's class path run "
				+ "on the modules' jars, not `target/classes`, as class-data archives hold no classes from "
				+ "directories. Every process connects as the same user, and the API server's audit log counts "
				+ "the requests each one sends until it has drained (its status writes left out). The failover scenario "
				+ "runs the implementations with leader election (`spring`, `baseline` and `josdk`). Every "
				+ "operator is a separate JVM with the same flags; runs alternate between the implementations so "
				+ "that drift in the machine's load spreads over all of them. The tables give medians over several "
				+ "runs (the count in brackets) and the ratios ours/baseline, ours/josdk and ours/raw (and "
				+ "spring-aot/spring, spring-aot/baseline); below 1.00x "
				+ "is better for times and memory, above 1.00x for throughput.\n\n")
			.formatted(WidgetWorkload.WORKERS));
	}

	private static void analysis(StringBuilder out, BenchmarkConfig config) throws IOException {
		Path analysis = config.outputDir().resolve("analysis.md");
		if (!Files.isRegularFile(analysis)) {
			return;
		}
		String text = Files.readString(analysis, StandardCharsets.UTF_8).strip();
		if (text.isEmpty()) {
			return;
		}
		out.append("\n## Analysis\n\n").append(text).append('\n');
	}

	private static String seconds(Duration duration) {
		return BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros().toPlainString() + "s";
	}

	private static String sizes(List<Integer> sizes) {
		return sizes.stream().map(String::valueOf).collect(Collectors.joining(","));
	}

	private static boolean section(StringBuilder out, Results results, BenchmarkConfig config, String scenario,
			String title, String description) {
		Map<Results.Key, Map<Implementation, List<Double>>> all = results.all();
		List<Results.Key> keys = all.keySet()
			.stream()
			.filter((key) -> key.metric().scenario().equals(scenario))
			.sorted((a, b) -> Integer.compare(a.size(), b.size()))
			.toList();
		if (keys.isEmpty()) {
			return false;
		}
		Set<Implementation> present = new LinkedHashSet<>();
		for (Implementation implementation : columnOrder(config.implementations())) {
			if (keys.stream().anyMatch((key) -> all.get(key).containsKey(implementation))) {
				present.add(implementation);
			}
		}
		List<String[]> ratios = new ArrayList<>();
		if (present.contains(Implementation.SPRING_AOT)) {
			for (Implementation reference : List.of(Implementation.SPRING, Implementation.BASELINE)) {
				if (present.contains(reference)) {
					ratios.add(new String[] { Implementation.SPRING_AOT.id(), reference.id() });
				}
			}
		}
		for (Implementation ours : OURS) {
			for (Implementation reference : REFERENCES) {
				if (present.contains(ours) && present.contains(reference)) {
					ratios.add(new String[] { ours.id(), reference.id() });
				}
			}
		}
		out.append("## ")
			.append(title)
			.append("\n\n")
			.append(description)
			.append(" Medians (number of runs in brackets).\n\n");
		out.append("| N | metric |");
		present.forEach((implementation) -> out.append(' ').append(implementation.label()).append(" |"));
		ratios.forEach((pair) -> out.append(' ').append(pair[0]).append('/').append(pair[1]).append(" |"));
		out.append("\n|---|---|");
		present.forEach((implementation) -> out.append("---|"));
		ratios.forEach((pair) -> out.append("---|"));
		out.append('\n');
		for (Results.Key key : keys) {
			out.append("| ").append(key.size()).append(" | ").append(key.metric().name()).append(" |");
			for (Implementation implementation : present) {
				List<Double> values = all.get(key).getOrDefault(implementation, List.of());
				OptionalDouble median = Results.median(values);
				out.append(' ')
					.append(median.isPresent() ? format(key.metric(), median.getAsDouble()) + " (" + values.size() + ")"
							: "")
					.append(" |");
			}
			for (String[] pair : ratios) {
				OptionalDouble ours = results.median(key.metric(), key.size(), Implementation.of(pair[0]));
				OptionalDouble reference = results.median(key.metric(), key.size(), Implementation.of(pair[1]));
				out.append(' ')
					.append((ours.isPresent() && reference.isPresent() && reference.getAsDouble() != 0)
							? "%.2fx".formatted(ours.getAsDouble() / reference.getAsDouble()) : "")
					.append(" |");
			}
			out.append('\n');
		}
		out.append('\n');
		return true;
	}

	/**
	 * The implementations in the order of the table's columns: as configured, with
	 * {@code spring-aot} right after {@code spring}, whose runs have the same flags but
	 * the cache.
	 */
	static List<Implementation> columnOrder(List<Implementation> implementations) {
		List<Implementation> order = new ArrayList<>();
		for (Implementation implementation : implementations) {
			if (implementation == Implementation.SPRING_AOT && implementations.contains(Implementation.SPRING)) {
				continue;
			}
			order.add(implementation);
			if (implementation == Implementation.SPRING && implementations.contains(Implementation.SPRING_AOT)) {
				order.add(Implementation.SPRING_AOT);
			}
		}
		return order;
	}

	private static void targets(StringBuilder out, Results results, BenchmarkConfig config, List<String> carriedRows) {
		List<String> rows = new ArrayList<>();
		if (!config.drainSizes().isEmpty()) {
			int small = config.drainSizes().stream().mapToInt(Integer::intValue).min().getAsInt();
			ratioTarget(rows, results, Implementation.SPRING, Implementation.BASELINE, Metric.DRAIN_FIRST_WRITE, small,
					"process start → first status written N=%d, spring ≤ 1.0x baseline (same flags, no AOT)"
						.formatted(small),
					1.0, true);
			ratioTarget(rows, results, Implementation.SPRING_AOT, Implementation.BASELINE, Metric.DRAIN_FIRST_WRITE,
					small, "process start → first status written N=%d, spring-aot (the image's recipe) ≤ 0.7x baseline"
						.formatted(small),
					0.7, true);
			ratioTarget(rows, results, Implementation.SPRING, Implementation.BASELINE, Metric.DRAIN_CPU, small,
					"operator CPU until drained N=%d, spring ≤ 1.0x baseline".formatted(small), 1.0, true);
			for (Implementation peer : List.of(Implementation.BASELINE, Implementation.JOSDK)) {
				ratioTarget(rows, results, Implementation.SPRING, peer, Metric.DRAIN_STARTUP_REQUESTS, small,
						"API requests before the first status write N=%d, spring ≤ %s".formatted(small, peer.id()), 1.0,
						true);
			}
			int big = config.drainSizes().stream().mapToInt(Integer::intValue).max().getAsInt();
			for (Implementation ours : OURS) {
				ratioTarget(rows, results, ours, Implementation.BASELINE, Metric.DRAIN_ALL, big,
						"cold drain N=%d, %s ≤ 0.95x baseline".formatted(big, ours.id()), 0.95, true);
				ratioTarget(rows, results, ours, Implementation.JOSDK, Metric.DRAIN_ALL, big,
						"cold drain N=%d, %s ≤ 0.90x josdk".formatted(big, ours.id()), 0.90, true);
				ratioTarget(rows, results, ours, Implementation.BASELINE, Metric.DRAIN_CPU, big,
						"operator CPU until drained N=%d, %s ≤ 0.90x baseline".formatted(big, ours.id()), 0.90, true);
				ratioTarget(rows, results, ours, Implementation.RAW, Metric.DRAIN_ALL, big,
						"cold drain N=%d, %s ≤ 1.15x raw".formatted(big, ours.id()), 1.15, true);
				ratioTarget(rows, results, ours, Implementation.RAW, Metric.DRAIN_THROUGHPUT, big,
						"throughput after first reconcile N=%d, %s ≥ 0.95x raw".formatted(big, ours.id()), 0.95, false);
			}
		}
		if (!config.memorySizes().isEmpty()) {
			int small = config.memorySizes().get(0);
			ratioTarget(rows, results, Implementation.SPRING, Implementation.BASELINE, Metric.MEMORY_HEAP, small,
					"heap after full GC N=%d, spring ≤ 1.1x baseline".formatted(small), 1.1, true);
		}
		if (config.memorySizes().size() >= 2) {
			int large = config.memorySizes().get(config.memorySizes().size() - 1);
			for (Implementation ours : OURS) {
				ratioTarget(rows, results, ours, Implementation.BASELINE, Metric.MEMORY_SLOPE, large,
						"heap per cached object, %s ≤ baseline".formatted(ours.id()), 1.0, true);
			}
		}
		if (!config.liveSizes().isEmpty()) {
			int big = config.liveSizes().stream().mapToInt(Integer::intValue).max().getAsInt();
			absoluteTarget(rows, results, Metric.LIVE_P99, big,
					"live change during a cold drain N=%d reconciled ≤ 1000 ms at p99".formatted(big), 1000, false);
		}
		long killBound = config.leaseDuration().plus(config.retryPeriod().multipliedBy(2)).toMillis();
		absoluteTarget(rows, results, Metric.FAILOVER_KILL, config.failoverObjects(),
				"failover after kill -9 ≤ lease-duration + 2 x retry-period = %d ms".formatted(killBound), killBound,
				false);
		absoluteTarget(rows, results, Metric.FAILOVER_GRACEFUL, config.failoverObjects(),
				"failover after a graceful stop with release < 1000 ms", 1000, true);
		rows.addAll(carriedRows);
		if (rows.isEmpty()) {
			return;
		}
		out.append("## Targets\n\n| target | measured (medians) | result |\n|---|---|---|\n");
		rows.forEach((row) -> out.append(row).append('\n'));
		out.append('\n');
	}

	private static void ratioTarget(List<String> rows, Results results, Implementation ours, Implementation reference,
			Metric metric, int size, String target, double bound, boolean atMost) {
		OptionalDouble mine = results.median(metric, size, ours);
		OptionalDouble theirs = results.median(metric, size, reference);
		if (mine.isEmpty() || theirs.isEmpty()) {
			return;
		}
		double ratio = mine.getAsDouble() / theirs.getAsDouble();
		boolean met = atMost ? ratio <= bound : ratio >= bound;
		rows.add("| %s | %s vs %s = %.2fx | %s |".formatted(target, format(metric, mine.getAsDouble()),
				format(metric, theirs.getAsDouble()), ratio,
				met ? "met" : "**missed by %s**".formatted(percent(Math.abs(ratio - bound) / bound))));
	}

	private static void absoluteTarget(List<String> rows, Results results, Metric metric, int size, String target,
			double bound, boolean strictly) {
		for (Implementation implementation : Implementation.values()) {
			OptionalDouble median = results.median(metric, size, implementation);
			if (median.isPresent()) {
				double value = median.getAsDouble();
				boolean met = strictly ? value < bound : value <= bound;
				rows.add("| %s, %s | %s ms | %s |".formatted(target, implementation.id(), format(metric, value),
						met ? "met" : "**missed by %s ms (%s)**".formatted(format(metric, value - bound),
								percent((value - bound) / bound))));
			}
		}
	}

	private static String percent(double fraction) {
		double percent = fraction * 100;
		return ((percent < 1) ? "%.1f%%" : "%.0f%%").formatted(percent);
	}

	private static void everyRun(StringBuilder out, Results results, List<String> carriedRows) {
		out.append("## Every run\n\nIn the order measured (runs alternate between the implementations).\n\n");
		out.append("| scenario | N | metric | implementation | values |\n|---|---|---|---|---|\n");
		results.all()
			.forEach((key,
					byImplementation) -> byImplementation.forEach((implementation,
							values) -> out.append("| %s | %d | %s | %s | %s |\n".formatted(key.metric().scenario(),
									key.size(), key.metric().name(), implementation.id(),
									values.stream()
										.map((value) -> format(key.metric(), value))
										.collect(Collectors.joining(", "))))));
		carriedRows.forEach((row) -> out.append(row).append('\n'));
		out.append('\n');
	}

	static String duration(Duration duration) {
		return (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
	}

	static String format(Metric metric, double value) {
		return ("%." + metric.decimals() + "f").formatted(value);
	}

	private static void chart(BenchmarkConfig config, Results results) throws IOException {
		XYChart chart = new XYChartBuilder().width(900)
			.height(560)
			.title("Cold drain: process start to all N statuses written (median)")
			.xAxisTitle("widgets (N)")
			.yAxisTitle("seconds")
			.build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
		chart.getStyler().setMarkerSize(8);
		chart.getStyler().setYAxisMin(0.0);
		for (Implementation implementation : config.implementations()) {
			List<Double> xs = new ArrayList<>();
			List<Double> ys = new ArrayList<>();
			for (int size : config.drainSizes()) {
				OptionalDouble median = results.median(Metric.DRAIN_ALL, size, implementation);
				if (median.isPresent()) {
					xs.add((double) size);
					ys.add(median.getAsDouble() / 1000.0);
				}
			}
			if (!xs.isEmpty()) {
				XYSeries series = chart.addSeries(implementation.label(), xs, ys);
				series.setMarker(SeriesMarkers.CIRCLE);
			}
		}
		Path png = config.outputDir().resolve("drain.png");
		BitmapEncoder.saveBitmap(chart, config.outputDir().resolve("drain").toString(), BitmapEncoder.BitmapFormat.PNG);
		logger.info("Wrote {}", png);
	}

}
