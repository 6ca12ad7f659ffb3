package io.kubeboot.operator.benchmarks.harness;

/**
 * A measured quantity.
 *
 * @param scenario the scenario it belongs to
 * @param name what is measured, with its unit
 * @param lowerIsBetter whether smaller values are better
 * @param decimals the decimal places shown
 */
public record Metric(String scenario, String name, boolean lowerIsBetter, int decimals) {

	public static final Metric DRAIN_FIRST = new Metric("drain", "process start → first reconcile (ms)", true);

	public static final Metric DRAIN_FIRST_WRITE = new Metric("drain", "process start → first status written (ms)",
			true);

	public static final Metric DRAIN_ALL = new Metric("drain", "process start → all statuses written (ms)", true);

	public static final Metric DRAIN_THROUGHPUT = new Metric("drain", "statuses/s after the first reconcile", false);

	public static final Metric DRAIN_CPU = new Metric("drain", "CPU time of the process until drained (ms)", true);

	public static final Metric DRAIN_CPU_JIT = new Metric("drain", "... of it in JIT compiler threads (ms)", true);

	public static final Metric DRAIN_CPU_VM = new Metric("drain", "... of it in the VM thread, serial GC included (ms)",
			true);

	public static final Metric DRAIN_JVM = new Metric("drain", "spawn → JVM start time (ms)", true);

	public static final Metric DRAIN_STARTUP_REQUESTS = new Metric("drain",
			"API requests before the first status write", true);

	public static final Metric DRAIN_REQUESTS = new Metric("drain",
			"API requests until drained besides the N status writes", true);

	public static final Metric DRAIN_RECONCILES = new Metric("drain", "reconciles per object", true, 2);

	public static final Metric LIVE_P50 = new Metric("live", "live change → reconcile latency p50 (ms)", true);

	public static final Metric LIVE_P99 = new Metric("live", "live change → reconcile latency p99 (ms)", true);

	public static final Metric LIVE_MAX = new Metric("live", "live change → reconcile latency max (ms)", true);

	public static final Metric LIVE_CHANGES = new Metric("live", "live changes per run", false);

	public static final Metric LIVE_BACKLOG = new Metric("live", "first reconcile → backlog drained (ms)", true);

	public static final Metric BURST_DRAIN = new Metric("burst", "first create → all statuses written (ms)", true);

	public static final Metric BURST_CREATE = new Metric("burst", "creating all objects took (ms)", true);

	public static final Metric BURST_P50 = new Metric("burst", "create → reconcile latency p50 (ms)", true);

	public static final Metric BURST_P99 = new Metric("burst", "create → reconcile latency p99 (ms)", true);

	public static final Metric MEMORY_HEAP = new Metric("memory", "heap after full GC (MiB)", true, 1);

	public static final Metric MEMORY_RSS = new Metric("memory", "RSS (MiB)", true, 1);

	public static final Metric MEMORY_SLOPE = new Metric("memory", "heap per cached object (bytes)", true);

	public static final Metric FAILOVER_KILL = new Metric("failover",
			"kill -9 of the leader → standby's first reconcile (ms)", true);

	public static final Metric FAILOVER_GRACEFUL = new Metric("failover",
			"SIGTERM of the leader → standby's first reconcile (ms)", true);

	/**
	 * A metric shown as whole numbers.
	 * @param scenario the scenario it belongs to
	 * @param name what is measured, with its unit
	 * @param lowerIsBetter whether smaller values are better
	 */
	public Metric(String scenario, String name, boolean lowerIsBetter) {
		this(scenario, name, lowerIsBetter, 0);
	}

}
