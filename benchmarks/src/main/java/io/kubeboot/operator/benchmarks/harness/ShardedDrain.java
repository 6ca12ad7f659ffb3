package io.kubeboot.operator.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.sharding.ShardRing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sharded scenario ({@code sharded}): our Spring implementation in the label-based
 * sharding mode, with leader election, with 1 replica and with 3, all started at once.
 * <ul>
 * <li>Drain: the replicas drain the widgets of a fresh namespace (the largest drain
 * size); measured from the first spawn, and from the moment the last replica was ready,
 * until every widget's status is written, with each replica's CPU time until then.</li>
 * <li>Heap: the replicas cache and reconcile a larger namespace whose widgets already
 * have their status; once the labels settled and no replica reconciles any more, each
 * replica's heap after full collections, less that of an idle replica (no widget), is
 * what its share of the widgets costs it.</li>
 * </ul>
 */
final class ShardedDrain {

	private static final Logger logger = LoggerFactory.getLogger(ShardedDrain.class);

	static final String SCENARIO = "sharded";

	/** The system property of the heap part's widget count, 10000 by default. */
	static final String HEAP_SIZE_PROPERTY = "benchmark.shardedHeapSize";

	/**
	 * The shard label the sharder writes, for the ring {@code benchmark} (set by
	 * {@code SpringOperatorApplication}).
	 */
	static final String SHARD_LABEL = ShardRing.shardLabel("benchmark");

	static final String DRAIN_LABEL = ShardRing.drainLabel("benchmark");

	private static final List<Integer> REPLICAS = List.of(1, 3);

	private final BenchmarkConfig config;

	private final Cluster cluster;

	private final Results results;

	private final ChildJdk jdk;

	private final int drainSize;

	private final int heapSize;

	/** Per replica count, one entry per run. */
	private final Map<Integer, List<DrainRun>> drains = new TreeMap<>();

	/**
	 * Heaps after full GC in bytes, per replica count, one list (per replica) per run.
	 */
	private final Map<Integer, List<List<Double>>> heaps = new TreeMap<>();

	/**
	 * Widgets live in each replica's heap (its class histogram), per replica count, last
	 * run.
	 */
	private final Map<Integer, List<Long>> widgetsInHeap = new TreeMap<>();

	private final List<Double> idleHeaps = new ArrayList<>();

	ShardedDrain(BenchmarkConfig config, Cluster cluster, Results results, ChildJdk jdk) {
		this.config = config;
		this.cluster = cluster;
		this.results = results;
		this.jdk = jdk;
		this.drainSize = config.drainSizes().stream().mapToInt(Integer::intValue).max().orElse(100);
		this.heapSize = config.smoke() ? 200 : Integer.parseInt(System.getProperty(HEAP_SIZE_PROPERTY, "10000"));
	}

	/**
	 * Runs both parts, replica counts alternating run by run, and adds the section to the
	 * results.
	 * @throws Exception if a run fails
	 */
	void run() throws Exception {
		int runs = this.config.smoke() ? 1 : ((this.config.fixedRuns() > 0) ? this.config.fixedRuns() : 3);
		for (int run = 1; run <= runs; run++) {
			for (int replicas : REPLICAS) {
				drain(replicas, run);
			}
		}
		String heapNamespace = "%s-heap-%d".formatted(SCENARIO, this.heapSize);
		this.cluster.createNamespace(heapNamespace);
		logger.info("Sharded: creating {} widgets in {}", this.heapSize, heapNamespace);
		this.cluster.createWidgets(heapNamespace, this.heapSize);
		this.cluster.observeAll(heapNamespace);
		for (int run = 1; run <= runs; run++) {
			idle(run);
			for (int replicas : REPLICAS) {
				heap(heapNamespace, replicas, run);
			}
		}
		// left in place: the control plane goes with the run, and deleting 10,000 widgets
		// at once can outlast the API server's request timeout
		this.results.section(section());
	}

	private void drain(int replicas, int run) throws Exception {
		String namespace = "%s-%d-%d-%d".formatted(SCENARIO, this.drainSize, replicas, run);
		this.cluster.createNamespace(namespace);
		this.cluster.createWidgets(namespace, this.drainSize);
		settle();
		List<ChildProcess> children = new ArrayList<>();
		try {
			for (int i = 1; i <= replicas; i++) {
				children.add(start(namespace, "replica-" + i, namespace + "-replica-" + i));
			}
			long spawned = children.get(0).spawnedAt();
			long drained = awaitDrained(namespace, children);
			List<Double> cpu = new ArrayList<>();
			long lastReady = 0;
			for (ChildProcess child : children) {
				cpu.add(Long.parseLong(child.ask("cpu", Duration.ofSeconds(30))[0]) / 1e6);
				lastReady = Math.max(lastReady, child.awaitTime("ready", Duration.ofSeconds(5)));
			}
			// a widget may still move between replicas that joined late
			awaitSettled(namespace, children, this.drainSize);
			DrainRun result = new DrainRun(drained - spawned, drained - lastReady, cpu, labelled(namespace, replicas));
			this.drains.computeIfAbsent(replicas, (key) -> new ArrayList<>()).add(result);
			logger.info("Sharded drain N={} replicas {} run {}: {}", this.drainSize, replicas, run, result);
		}
		finally {
			for (ChildProcess child : children) {
				child.close();
			}
		}
		this.cluster.deleteWidgets(namespace);
	}

	private void idle(int run) throws Exception {
		String namespace = "%s-idle-%d".formatted(SCENARIO, run);
		this.cluster.createNamespace(namespace);
		try (ChildProcess child = start(namespace, "replica-1", namespace + "-replica-1")) {
			child.await("ready", timeout(this.heapSize));
			settle();
			double heap = heap(child);
			this.idleHeaps.add(heap);
			logger.info("Sharded idle replica run {}: {} MiB after full GC", run, "%.1f".formatted(mebibytes(heap)));
		}
	}

	private void heap(String namespace, int replicas, int run) throws Exception {
		List<ChildProcess> children = new ArrayList<>();
		try {
			for (int i = 1; i <= replicas; i++) {
				children.add(
						start(namespace, "replica-" + i, "%s-%d-%d-replica-%d".formatted(namespace, replicas, run, i)));
			}
			awaitSettled(namespace, children, this.heapSize);
			settle();
			List<Double> replicaHeaps = new ArrayList<>();
			List<Long> widgets = new ArrayList<>();
			for (int i = 0; i < children.size(); i++) {
				replicaHeaps.add(heap(children.get(i)));
				String name = "%s-%d-%d-replica-%d".formatted(namespace, replicas, run, i + 1);
				Path histogram = this.config.workDir().resolve(name + ".histogram.txt");
				Benchmark.classHistogram(this.jdk, children.get(i), histogram);
				widgets.add(instances(histogram, Widget.class.getName()));
				if (this.config.jfr()) {
					// what holds the heap: the old object samples with their paths to GC
					// roots
					Benchmark.jcmd(this.jdk, children.get(i), this.config.workDir().resolve(name + ".roots.txt"),
							"JFR.dump", "path-to-gc-roots=true",
							"filename=" + this.config.workDir().resolve(name + ".roots.jfr"));
				}
			}
			this.heaps.computeIfAbsent(replicas, (key) -> new ArrayList<>()).add(replicaHeaps);
			this.widgetsInHeap.put(replicas, widgets);
			logger.info("Sharded heap N={} replicas {} run {}: {} MiB after full GC", this.heapSize, replicas, run,
					replicaHeaps.stream()
						.map((heap) -> "%.1f".formatted(mebibytes(heap)))
						.collect(Collectors.joining(", ")));
		}
		finally {
			for (ChildProcess child : children) {
				child.close();
			}
		}
	}

	/**
	 * Waits until the replicas wrote as many distinct statuses as there are widgets (a
	 * widget that moved while the replicas joined counts in two) and the API server holds
	 * every status.
	 * @return the time it was seen, in epoch milliseconds
	 */
	private long awaitDrained(String namespace, List<ChildProcess> children) throws Exception {
		long deadline = System.nanoTime() + timeout(this.drainSize).toNanos();
		while (System.nanoTime() - deadline < 0) {
			int written = 0;
			for (ChildProcess child : children) {
				written += Integer.parseInt(child.ask("statuses", Duration.ofSeconds(30))[0]);
			}
			if (written >= this.drainSize && this.cluster.countObserved(namespace) == this.drainSize) {
				return System.currentTimeMillis();
			}
			Thread.sleep(100);
		}
		throw new IllegalStateException("The widgets of " + namespace + " were not drained within "
				+ timeout(this.drainSize).toSeconds() + " s; see the replicas' logs in " + this.config.workDir());
	}

	/**
	 * Waits until every widget is labelled for one of the replicas, with no drain
	 * pending, and no replica began a reconcile for a quiet period.
	 */
	private void awaitSettled(String namespace, List<ChildProcess> children, int size) throws Exception {
		long quiet = this.config.smoke() ? 1000 : 3000;
		long deadline = System.nanoTime() + timeout(size).toNanos();
		while (System.nanoTime() - deadline < 0) {
			Thread.sleep(quiet);
			long now = System.currentTimeMillis();
			boolean idle = true;
			for (ChildProcess child : children) {
				String[] answer = child.ask("reconciles", Duration.ofSeconds(30));
				idle &= Integer.parseInt(answer[0]) > 0 && now - Long.parseLong(answer[1]) >= quiet;
			}
			if (idle && labelled(namespace, children.size()).stream().mapToInt(Integer::intValue).sum() == size
					&& !drainPending(namespace)) {
				return;
			}
		}
		throw new IllegalStateException("The labels of " + namespace + " did not settle within "
				+ timeout(size).toSeconds() + " s; see the replicas' logs in " + this.config.workDir());
	}

	/** The widgets labelled for each replica, {@code replica-1} first. */
	private List<Integer> labelled(String namespace, int replicas) throws Exception {
		Map<String, Integer> counts = new HashMap<>();
		for (Widget widget : this.cluster.list(namespace)) {
			counts.merge(String.valueOf(label(widget, SHARD_LABEL)), 1, Integer::sum);
		}
		List<Integer> labelled = new ArrayList<>();
		for (int i = 1; i <= replicas; i++) {
			labelled.add(counts.getOrDefault("replica-" + i, 0));
		}
		return labelled;
	}

	private boolean drainPending(String namespace) throws Exception {
		return this.cluster.list(namespace).stream().anyMatch((widget) -> label(widget, DRAIN_LABEL) != null);
	}

	private static String label(Widget widget, String key) {
		Map<String, String> labels = widget.getMetadata().getLabels();
		return (labels != null) ? labels.get(key) : null;
	}

	private ChildProcess start(String namespace, String identity, String name) throws Exception {
		Map<String, String> environment = new HashMap<>(this.cluster.clientEnvironment());
		environment.put(ChildSettings.NAMESPACE, namespace);
		environment.put(ChildSettings.PRIORITY_QUEUE, String.valueOf(this.config.priorityQueue()));
		environment.put(ChildSettings.LEASE_NAME, SCENARIO + "-leader");
		environment.put(ChildSettings.SHARDING, "label");
		environment.put(ChildSettings.IDENTITY, identity);
		return ChildProcess.start(Implementation.SPRING, name, environment, this.config, this.jdk, List.of());
	}

	/**
	 * Returns the live instances of a class in a {@code GC.class_histogram}, {@code -1}
	 * if the histogram has no line for it.
	 */
	static long instances(Path histogram, String className) throws IOException {
		for (String line : Files.readAllLines(histogram)) {
			String[] columns = line.strip().split("\\s+");
			if (columns.length >= 4 && columns[0].endsWith(":") && columns[3].equals(className)) {
				return Long.parseLong(columns[1]);
			}
		}
		return -1;
	}

	private static double heap(ChildProcess child) throws Exception {
		child.send("memory");
		return Long.parseLong(child.await("memory", Duration.ofSeconds(60))[0]);
	}

	private static Duration timeout(int size) {
		return Duration.ofSeconds(120).plusMillis(size * 30L);
	}

	private void settle() throws InterruptedException {
		System.gc();
		Thread.sleep(this.config.smoke() ? 500 : 3000);
	}

	private String section() {
		int runs = this.drains.values().stream().mapToInt(List::size).max().orElse(0);
		StringBuilder out = new StringBuilder();
		out.append("## Sharded: label-based sharding with 1 and 3 replicas\n\n");
		out.append(("Scenario `%s`: ours (Spring Boot starter) with `operator.sharding.mode=label` and leader "
				+ "election, all replicas started at once. The replica that leads runs the sharder, which labels "
				+ "each widget with its replica; each replica caches only the widgets labelled for it. Medians "
				+ "of %d runs.\n\n")
			.formatted(SCENARIO, runs));
		out.append(("**Drain of %d widgets**: from the first spawn, and from the moment the last replica was "
				+ "ready, until every widget's status is written; each replica's CPU time until then; the "
				+ "widgets each replica holds once drained (last run).\n\n")
			.formatted(this.drainSize));
		out.append("| replicas | drain (s) | after the last replica was ready (s) | CPU, all replicas (s) | CPU, "
				+ "busiest replica (s) | widgets per replica |\n|---|---|---|---|---|---|\n");
		for (int replicas : REPLICAS) {
			List<DrainRun> runsOf = this.drains.getOrDefault(replicas, List.of());
			if (runsOf.isEmpty()) {
				continue;
			}
			out.append("| %d | %s | %s | %s | %s | %s |\n".formatted(replicas,
					seconds(runsOf.stream().map((r) -> (double) r.drainedMillis).toList()),
					seconds(runsOf.stream().map((r) -> (double) r.afterReadyMillis).toList()),
					seconds(runsOf.stream()
						.map((r) -> r.cpuMillis.stream().mapToDouble(Double::doubleValue).sum())
						.toList()),
					seconds(runsOf.stream()
						.map((r) -> r.cpuMillis.stream().mapToDouble(Double::doubleValue).max().orElse(0))
						.toList()),
					runsOf.get(runsOf.size() - 1).labelled.stream()
						.map(String::valueOf)
						.collect(Collectors.joining(" / "))));
		}
		out.append('\n');
		OptionalDouble idle = Results.median(this.idleHeaps);
		out.append(("**Heap of %d widgets**: each replica's heap after full GC once the labels settled, less an "
				+ "idle replica's (%s MiB: no widget), which is what its share of the widgets costs it.\n\n")
			.formatted(this.heapSize, idle.isPresent() ? "%.1f".formatted(mebibytes(idle.getAsDouble())) : "?"));
		out.append("| replicas | heap above an idle replica, per replica (MiB) | vs 1 replica | widgets in each "
				+ "replica's heap (class histogram, last run) |\n|---|---|---|---|\n");
		Double single = null;
		for (int replicas : REPLICAS) {
			List<List<Double>> above = new ArrayList<>();
			for (List<Double> replicaHeaps : this.heaps.getOrDefault(replicas, List.of())) {
				above.add(replicaHeaps.stream().map((heap) -> heap - idle.orElse(0)).sorted().toList());
			}
			if (above.isEmpty() || idle.isEmpty()) {
				continue;
			}
			double smallest = Results.median(above.stream().map((h) -> h.get(0)).toList()).orElse(0);
			double largest = Results.median(above.stream().map((h) -> h.get(h.size() - 1)).toList()).orElse(0);
			double mean = Results.median(
					above.stream().map((h) -> h.stream().mapToDouble(Double::doubleValue).average().orElse(0)).toList())
				.orElse(0);
			if (replicas == 1) {
				single = mean;
				out.append("| 1 | %.1f | 1.00x | %s |\n".formatted(mebibytes(mean), widgetsInHeap(1)));
			}
			else {
				out.append("| %d | %.1f smallest, %.1f mean, %.1f largest | %s | %s |\n".formatted(replicas,
						mebibytes(smallest), mebibytes(mean), mebibytes(largest),
						(single != null && single > 0) ? "%.2fx smallest, %.2fx mean, %.2fx largest"
							.formatted(smallest / single, mean / single, largest / single) : "",
						widgetsInHeap(replicas)));
			}
		}
		out.append('\n');
		out.append("The largest heap of the 3 is the leader's: its sharder also caches every widget's metadata. "
				+ "On this machine the replicas share two cores with the API server and etcd, so the drain is "
				+ "CPU-bound: 3 replicas cannot drain faster than one, they start 3 JVMs (each compiling the same "
				+ "code) and the sharder adds a label write per widget, so 3 replicas take longer. On a cluster, "
				+ "where each replica has a core of its own and the API server others, a drain would take about "
				+ "the busiest replica's CPU time, until the API server's write rate bounds it.\n\n");
		return out.toString();
	}

	private String widgetsInHeap(int replicas) {
		return this.widgetsInHeap.getOrDefault(replicas, List.of())
			.stream()
			.map(String::valueOf)
			.collect(Collectors.joining(" / "));
	}

	private static String seconds(List<Double> millis) {
		OptionalDouble median = Results.median(millis);
		return median.isPresent() ? "%.1f".formatted(median.getAsDouble() / 1000) : "";
	}

	private static double mebibytes(double bytes) {
		return bytes / (1024 * 1024);
	}

	/**
	 * One drain.
	 *
	 * @param drainedMillis from the first spawn until every status was written
	 * @param afterReadyMillis from the last replica's ready until then
	 * @param cpuMillis each replica's CPU time until then
	 * @param labelled the widgets labelled for each replica once drained
	 */
	private record DrainRun(long drainedMillis, long afterReadyMillis, List<Double> cpuMillis, List<Integer> labelled) {

		@Override
		public String toString() {
			return "drained %d ms (%d ms after the last replica was ready), CPU %s ms, widgets per replica %s"
				.formatted(this.drainedMillis, this.afterReadyMillis,
						this.cpuMillis.stream().map((cpu) -> "%.0f".formatted(cpu)).toList(), this.labelled);
		}

	}

}
