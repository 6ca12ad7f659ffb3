package io.kubeboot.operator.benchmarks.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the leader-election chaos run does ({@link ChaosRun}). The full run reads system
 * properties ({@code chaos.*}); the smoke test uses {@link #smoke(Path)}.
 *
 * @param replicas operator replicas kept running
 * @param objects widgets in the namespace
 * @param duration how long faults are injected and specs updated
 * @param faultInterval the mean time between two faults (each waits between half and one
 * and a half of it)
 * @param seed the seed of every random choice (the faults, their timing, the updates)
 * @param updatesPerSecond spec updates per second, to random widgets
 * @param leaseDuration the replicas' lease duration
 * @param renewDeadline the replicas' renew deadline
 * @param retryPeriod the replicas' retry period
 * @param lostLease what a replica does when it loses the Lease: {@code exit},
 * {@code re-elect}, or {@code mixed} (replicas alternate, the first exits)
 * @param workTime how long a reconcile works before it writes the status
 * @param convergeTimeout how long every widget may take to converge after the chaos
 * @param replicaJvmFlags the JVM flags of every replica
 * @param workDir where journals and process logs go
 */
public record ChaosConfig(int replicas, int objects, Duration duration, Duration faultInterval, long seed,
		int updatesPerSecond, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod, String lostLease,
		Duration workTime, Duration convergeTimeout, List<String> replicaJvmFlags, Path workDir) {

	/**
	 * The JVM flags of every replica: three of them share two cores with the API server,
	 * etcd and the harness.
	 */
	public static final List<String> REPLICA_JVM_FLAGS = List.of("-Xmx256m", "-XX:+UseSerialGC");

	public ChaosConfig {
		if (replicas < 2) {
			throw new IllegalArgumentException("chaos.replicas must be at least 2, was " + replicas);
		}
		if (objects < 1) {
			throw new IllegalArgumentException("chaos.objects must be positive, was " + objects);
		}
		if (updatesPerSecond < 1) {
			throw new IllegalArgumentException("chaos.updateRate must be positive, was " + updatesPerSecond);
		}
		if (!List.of("exit", "re-elect", "mixed").contains(lostLease)) {
			throw new IllegalArgumentException("chaos.lostLease must be exit, re-elect or mixed, was " + lostLease);
		}
	}

	/**
	 * The full run, adjusted by system properties: {@code chaos.replicas} (3),
	 * {@code chaos.objects} (2000), {@code chaos.duration} (10m),
	 * {@code chaos.faultInterval} (30s), {@code chaos.seed} (the current time),
	 * {@code chaos.updateRate} (20 per second), {@code chaos.leaseDurations} (4s,3s,1s),
	 * {@code chaos.lostLease} (mixed), {@code chaos.workTime} (5ms),
	 * {@code chaos.convergeTimeout} (5m), {@code chaos.workDir} (target/chaos). An empty
	 * value means the default.
	 * @return the configuration
	 */
	public static ChaosConfig fromSystemProperties() {
		List<Duration> lease = BenchmarkConfig.leaseDurations("chaos.leaseDurations",
				property("chaos.leaseDurations", "4s,3s,1s"));
		return new ChaosConfig(Integer.parseInt(property("chaos.replicas", "3")),
				Integer.parseInt(property("chaos.objects", "2000")),
				BenchmarkConfig.duration(property("chaos.duration", "10m")),
				BenchmarkConfig.duration(property("chaos.faultInterval", "30s")),
				Long.parseLong(property("chaos.seed", String.valueOf(System.currentTimeMillis()))),
				Integer.parseInt(property("chaos.updateRate", "20")), lease.get(0), lease.get(1), lease.get(2),
				property("chaos.lostLease", "mixed"), BenchmarkConfig.duration(property("chaos.workTime", "0.005s")),
				BenchmarkConfig.duration(property("chaos.convergeTimeout", "5m")), REPLICA_JVM_FLAGS,
				Path.of(property("chaos.workDir", "target/chaos")).toAbsolutePath());
	}

	/**
	 * Returns a system property of the chaos runs; the build passes every one, empty
	 * where the scenario's default applies.
	 * @param name the property
	 * @param defaultValue its value if unset or empty
	 * @return the value
	 */
	static String property(String name, String defaultValue) {
		String value = System.getProperty(name);
		return (value != null && !value.isBlank()) ? value.strip() : defaultValue;
	}

	/**
	 * The smoke run: 3 replicas, 100 widgets, 60 seconds of faults about every 12 seconds
	 * (both kinds), 10 updates per second, lease 4s / renew 3s / retry 1s, a fixed seed.
	 * @param workDir where journals and process logs go
	 * @return the configuration
	 */
	public static ChaosConfig smoke(Path workDir) {
		return smoke(workDir, 31);
	}

	/**
	 * Returns the smoke size with another seed: other fault times and kinds, other
	 * replicas killed.
	 * @param workDir where the replicas' journals and logs go
	 * @param seed the seed of the faults and updates
	 * @return the configuration
	 */
	public static ChaosConfig smoke(Path workDir, long seed) {
		return new ChaosConfig(3, 100, Duration.ofSeconds(60), Duration.ofSeconds(12), seed, 10, Duration.ofSeconds(4),
				Duration.ofSeconds(3), Duration.ofSeconds(1), "mixed", Duration.ofMillis(5), Duration.ofMinutes(3),
				REPLICA_JVM_FLAGS, workDir);
	}

	/**
	 * Returns what the n-th replica started does when it loses the Lease.
	 * @param index the replica's number, from 1
	 * @return {@code exit} or {@code re-elect}
	 */
	String lostLeaseOf(int index) {
		if (!"mixed".equals(this.lostLease)) {
			return this.lostLease;
		}
		return (index % 2 == 1) ? "exit" : "re-elect";
	}

}
