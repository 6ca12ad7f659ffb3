package io.kubeboot.operator.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import io.kubeboot.operator.benchmarks.chaos.ChaosReplicaMain;
import io.kubeboot.operator.benchmarks.child.ChildSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator replicas of a chaos run ({@link ChaosReplicaMain} processes): starts them,
 * each with a new identity ({@code replica-1}, {@code replica-2}, ...) and a journal of
 * its own, kills or stops them, can replace every one that exits on its own, and
 * remembers every process it started, with its journal and when it was seen gone.
 * Thread-safe.
 */
final class ChaosReplicas {

	private static final Logger logger = LoggerFactory.getLogger(ChaosReplicas.class);

	private final Map<String, String> environment;

	private final IntFunction<Map<String, String>> perReplica;

	private final List<String> jvmFlags;

	private final Path workDir;

	private final Map<String, Replica> all = new LinkedHashMap<>();

	private final List<Replica> running = new ArrayList<>();

	private int exitedOnTheirOwn;

	/**
	 * Creates the replica set; nothing starts yet.
	 * @param environment what every replica is given: the {@code BENCH_*} and
	 * {@code CHAOS_*} settings of the run and what it needs to reach the cluster
	 * @param perReplica what the n-th replica started (from 1) is given besides
	 * @param jvmFlags the JVM flags of every replica
	 * @param workDir where the journals and process logs go
	 */
	ChaosReplicas(Map<String, String> environment, IntFunction<Map<String, String>> perReplica, List<String> jvmFlags,
			Path workDir) {
		this.environment = Map.copyOf(environment);
		this.perReplica = perReplica;
		this.jvmFlags = List.copyOf(jvmFlags);
		this.workDir = workDir;
	}

	/**
	 * Returns the settings every replica of a run is given besides its mode's: the
	 * namespace, the Lease timings (of the leader Lease, or of each replica's shard
	 * Lease) and how long a reconcile works.
	 * @param clusterEnvironment what a process needs to reach the cluster
	 * @param namespace the namespace of the widgets and the Leases
	 * @param leaseDuration the lease duration
	 * @param renewDeadline the renew deadline
	 * @param retryPeriod the retry period
	 * @param workTime how long a reconcile works
	 * @return the environment
	 */
	static Map<String, String> environment(Map<String, String> clusterEnvironment, String namespace,
			Duration leaseDuration, Duration renewDeadline, Duration retryPeriod, Duration workTime) {
		Map<String, String> environment = new HashMap<>(clusterEnvironment);
		environment.put(ChildSettings.NAMESPACE, namespace);
		environment.put(ChildSettings.LEASE_DURATION, String.valueOf(leaseDuration.toMillis()));
		environment.put(ChildSettings.RENEW_DEADLINE, String.valueOf(renewDeadline.toMillis()));
		environment.put(ChildSettings.RETRY_PERIOD, String.valueOf(retryPeriod.toMillis()));
		environment.put(ChaosReplicaMain.WORK_MS, String.valueOf(workTime.toMillis()));
		return environment;
	}

	/**
	 * Starts replicas and waits until each has started its manager.
	 * @param count how many
	 * @param timeout how long each may take
	 * @throws Exception if one cannot start
	 */
	void startAll(int count, Duration timeout) throws Exception {
		List<Replica> started = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			started.add(start());
		}
		for (Replica replica : started) {
			replica.process().await("ready", timeout);
		}
	}

	/**
	 * Starts a replica and waits until it has started its manager.
	 * @param timeout how long it may take
	 * @return the replica
	 * @throws Exception if it cannot start
	 */
	Replica startOne(Duration timeout) throws Exception {
		Replica replica = start();
		replica.process().await("ready", timeout);
		return replica;
	}

	/**
	 * Replaces every running replica that is no longer alive, though it was neither
	 * killed nor stopped here, with a new one.
	 * @throws IOException if a replacement cannot be started
	 */
	synchronized void replaceDead() throws IOException {
		for (int i = 0; i < this.running.size(); i++) {
			Replica replica = this.running.get(i);
			if (!replica.process().isAlive()) {
				this.exitedOnTheirOwn++;
				logger.info("Replica exited: replica={}", replica.id());
				this.running.set(i, launch());
			}
		}
	}

	/**
	 * Starts a replica without waiting for it, beside the running ones.
	 * @return the replica
	 * @throws IOException if it cannot be started
	 */
	synchronized Replica start() throws IOException {
		Replica replica = launch();
		this.running.add(replica);
		return replica;
	}

	/**
	 * Returns the running replica of an identity.
	 * @param id the identity
	 * @return the replica, or {@code null} if none of that identity runs
	 */
	synchronized Replica running(String id) {
		return this.running.stream()
			.filter((replica) -> replica.id().equals(id) && replica.process().isAlive())
			.findFirst()
			.orElse(null);
	}

	/**
	 * Returns the replicas running, neither killed nor stopped, in the order started.
	 * @return the replicas
	 */
	synchronized List<Replica> running() {
		return List.copyOf(this.running);
	}

	/**
	 * Kills a replica with {@code SIGKILL} and waits until it is gone; it is not
	 * replaced.
	 * @param replica the replica
	 * @throws InterruptedException if interrupted
	 */
	void kill(Replica replica) throws InterruptedException {
		synchronized (this) {
			this.running.remove(replica);
		}
		replica.process().kill();
		replica.process().awaitExit();
	}

	/**
	 * Asks a replica to stop with {@code SIGTERM} without waiting ({@link #awaitGone}
	 * does); it is not replaced.
	 * @param replica the replica
	 */
	synchronized void terminate(Replica replica) {
		this.running.remove(replica);
		replica.process().terminate();
	}

	/**
	 * Waits until a replica asked to stop is gone, killing it with {@code SIGKILL} after
	 * the grace period.
	 * @param replica the replica
	 * @param grace how long it may take to stop
	 * @throws InterruptedException if interrupted
	 */
	void awaitGone(Replica replica, Duration grace) throws InterruptedException {
		replica.process().stop(grace);
		replica.process().awaitExit();
	}

	/**
	 * Stops every running replica with {@code SIGTERM} (then {@code SIGKILL} after the
	 * grace period) and waits until each is gone.
	 * @param grace how long each may take to stop
	 * @throws InterruptedException if interrupted
	 */
	void stopAll(Duration grace) throws InterruptedException {
		List<Replica> stopping;
		synchronized (this) {
			stopping = List.copyOf(this.running);
			stopping.forEach(this::terminate);
		}
		for (Replica replica : stopping) {
			awaitGone(replica, grace);
		}
	}

	/**
	 * Returns every replica started, in the order started.
	 * @return the replicas
	 */
	synchronized List<Replica> all() {
		return List.copyOf(this.all.values());
	}

	/**
	 * Returns how many replicas were started in all.
	 * @return the count
	 */
	synchronized int started() {
		return this.all.size();
	}

	/**
	 * Returns how many replicas exited without being killed or stopped (a lost Lease
	 * under the {@code exit} policy).
	 * @return the count
	 */
	synchronized int exitedOnTheirOwn() {
		return this.exitedOnTheirOwn;
	}

	private Replica launch() throws IOException {
		int index = this.all.size() + 1;
		String id = "replica-" + index;
		Path journal = this.workDir.resolve("journal-" + id + ".log");
		Map<String, String> own = this.perReplica.apply(index);
		Map<String, String> environment = new HashMap<>(this.environment);
		environment.putAll(own);
		environment.put(ChaosReplicaMain.REPLICA, id);
		environment.put(ChaosReplicaMain.JOURNAL, journal.toString());
		ChildProcess process = ChildProcess.start(ChaosReplicaMain.class, id, environment, this.jvmFlags, false,
				this.workDir);
		Replica replica = new Replica(id, process, journal);
		this.all.put(id, replica);
		logger.info("Replica started: replica={} pid={} settings={}", id, process.pid(), own);
		return replica;
	}

	/**
	 * One operator process.
	 *
	 * @param id its identity
	 * @param process the process
	 * @param journal its journal file
	 */
	record Replica(String id, ChildProcess process, Path journal) {

	}

}
