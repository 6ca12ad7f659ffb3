package io.kubeboot.operator.benchmarks.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.benchmarks.chaos.ChaosReplicaMain;
import io.kubeboot.operator.sharding.ShardingConfig;

/**
 * What the sharding run does ({@link ShardingChaosRun}). The full run reads system
 * properties ({@code chaos.*}, {@code chaos.scenario=sharding}); the smoke test uses
 * {@link #smoke(Path)}.
 *
 * @param replicas replicas at the start; the run then scales to one more and to one less
 * @param objects widgets in the namespace
 * @param leaseDuration the lease duration of each replica's shard Lease
 * @param renewDeadline its renew deadline
 * @param retryPeriod its retry period
 * @param workTime how long every reconcile works
 * @param requeueAfter when a replica reconciles a widget again after its last reconcile
 * @param phaseTimeout how long each phase may take to complete before the run gives up
 * @param replicaJvmFlags the JVM flags of every replica
 * @param workDir where journals and process logs go
 */
public record ShardingChaosConfig(ShardingConfig.Mode mode, int replicas, int objects, Duration leaseDuration,
		Duration renewDeadline, Duration retryPeriod, Duration workTime, Duration requeueAfter, Duration phaseTimeout,
		List<String> replicaJvmFlags, Path workDir) {

	/**
	 * How long a graceful stop may take to hand every object over (issue 15).
	 */
	public static final Duration HANDOVER_TARGET = Duration.ofSeconds(2);

	/**
	 * How far each replica's share of the objects may be from a fair one, in shares of
	 * all objects (issue 15: 33% +- 10%, read as percentage points: 23.3% to 43.3% with 3
	 * replicas).
	 */
	public static final double SHARE_TOLERANCE = 0.10;

	public ShardingChaosConfig {
		java.util.Objects.requireNonNull(mode, "mode must not be null");
		if (replicas < 2) {
			throw new IllegalArgumentException("chaos.replicas must be at least 2, was " + replicas);
		}
		if (objects < 1) {
			throw new IllegalArgumentException("chaos.objects must be positive, was " + objects);
		}
	}

	/**
	 * The full run, adjusted by system properties: {@code chaos.shardMode}
	 * ({@code filter} or {@code label}; filter), {@code chaos.replicas} (3),
	 * {@code chaos.objects} (3000), {@code chaos.leaseDurations} (4s,3s,1s),
	 * {@code chaos.workTime} (20ms), {@code chaos.requeueAfter} (5s),
	 * {@code chaos.phaseTimeout} (3m), {@code chaos.workDir} (target/chaos). An empty
	 * value means the default.
	 * @return the configuration
	 */
	public static ShardingChaosConfig fromSystemProperties() {
		List<Duration> lease = BenchmarkConfig.leaseDurations("chaos.leaseDurations",
				ChaosConfig.property("chaos.leaseDurations", "4s,3s,1s"));
		return new ShardingChaosConfig(
				ChaosReplicaMain.shardMode("chaos.shardMode", ChaosConfig.property("chaos.shardMode", "filter")),
				Integer.parseInt(ChaosConfig.property("chaos.replicas", "3")),
				Integer.parseInt(ChaosConfig.property("chaos.objects", "3000")), lease.get(0), lease.get(1),
				lease.get(2), BenchmarkConfig.duration(ChaosConfig.property("chaos.workTime", "0.02s")),
				BenchmarkConfig.duration(ChaosConfig.property("chaos.requeueAfter", "5s")),
				BenchmarkConfig.duration(ChaosConfig.property("chaos.phaseTimeout", "3m")),
				ChaosConfig.REPLICA_JVM_FLAGS,
				Path.of(ChaosConfig.property("chaos.workDir", "target/chaos")).toAbsolutePath());
	}

	/**
	 * The smoke run: 3 replicas, 300 widgets, lease 3s / renew 2s / retry 0.5s, 20 ms of
	 * work, requeued after 1 s, 2 minutes per phase at most.
	 * @param workDir where journals and process logs go
	 * @param mode how the replicas share the widgets
	 * @return the configuration
	 */
	public static ShardingChaosConfig smoke(Path workDir, ShardingConfig.Mode mode) {
		return new ShardingChaosConfig(mode, 3, 300, Duration.ofSeconds(3), Duration.ofSeconds(2),
				Duration.ofMillis(500), Duration.ofMillis(20), Duration.ofSeconds(1), Duration.ofMinutes(2),
				ChaosConfig.REPLICA_JVM_FLAGS, workDir);
	}

	/**
	 * Returns the value of {@code CHAOS_SHARD_MODE} for this run's mode.
	 * @return {@code filter} or {@code label}
	 */
	String modeName() {
		return this.mode.name().toLowerCase(java.util.Locale.ROOT);
	}

	/**
	 * Returns how long the others may take to reconcile the objects of a replica killed
	 * with {@code SIGKILL} (issue 15): lease duration + 2 x retry period.
	 * @return the bound
	 */
	public Duration takeoverTarget() {
		return this.leaseDuration.plus(this.retryPeriod.multipliedBy(2));
	}

}
