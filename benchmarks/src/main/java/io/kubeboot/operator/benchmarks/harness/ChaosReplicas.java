package io.kubeboot.operator.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubeboot.operator.benchmarks.chaos.ChaosReplicaMain;
import io.kubeboot.operator.benchmarks.child.ChildSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator replicas of a chaos run: keeps the configured number running, replacing
 * every one that is killed or exits on its own with a new process of a new identity, and
 * remembers every process it started, with its journal and when it was seen gone.
 * Thread-safe.
 */
final class ChaosReplicas {

	private static final Logger logger = LoggerFactory.getLogger(ChaosReplicas.class);

	private final ChaosConfig config;

	private final Map<String, String> environment;

	private final Map<String, Replica> all = new LinkedHashMap<>();

	private final List<Replica> running = new ArrayList<>();

	private final Set<String> killed = new HashSet<>();

	private int exitedOnTheirOwn;

	/**
	 * Creates the replica set; nothing starts yet.
	 * @param config the run's configuration
	 * @param clusterEnvironment what a process needs to reach the cluster
	 * @param namespace the namespace to reconcile and to hold the Lease
	 * @param lease the Lease's name
	 */
	ChaosReplicas(ChaosConfig config, Map<String, String> clusterEnvironment, String namespace, String lease) {
		this.config = config;
		this.environment = new HashMap<>(clusterEnvironment);
		this.environment.put(ChildSettings.NAMESPACE, namespace);
		this.environment.put(ChildSettings.LEASE_NAME, lease);
		this.environment.put(ChildSettings.LEASE_DURATION, String.valueOf(config.leaseDuration().toMillis()));
		this.environment.put(ChildSettings.RENEW_DEADLINE, String.valueOf(config.renewDeadline().toMillis()));
		this.environment.put(ChildSettings.RETRY_PERIOD, String.valueOf(config.retryPeriod().toMillis()));
		this.environment.put(ChaosReplicaMain.WORK_MS, String.valueOf(config.workTime().toMillis()));
	}

	/**
	 * Starts the configured number of replicas and waits until each has started its
	 * manager.
	 * @param timeout how long each may take
	 * @throws Exception if one cannot start
	 */
	void startAll(Duration timeout) throws Exception {
		List<Replica> started = new ArrayList<>();
		synchronized (this) {
			for (int i = 0; i < this.config.replicas(); i++) {
				Replica replica = startOne();
				this.running.add(replica);
				started.add(replica);
			}
		}
		for (Replica replica : started) {
			replica.process().await("ready", timeout);
		}
	}

	/**
	 * Replaces every replica that is no longer alive.
	 * @throws IOException if a replacement cannot be started
	 */
	synchronized void replaceDead() throws IOException {
		for (int i = 0; i < this.running.size(); i++) {
			Replica replica = this.running.get(i);
			if (!replica.process().isAlive()) {
				if (!this.killed.contains(replica.id())) {
					this.exitedOnTheirOwn++;
					logger.info("Replica exited: replica={}", replica.id());
				}
				this.running.set(i, startOne());
			}
		}
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
	 * Kills a replica with {@code SIGKILL}, waits until it is gone and starts its
	 * replacement.
	 * @param replica the replica
	 * @throws Exception if the replacement cannot be started
	 */
	void kill(Replica replica) throws Exception {
		synchronized (this) {
			this.killed.add(replica.id());
		}
		replica.process().kill();
		replica.process().awaitExit();
		replaceDead();
	}

	/**
	 * Stops every running replica with {@code SIGTERM} (then {@code SIGKILL} after the
	 * grace period) and waits until each is gone.
	 * @param grace how long each may take to stop
	 * @throws InterruptedException if interrupted
	 */
	synchronized void stopAll(Duration grace) throws InterruptedException {
		for (Replica replica : this.running) {
			replica.process().terminate();
		}
		for (Replica replica : this.running) {
			replica.process().stop(grace);
			replica.process().awaitExit();
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
	 * Returns how many replicas exited without being killed (a lost Lease under the
	 * {@code exit} policy).
	 * @return the count
	 */
	synchronized int exitedOnTheirOwn() {
		return this.exitedOnTheirOwn;
	}

	private Replica startOne() throws IOException {
		int index = this.all.size() + 1;
		String id = "replica-" + index;
		Path journal = this.config.workDir().resolve("journal-" + id + ".log");
		Map<String, String> environment = new HashMap<>(this.environment);
		environment.put(ChaosReplicaMain.REPLICA, id);
		environment.put(ChaosReplicaMain.JOURNAL, journal.toString());
		environment.put(ChaosReplicaMain.LOST_LEASE, this.config.lostLeaseOf(index));
		ChildProcess process = ChildProcess.start(ChaosReplicaMain.class, id, environment,
				this.config.replicaJvmFlags(), false, this.config.workDir());
		Replica replica = new Replica(id, process, journal);
		this.all.put(id, replica);
		logger.info("Replica started: replica={} pid={} lostLease={}", id, process.pid(),
				this.config.lostLeaseOf(index));
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
