package io.kubeboot.operator.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.child.Probe;
import io.kubeboot.operator.benchmarks.child.Workload;
import io.kubeboot.operator.test.ControlPlane;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the scenarios against a control plane, alternating the implementations run by run,
 * and writes the report. Creating objects is setup and never measured; every measured
 * time is taken by the process that observes the event (the operator reports its own
 * first reconcile and its N-th status write in epoch milliseconds; the harness takes the
 * time just before it spawns, kills or creates).
 */
public final class Benchmark {

	private static final Logger logger = LoggerFactory.getLogger(Benchmark.class);

	private static final Duration STOP_GRACE = Duration.ofSeconds(45);

	/**
	 * The longest wait for an operator to stop reconciling after a drain.
	 */
	private static final Duration SETTLE_DEADLINE = Duration.ofSeconds(60);

	/**
	 * Live changes are made while fewer than this share of the backlog has its status.
	 */
	private static final double LIVE_WINDOW = 0.8;

	/**
	 * The most live changes in one run.
	 */
	private static final int MAX_LIVE_CHANGES = 200;

	private final BenchmarkConfig config;

	private final Cluster cluster;

	private final Results results = new Results();

	private final ChildJdk jdk;

	private AotCache aotCache;

	private final ApiAudit audit;

	private final Map<Implementation, Map<String, Integer>> requests = new LinkedHashMap<>();

	/**
	 * Creates a benchmark on a running control plane.
	 * @param config what to run
	 * @param controlPlane the control plane; the benchmark does not close it
	 */
	public Benchmark(BenchmarkConfig config, ControlPlane controlPlane) {
		this.config = config;
		this.cluster = new Cluster(controlPlane);
		this.jdk = ChildJdk.fromProperty(config.javaHome().toString());
		this.audit = ApiAudit.of(controlPlane);
	}

	/**
	 * Starts the control plane a benchmark runs against, its API server writing the audit
	 * log that counts each operator's requests.
	 * @param workDir the benchmark's work directory, where the log goes
	 * @return the control plane
	 * @throws IOException if the audit policy cannot be written
	 */
	public static ControlPlane startControlPlane(Path workDir) throws IOException {
		return ApiAudit.startControlPlane(workDir);
	}

	/**
	 * Runs the selected scenarios and writes the report into the output directory:
	 * {@code BENCHMARKS.md} for a full run, {@code results.md} for the smoke run, and
	 * {@code drain.png} when the cold drain ran.
	 * @return the results
	 * @throws Exception if a scenario fails
	 */
	public Results run() throws Exception {
		Files.createDirectories(this.config.outputDir());
		Files.createDirectories(this.config.workDir());
		describeEnvironment();
		this.cluster.installCrd();
		if (this.config.implementations().contains(Implementation.SPRING_AOT)) {
			trainAotCache();
		}
		if (!this.config.smoke()) {
			warmUp();
		}
		if (this.config.runs("drain")) {
			coldDrain();
		}
		if (this.config.runs("live")) {
			liveChanges();
		}
		if (this.config.runs("burst")) {
			burst();
		}
		if (this.config.runs("memory")) {
			memory();
		}
		if (this.config.runs("failover")) {
			failover();
		}
		if (this.config.runs(CacheMemory.SCENARIO)) {
			new CacheMemory(this.config, this.cluster, this.results, this.jdk).run();
		}
		if (this.config.runs(StreamedLists.SCENARIO)) {
			new StreamedLists(this.config, this.cluster, this.results, this.jdk).run();
		}
		if (this.config.runs(StatusWrites.SCENARIO)) {
			new StatusWrites(this.config, this.cluster, this.results, this.jdk).run();
		}
		if (this.config.runs(ShardedDrain.SCENARIO)) {
			new ShardedDrain(this.config, this.cluster, this.results, this.jdk).run();
		}
		if (this.config.runs("jmh")) {
			MicroBenchmarks.run(this.config, this.results);
		}
		this.results.environment("load average at the end (1/5/15 min)", loadAverage());
		this.results.environment("finished", now());
		Report.write(this.config, this.results);
		return this.results;
	}

	private void describeEnvironment() throws Exception {
		this.results.environment("date", now());
		this.results.environment("CPUs (nproc)", String.valueOf(Runtime.getRuntime().availableProcessors()));
		this.results.environment("memory", memTotal());
		this.results.environment("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
				+ System.getProperty("os.arch"));
		this.results.environment("JDK of the harness", ChildJdk.harness().description());
		this.results.environment("JDK of the operator processes",
				this.jdk.description() + " at " + this.jdk.home() + ((this.jdk.home().equals(ChildJdk.harness().home()))
						? " (the harness's)" : " (-D" + ChildJdk.PROPERTY + ")"));
		this.results.environment("operator class path", OperatorClassPath.get().describe());
		this.results.environment("kube-apiserver", this.cluster.serverVersion() + " with etcd, local, no fsync");
		this.results.environment("operator JVM flags", String.join(" ", this.config.childJvmFlags()));
		this.results.environment("workers per operator", String.valueOf(Workload.WORKERS));
		if (this.config.implementations().contains(Implementation.JOSDK)) {
			this.results.environment("JOSDK", JosdkClassPath.describe());
		}
		this.results.environment("load average at the start (1/5/15 min)", loadAverage());
		logger.info("Benchmark environment: {}", this.results.environment());
	}

	/**
	 * Writes the class-data archive of {@link Implementation#SPRING_AOT} with one
	 * training run, or records why it is skipped.
	 */
	private void trainAotCache() throws Exception {
		String unavailable = AotCache.unavailable(OperatorClassPath.get());
		if (unavailable != null) {
			this.results.skip(Implementation.SPRING_AOT, unavailable);
			logger.warn("Skipping {}: {}", Implementation.SPRING_AOT.id(), unavailable);
			return;
		}
		this.aotCache = AotCache.train(this.jdk, OperatorClassPath.get(), this.config.childJvmFlags(),
				this.config.workDir());
		this.results.environment("class-data archive of " + Implementation.SPRING_AOT.id(), this.aotCache.describe());
	}

	/**
	 * Returns the selected implementations that run, in the order runs alternate.
	 */
	private List<Implementation> implementations() {
		Map<Implementation, String> skipped = this.results.skipped();
		return this.config.implementations().stream().filter((each) -> !skipped.containsKey(each)).toList();
	}

	/**
	 * Warms up the API server, etcd, the harness's own JIT and the page cache holding the
	 * jars: creates, observes and deletes 1,000 widgets, then runs one unrecorded cold
	 * drain of 200 widgets per implementation.
	 */
	private void warmUp() throws Exception {
		this.cluster.createNamespace("warm-up");
		this.cluster.createWidgets("warm-up", 1000);
		this.cluster.observeAll("warm-up");
		this.cluster.deleteWidgets("warm-up");
		for (Implementation implementation : implementations()) {
			coldDrainRun(200, 0, implementation, false);
		}
		logger.info("Warmed up");
	}

	private void coldDrain() throws Exception {
		for (int size : this.config.drainSizes()) {
			for (int run = 1; run <= this.config.runs(size); run++) {
				for (Implementation implementation : implementations()) {
					coldDrainRun(size, run, implementation, true);
				}
			}
			if (!this.requests.isEmpty()) {
				this.results.section(requestsSection(size));
				this.requests.clear();
			}
		}
	}

	private static int total(Map<String, Integer> requests) {
		return requests.values().stream().mapToInt(Integer::intValue).sum();
	}

	/**
	 * The requests of each implementation's last cold drain of a size, by kind.
	 */
	private String requestsSection(int size) {
		StringBuilder out = new StringBuilder("## API requests of a cold drain of %d\n\n".formatted(size));
		out.append("What each implementation's last cold drain of ")
			.append(size)
			.append(" asked the API server from its spawn until all statuses were written, besides the status "
					+ "writes, from the API server's audit log (`verb resource`, or the path of a discovery "
					+ "request, and how many).\n\n| implementation | requests | by kind |\n|---|---|---|\n");
		this.requests.forEach((implementation,
				counts) -> out.append("| %s | %d | %s |\n".formatted(implementation.id(),
						counts.values().stream().mapToInt(Integer::intValue).sum(),
						counts.entrySet()
							.stream()
							.map((entry) -> "`%s` %d".formatted(entry.getKey(), entry.getValue()))
							.collect(Collectors.joining(", ")))));
		return out.append('\n').toString();
	}

	private void coldDrainRun(int size, int run, Implementation implementation, boolean record) throws Exception {
		String namespace = (record ? "drain-%d-%s-%d" : "warm-up-%d-%s-%d").formatted(size, implementation.id(), run);
		this.cluster.createNamespace(namespace);
		this.cluster.createWidgets(namespace, size);
		settle();
		Duration timeout = timeout(size);
		try (ChildProcess child = start(implementation, namespace,
				settings(namespace).expectedStatuses(size).build())) {
			long first = child.awaitTime("first-reconcile", timeout);
			String[] drainedEvent = child.await("drained", timeout);
			long drained = Long.parseLong(drainedEvent[0]);
			long cpuMillis = Long.parseLong(drainedEvent[2]) / 1_000_000;
			long jvmStart = child.awaitTime("jvm-start", Duration.ofSeconds(5));
			long firstWrite = child.awaitTime("first-status", Duration.ofSeconds(5));
			long spawned = child.spawnedAt();
			if (record) {
				this.results.add(Metric.DRAIN_FIRST, size, implementation, first - spawned);
				this.results.add(Metric.DRAIN_FIRST_WRITE, size, implementation, firstWrite - spawned);
				if (this.audit != null) {
					// status writes are left out of the log, the first one too
					this.results.add(Metric.DRAIN_STARTUP_REQUESTS, size, implementation,
							total(this.audit.count(spawned, firstWrite)));
					Map<String, Integer> requests = this.audit.count(spawned, drained);
					this.results.add(Metric.DRAIN_REQUESTS, size, implementation, total(requests));
					this.requests.put(implementation, requests);
				}
				this.results.add(Metric.DRAIN_ALL, size, implementation, drained - spawned);
				this.results.add(Metric.DRAIN_THROUGHPUT, size, implementation,
						size * 1000.0 / Math.max(1, drained - first));
				this.results.add(Metric.DRAIN_CPU, size, implementation, cpuMillis);
				this.results.add(Metric.DRAIN_CPU_JIT, size, implementation, Long.parseLong(drainedEvent[3]));
				this.results.add(Metric.DRAIN_CPU_VM, size, implementation, Long.parseLong(drainedEvent[4]));
				this.results.add(Metric.DRAIN_JVM, size, implementation, jvmStart - spawned);
				int reconciles = settledReconciles(child);
				this.results.add(Metric.DRAIN_RECONCILES, size, implementation, (double) reconciles / size);
				logger.info("Cold drain N={} run {} {}: {} reconciles after settling", size, run, implementation.id(),
						reconciles);
			}
			logger.info("Cold drain N={} run {} {}: first reconcile {} ms, all statuses {} ms", size, run,
					implementation.id(), first - spawned, drained - spawned);
		}
		verifyAndDelete(namespace, size);
	}

	/**
	 * Waits until an operator has begun no reconcile for a quiet period (the status
	 * writes of a drain come back on the watch and may reconcile objects again), at most
	 * {@link #SETTLE_DEADLINE}, and returns how many reconciles it began in all.
	 */
	private int settledReconciles(ChildProcess child) throws InterruptedException {
		long quiet = this.config.smoke() ? 1000 : 2000;
		long deadline = System.currentTimeMillis() + SETTLE_DEADLINE.toMillis();
		while (true) {
			String[] answer = child.ask("reconciles", Duration.ofSeconds(30));
			int count = Integer.parseInt(answer[0]);
			long now = System.currentTimeMillis();
			long idle = now - Long.parseLong(answer[1]);
			if (idle >= quiet || !child.isAlive()) {
				return count;
			}
			if (now >= deadline) {
				logger.warn("{} still reconciles {} s after the drain; counting {} reconciles", child,
						SETTLE_DEADLINE.toSeconds(), count);
				return count;
			}
			Thread.sleep(Math.min(quiet - idle, deadline - now));
		}
	}

	private void liveChanges() throws Exception {
		for (int size : this.config.liveSizes()) {
			for (int run = 1; run <= this.config.runs(size); run++) {
				for (Implementation implementation : operators()) {
					liveChangeRun(size, run, implementation);
				}
			}
		}
	}

	/**
	 * N widgets exist and the operator is spawned, as in the cold drain. From its first
	 * reconcile on, while fewer than {@link #LIVE_WINDOW} of the widgets have their
	 * status, the harness creates a widget named {@code live-...} every interval; the
	 * operator reports the time from each create to the start of its reconcile.
	 */
	private void liveChangeRun(int size, int run, Implementation implementation) throws Exception {
		String namespace = "live-%d-%s-%d".formatted(size, implementation.id(), run);
		this.cluster.createNamespace(namespace);
		this.cluster.createWidgets(namespace, size);
		settle();
		Duration timeout = timeout(size);
		Duration interval = Duration.ofMillis(this.config.smoke() ? 50 : 200);
		int changes = 0;
		try (ChildProcess child = start(implementation, namespace,
				settings(namespace).expectedStatuses(size).build())) {
			long first = child.awaitTime("first-reconcile", timeout);
			do {
				this.cluster.createWidget(namespace, Probe.LIVE_PREFIX + "%03d".formatted(changes));
				changes++;
				Thread.sleep(interval.toMillis());
			}
			while (changes < MAX_LIVE_CHANGES
					&& Integer.parseInt(child.ask("statuses", Duration.ofSeconds(30))[0]) < size * LIVE_WINDOW);
			long drained = child.awaitTime("drained", timeout);
			long[] latencies = new long[changes];
			for (int i = 0; i < changes; i++) {
				latencies[i] = Long.parseLong(child.await("live", timeout)[1]);
			}
			Arrays.sort(latencies);
			this.results.add(Metric.LIVE_P50, size, implementation, Probe.percentile(latencies, 0.50));
			this.results.add(Metric.LIVE_P99, size, implementation, Probe.percentile(latencies, 0.99));
			this.results.add(Metric.LIVE_MAX, size, implementation, latencies[changes - 1]);
			this.results.add(Metric.LIVE_CHANGES, size, implementation, changes);
			this.results.add(Metric.LIVE_BACKLOG, size, implementation, drained - first);
			logger.info(
					"Live changes during a cold drain N={} run {} {}: {} changes, latency p50 {} ms p99 {} ms "
							+ "max {} ms; backlog drained {} ms after the first reconcile",
					size, run, implementation.id(), changes, Probe.percentile(latencies, 0.50),
					Probe.percentile(latencies, 0.99), latencies[changes - 1], drained - first);
		}
		verifyAndDelete(namespace, size + changes);
	}

	private void burst() throws Exception {
		for (int size : this.config.burstSizes()) {
			for (int run = 1; run <= this.config.runs(size); run++) {
				for (Implementation implementation : operators()) {
					burstRun(size, run, implementation);
				}
			}
		}
	}

	private void burstRun(int size, int run, Implementation implementation) throws Exception {
		String namespace = "burst-%d-%s-%d".formatted(size, implementation.id(), run);
		this.cluster.createNamespace(namespace);
		Duration timeout = timeout(size);
		try (ChildProcess child = start(implementation, namespace,
				settings(namespace).expectedStatuses(size).build())) {
			child.await("ready", timeout);
			settle();
			long start = System.currentTimeMillis();
			this.cluster.createWidgets(namespace, size);
			long created = System.currentTimeMillis();
			long drained = child.awaitTime("drained", timeout);
			String[] latency = child.await("latency", Duration.ofSeconds(10));
			this.results.add(Metric.BURST_DRAIN, size, implementation, drained - start);
			this.results.add(Metric.BURST_CREATE, size, implementation, created - start);
			this.results.add(Metric.BURST_P50, size, implementation, Double.parseDouble(latency[1]));
			this.results.add(Metric.BURST_P99, size, implementation, Double.parseDouble(latency[2]));
			logger.info(
					"Burst N={} run {} {}: drained {} ms after the first create (creating took {} ms), "
							+ "latency p50 {} ms p99 {} ms",
					size, run, implementation.id(), drained - start, created - start, latency[1], latency[2]);
		}
		verifyAndDelete(namespace, size);
	}

	private void memory() throws Exception {
		List<Integer> sizes = this.config.memorySizes();
		for (int size : sizes) {
			String namespace = "memory-%d".formatted(size);
			this.cluster.createNamespace(namespace);
			this.cluster.createWidgets(namespace, size);
			this.cluster.observeAll(namespace);
		}
		describeWidgets("memory-%d".formatted(sizes.get(0)));
		for (int run = 1; run <= this.config.memoryRuns(); run++) {
			for (int size : sizes) {
				for (Implementation implementation : operators()) {
					memoryRun(size, run, implementation);
				}
			}
		}
		if (sizes.size() >= 2) {
			int small = sizes.get(0);
			int large = sizes.get(sizes.size() - 1);
			for (Implementation implementation : operators()) {
				List<Double> smallHeaps = this.results.values(Metric.MEMORY_HEAP, small, implementation);
				List<Double> largeHeaps = this.results.values(Metric.MEMORY_HEAP, large, implementation);
				for (int i = 0; i < Math.min(smallHeaps.size(), largeHeaps.size()); i++) {
					double bytes = (largeHeaps.get(i) - smallHeaps.get(i)) * 1024 * 1024 / (large - small);
					this.results.add(Metric.MEMORY_SLOPE, large, implementation, bytes);
				}
			}
		}
	}

	private void memoryRun(int size, int run, Implementation implementation) throws Exception {
		String namespace = "memory-%d".formatted(size);
		Duration timeout = timeout(size);
		try (ChildProcess child = start(implementation, "%s-%s-%d".formatted(namespace, implementation.id(), run),
				settings(namespace).expectedReconciles(size).build())) {
			child.await("ready", timeout);
			child.await("reconciled", timeout);
			settle();
			child.send("memory");
			String[] memory = child.await("memory", Duration.ofSeconds(60));
			double heap = Long.parseLong(memory[0]) / (1024.0 * 1024.0);
			double rss = Long.parseLong(memory[1]) / (1024.0 * 1024.0);
			classHistogram(this.jdk, child, this.config.workDir()
				.resolve("memory-%d-%s-%d.histogram.txt".formatted(size, implementation.id(), run)));
			this.results.add(Metric.MEMORY_HEAP, size, implementation, heap);
			this.results.add(Metric.MEMORY_RSS, size, implementation, rss);
			logger.info("Memory N={} run {} {}: heap {} MiB, RSS {} MiB", size, run, implementation.id(),
					"%.1f".formatted(heap), "%.1f".formatted(rss));
		}
	}

	private void describeWidgets(String namespace) throws Exception {
		JsonObject raw = this.cluster.rawWidget(namespace, this.cluster.list(namespace).get(0).getMetadata().getName());
		JsonElement managedFields = raw.getAsJsonObject("metadata").get("managedFields");
		int entries = (managedFields != null && managedFields.isJsonArray()) ? managedFields.getAsJsonArray().size()
				: 0;
		this.results.environment("a widget as the API server serves it (with status)",
				"%d bytes of JSON, %d of them in %d metadata.managedFields entries".formatted(raw.toString().length(),
						(managedFields != null) ? managedFields.toString().length() : 0, entries));
	}

	/**
	 * Saves {@code jcmd <pid> GC.class_histogram} of a process into the work directory,
	 * to see what its heap holds, with the {@code jcmd} of the JDK it runs on.
	 */
	static void classHistogram(ChildJdk jdk, ChildProcess child, Path file) throws IOException, InterruptedException {
		jcmd(jdk, child, file, "GC.class_histogram");
	}

	/**
	 * Runs {@code jcmd <pid> <command...>} on a process, with the {@code jcmd} of the JDK
	 * it runs on, its output into a file.
	 */
	static void jcmd(ChildJdk jdk, ChildProcess child, Path file, String... command)
			throws IOException, InterruptedException {
		List<String> line = new ArrayList<>(
				List.of(jdk.home().resolve("bin").resolve("jcmd").toString(), String.valueOf(child.pid())));
		line.addAll(List.of(command));
		Process jcmd = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(file.toFile()).start();
		if (!jcmd.waitFor(60, TimeUnit.SECONDS)) {
			jcmd.destroyForcibly();
		}
	}

	private void failover() throws Exception {
		for (int run = 1; run <= this.config.failoverRuns(); run++) {
			for (Implementation implementation : implementations()) {
				if (implementation.isLeaderElectionMeasured()) {
					failoverRun(run, implementation);
				}
			}
		}
	}

	private void failoverRun(int run, Implementation implementation) throws Exception {
		String namespace = "failover-%s-%d".formatted(implementation.id(), run);
		int objects = this.config.failoverObjects();
		this.cluster.createNamespace(namespace);
		this.cluster.createWidgets(namespace, objects);
		Duration timeout = this.config.leaseDuration().plus(timeout(objects));
		Duration observe = this.config.retryPeriod().plusSeconds(1);
		try (ChildProcess leader = start(implementation, namespace + "-a",
				leaderElected(namespace).expectedStatuses(objects).build());
				LazyChild standby = startLater(implementation, namespace + "-b", leaderElected(namespace).build());
				LazyChild next = startLater(implementation, namespace + "-c", leaderElected(namespace).build())) {
			leader.await("drained", timeout);
			standby.start();
			standby.await("ready", timeout);
			Thread.sleep(observe.toMillis());
			long killed = System.currentTimeMillis();
			leader.kill();
			long takeover = standby.awaitTime("first-reconcile", timeout);
			this.results.add(Metric.FAILOVER_KILL, objects, implementation, takeover - killed);

			next.start();
			next.await("ready", timeout);
			Thread.sleep(observe.toMillis());
			long terminated = System.currentTimeMillis();
			standby.terminate();
			long handover = next.awaitTime("first-reconcile", timeout);
			this.results.add(Metric.FAILOVER_GRACEFUL, objects, implementation, handover - terminated);
			logger.info("Failover run {} {}: kill -9 → first reconcile {} ms, SIGTERM → first reconcile {} ms", run,
					implementation.id(), takeover - killed, handover - terminated);
		}
		this.cluster.deleteWidgets(namespace);
	}

	private List<Implementation> operators() {
		return implementations().stream().filter(Implementation::runsBeyondColdDrain).toList();
	}

	private void verifyAndDelete(String namespace, int size) throws Exception {
		int observed = this.cluster.countObserved(namespace);
		if (observed != size) {
			throw new IllegalStateException(
					"Only " + observed + " of " + size + " widgets in " + namespace + " have an up-to-date status");
		}
		this.cluster.deleteWidgets(namespace);
	}

	private ChildProcess start(Implementation implementation, String name, Map<String, String> settings)
			throws IOException {
		List<String> extraFlags = implementation.usesAotCache() ? this.aotCache.runFlags() : List.of();
		return ChildProcess.start(implementation, name, environment(settings), this.config, this.jdk, extraFlags);
	}

	private LazyChild startLater(Implementation implementation, String name, Map<String, String> settings) {
		return new LazyChild(() -> start(implementation, name, settings));
	}

	private Map<String, String> environment(Map<String, String> settings) {
		Map<String, String> environment = new HashMap<>(this.cluster.clientEnvironment());
		environment.putAll(settings);
		return environment;
	}

	private SettingsBuilder settings(String namespace) {
		return new SettingsBuilder(namespace, this.config.priorityQueue());
	}

	private SettingsBuilder leaderElected(String namespace) {
		return settings(namespace).leaderElection("benchmark-leader", this.config.leaseDuration(),
				this.config.renewDeadline(), this.config.retryPeriod());
	}

	private Duration timeout(int size) {
		return Duration.ofSeconds(90).plusMillis(size * 30L);
	}

	private void settle() throws InterruptedException {
		System.gc();
		Thread.sleep(this.config.smoke() ? 500 : 3000);
	}

	private static String now() {
		return ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
	}

	static String loadAverage() {
		try {
			String[] parts = Files.readString(Path.of("/proc/loadavg")).strip().split("\\s+");
			return parts[0] + " / " + parts[1] + " / " + parts[2];
		}
		catch (IOException | RuntimeException ex) {
			return "unknown";
		}
	}

	static String memTotal() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
				if (line.startsWith("MemTotal:")) {
					long kib = Long.parseLong(line.replaceAll("\\D", ""));
					return "%.1f GiB".formatted(kib / 1024.0 / 1024.0);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not Linux
		}
		return "unknown";
	}

	/**
	 * The {@code BENCH_*} environment of one operator process.
	 */
	private static final class SettingsBuilder {

		private final Map<String, String> values = new HashMap<>();

		SettingsBuilder(String namespace, boolean priorityQueue) {
			this.values.put(ChildSettings.NAMESPACE, namespace);
			this.values.put(ChildSettings.PRIORITY_QUEUE, String.valueOf(priorityQueue));
		}

		SettingsBuilder expectedStatuses(int count) {
			this.values.put(ChildSettings.EXPECTED_STATUSES, String.valueOf(count));
			return this;
		}

		SettingsBuilder expectedReconciles(int count) {
			this.values.put(ChildSettings.EXPECTED_RECONCILES, String.valueOf(count));
			return this;
		}

		SettingsBuilder leaderElection(String lease, Duration duration, Duration renew, Duration retry) {
			this.values.put(ChildSettings.LEASE_NAME, lease);
			this.values.put(ChildSettings.LEASE_DURATION, String.valueOf(duration.toMillis()));
			this.values.put(ChildSettings.RENEW_DEADLINE, String.valueOf(renew.toMillis()));
			this.values.put(ChildSettings.RETRY_PERIOD, String.valueOf(retry.toMillis()));
			return this;
		}

		Map<String, String> build() {
			return Map.copyOf(this.values);
		}

	}

	/**
	 * A process started on demand, so that try-with-resources stops it whether or not it
	 * was started.
	 */
	private static final class LazyChild implements AutoCloseable {

		private final Starter starter;

		private ChildProcess process;

		LazyChild(Starter starter) {
			this.starter = starter;
		}

		void start() throws IOException {
			this.process = this.starter.start();
		}

		String[] await(String event, Duration timeout) throws InterruptedException {
			return this.process.await(event, timeout);
		}

		long awaitTime(String event, Duration timeout) throws InterruptedException {
			return this.process.awaitTime(event, timeout);
		}

		void terminate() {
			this.process.terminate();
		}

		@Override
		public void close() throws InterruptedException {
			if (this.process != null) {
				this.process.stop(STOP_GRACE);
			}
		}

		@FunctionalInterface
		interface Starter {

			ChildProcess start() throws IOException;

		}

	}

}
