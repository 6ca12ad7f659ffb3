package io.kubeboot.operator.benchmarks.child;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reports what an operator process under test does to the harness, one line per event on
 * standard output: {@code BENCH <event> <values...>}, with times in epoch milliseconds
 * taken the moment the event happens (the harness runs on the same machine, so its clock
 * and the child's agree). Listens on standard input for commands: {@code memory} runs
 * full garbage collections and reports the heap used and the resident set size;
 * {@code reconciles} reports how many reconciles have begun so far; {@code statuses}
 * reports how many distinct objects have had their status written; {@code cpu} reports
 * the process's CPU time in nanoseconds; {@code peak} reports the sum of the heap pools'
 * peak usage since the start and the process's CPU time.
 * <p>
 * Events: {@code jvm-start} (the JVM's own start time), {@code ready} (the framework
 * started; caches synced where the framework has them before it leads),
 * {@code first-reconcile} (the first reconcile began), {@code reconciled} (the expected
 * number of reconciles began), {@code drained} (the expected number of distinct objects
 * have had their status written: time, count and the CPU nanoseconds the process used so
 * far), {@code latency} (count, p50, p99 and max of the creation-to-reconcile latency of
 * those objects, in milliseconds), {@code memory} (heap bytes used after full GC, RSS
 * bytes), {@code reconciles} (the number of reconciles begun and when the last one began;
 * also reported when the process exits, so that a process that has finished can still be
 * asked), {@code statuses} (the number of distinct objects whose status was written),
 * {@code live} (an object named {@code live-...}, created while the operator drains a
 * backlog, had its status written: its namespace/name and the milliseconds from its
 * creation to the start of that reconcile). Live objects do not count toward
 * {@code drained}.
 */
public final class Probe {

	/**
	 * The prefix of every line meant for the harness.
	 */
	public static final String PREFIX = "BENCH ";

	/**
	 * What the names of the objects created during a drain start with.
	 */
	public static final String LIVE_PREFIX = "live-";

	private static final PrintStream out = System.out;

	private final ChildSettings settings;

	private final AtomicBoolean firstReconcile = new AtomicBoolean();

	private final AtomicBoolean firstWrite = new AtomicBoolean();

	private final AtomicInteger reconciles = new AtomicInteger();

	private final AtomicLong lastReconcile = new AtomicLong();

	private final Set<String> written = ConcurrentHashMap.newKeySet();

	private final Set<String> liveWritten = ConcurrentHashMap.newKeySet();

	private final long[] latencies;

	private final AtomicInteger latencyCount = new AtomicInteger();

	private final AtomicBoolean drained = new AtomicBoolean();

	private Probe(ChildSettings settings) {
		this.settings = settings;
		this.latencies = new long[Math.max(settings.expectedStatuses(), 0)];
	}

	/**
	 * Creates the probe of this process, reports the JVM's start time and starts
	 * listening for commands.
	 * @param settings the settings
	 * @return the probe
	 */
	public static Probe start(ChildSettings settings) {
		Probe probe = new Probe(settings);
		report("jvm-start " + ManagementFactory.getRuntimeMXBean().getStartTime());
		Thread commands = new Thread(probe::readCommands, "bench-probe-commands");
		commands.setDaemon(true);
		commands.start();
		Runtime.getRuntime().addShutdownHook(new Thread(probe::reportReconciles, "bench-probe-exit"));
		return probe;
	}

	/**
	 * Returns the settings of this process.
	 * @return the settings
	 */
	public ChildSettings settings() {
		return this.settings;
	}

	/**
	 * Reports that the framework has started.
	 */
	public void ready() {
		report("ready " + System.currentTimeMillis());
	}

	/**
	 * Records the start of a reconcile.
	 * @param now the current time in epoch milliseconds
	 */
	public void reconcileStarted(long now) {
		if (this.firstReconcile.compareAndSet(false, true)) {
			report("first-reconcile " + now);
		}
		this.lastReconcile.accumulateAndGet(now, Math::max);
		int count = this.reconciles.incrementAndGet();
		if (count == this.settings.expectedReconciles()) {
			report("reconciled " + System.currentTimeMillis());
		}
	}

	/**
	 * Records a successful status write.
	 * @param key the object's namespace/name
	 * @param createdAt when its creator sent it, or {@code null}
	 * @param reconcileStartedAt when the reconcile that wrote it began
	 */
	public void statusWritten(String key, Long createdAt, long reconcileStartedAt) {
		if (key.substring(key.indexOf('/') + 1).startsWith(LIVE_PREFIX)) {
			if (this.liveWritten.add(key) && createdAt != null) {
				report("live " + key + " " + (reconcileStartedAt - createdAt));
			}
			return;
		}
		if (!this.written.add(key)) {
			return;
		}
		if (this.firstWrite.compareAndSet(false, true)) {
			report("first-status " + System.currentTimeMillis());
		}
		if (createdAt != null) {
			int index = this.latencyCount.getAndIncrement();
			if (index < this.latencies.length) {
				this.latencies[index] = reconcileStartedAt - createdAt;
			}
		}
		if (this.written.size() >= this.settings.expectedStatuses() && this.settings.expectedStatuses() > 0
				&& this.drained.compareAndSet(false, true)) {
			long now = System.currentTimeMillis();
			long[] threads = threadCpuMillis();
			report("drained " + now + " " + this.written.size() + " " + processCpuNanos() + " " + threads[0] + " "
					+ threads[1]);
			reportLatencies();
		}
	}

	private void reportLatencies() {
		int count = Math.min(this.latencyCount.get(), this.latencies.length);
		if (count == 0) {
			return;
		}
		long[] sorted = Arrays.copyOf(this.latencies, count);
		Arrays.sort(sorted);
		report("latency " + count + " " + percentile(sorted, 0.50) + " " + percentile(sorted, 0.99) + " "
				+ sorted[count - 1]);
	}

	/**
	 * Returns a nearest-rank percentile.
	 * @param sorted the values in ascending order, at least one
	 * @param fraction the percentile as a fraction, e.g. {@code 0.99}
	 * @return the value
	 */
	public static long percentile(long[] sorted, double fraction) {
		int rank = (int) Math.ceil(fraction * sorted.length);
		return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
	}

	private void readCommands() {
		try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
			String line;
			while ((line = in.readLine()) != null) {
				switch (line.strip()) {
					case "memory" -> reportMemory();
					case "reconciles" -> reportReconciles();
					case "statuses" -> report("statuses " + this.written.size());
					case "cpu" -> report("cpu " + processCpuNanos());
					case "peak" -> report("peak " + peakHeapBytes() + " " + processCpuNanos());
					default -> {
					}
				}
			}
		}
		catch (IOException ex) {
			// the harness went away
		}
	}

	private void reportReconciles() {
		report("reconciles " + this.reconciles.get() + " " + this.lastReconcile.get());
	}

	private void reportMemory() {
		try {
			for (int i = 0; i < 3; i++) {
				System.gc();
				Thread.sleep(100);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
		report("memory " + heap + " " + residentSetBytes());
	}

	/**
	 * The sum of the heap pools' peak usage since the start: with the serial collector,
	 * the most its young and old generations each held, garbage included.
	 */
	private static long peakHeapBytes() {
		long peak = 0;
		for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
			if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
				peak += pool.getPeakUsage().getUsed();
			}
		}
		return peak;
	}

	private static long processCpuNanos() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return -1;
	}

	/**
	 * Returns the CPU time of the live JIT compiler threads and of the VM thread (where
	 * the serial collector runs), from {@code /proc/self/task}.
	 * @return milliseconds of JIT compilation and of the VM thread, {@code -1} each if
	 * unknown
	 */
	static long[] threadCpuMillis() {
		long jit = 0;
		long vm = 0;
		try (var tasks = Files.list(Path.of("/proc/self/task"))) {
			for (Path task : tasks.toList()) {
				String name = Files.readString(task.resolve("comm")).strip();
				String stat = Files.readString(task.resolve("stat"));
				// the fields after the parenthesised name: state is field 3, utime 14,
				// stime 15
				String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
				long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
				long millis = ticks * 10; // USER_HZ is 100 on Linux
				if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
					jit += millis;
				}
				else if (name.equals("VM Thread") || name.startsWith("GC ")) {
					vm += millis;
				}
			}
			return new long[] { jit, vm };
		}
		catch (IOException | RuntimeException ex) {
			return new long[] { -1, -1 };
		}
	}

	static long residentSetBytes() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
				if (line.startsWith("VmRSS:")) {
					String[] parts = line.substring("VmRSS:".length()).strip().split("\\s+");
					return Long.parseLong(parts[0]) * 1024;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not Linux
		}
		return -1;
	}

	private static void report(String line) {
		synchronized (out) {
			out.println(PREFIX + line);
			out.flush();
		}
	}

}
