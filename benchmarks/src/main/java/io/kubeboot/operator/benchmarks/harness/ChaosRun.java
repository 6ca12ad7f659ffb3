package io.kubeboot.operator.benchmarks.harness;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.kubeboot.operator.benchmarks.chaos.ChaosReplicaMain;
import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Entry;
import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal;
import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.harness.ChaosReplicas.Replica;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.test.ControlPlane;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Lease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chaos run (RELIABILITY.md, "Chaos run"): operator replicas with leader election
 * reconcile widgets whose specs keep changing while, at random times, the API server is
 * restarted (etcd keeps running) or the leader is killed with {@code SIGKILL} and
 * replaced. Then the faults stop, every widget must converge, and the replicas' journals
 * must show at most one leader per term and never two reconciles of one object at once.
 */
public final class ChaosRun {

	/**
	 * The namespace of the widgets and of the Lease.
	 */
	static final String NAMESPACE = "chaos";

	/**
	 * The Lease the replicas elect a leader on.
	 */
	static final String LEASE = "chaos-leader";

	private static final Logger logger = LoggerFactory.getLogger(ChaosRun.class);

	private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

	private static final Duration STOP_GRACE = Duration.ofSeconds(30);

	private final ChaosConfig config;

	private final ControlPlane controlPlane;

	private final Cluster cluster;

	private final Random random;

	private final Map<Integer, Set<String>> leaseHolders = new ConcurrentHashMap<>();

	private final Map<String, Integer> faults = Collections.synchronizedMap(new HashMap<>());

	private volatile boolean watchingLease = true;

	private volatile boolean keeping = true;

	/**
	 * Creates a run on a running control plane.
	 * @param config what to run
	 * @param controlPlane a control plane of its own (the run restarts its API server);
	 * the run does not close it
	 */
	public ChaosRun(ChaosConfig config, ControlPlane controlPlane) {
		this.config = config;
		this.controlPlane = controlPlane;
		this.cluster = new Cluster(controlPlane, Duration.ofSeconds(15));
		this.random = new Random(config.seed());
	}

	/**
	 * Runs the chaos, waits for convergence and checks the journals.
	 * @return the report; {@link ChaosReport#passed()} tells whether every check passed
	 * @throws Exception if the run itself could not be carried out
	 */
	public ChaosReport run() throws Exception {
		ChaosReport.Builder report = new ChaosReport.Builder(this.config);
		RunFacts.atStart().forEach(report::environment);
		RunFacts.prepareWorkDir(this.config.workDir());
		this.cluster.installCrd();
		report.environment("kube-apiserver", this.cluster.serverVersion() + " with etcd, local, no fsync");
		this.cluster.createNamespace(NAMESPACE);
		this.cluster.createWidgets(NAMESPACE, this.config.objects());
		List<String> names = new ArrayList<>();
		for (int index = 0; index < this.config.objects(); index++) {
			names.add("widget-%05d".formatted(index));
		}
		Map<String, String> environment = ChaosReplicas.environment(this.cluster.clientEnvironment(), NAMESPACE,
				this.config.leaseDuration(), this.config.renewDeadline(), this.config.retryPeriod(),
				this.config.workTime());
		environment.put(ChildSettings.LEASE_NAME, LEASE);
		ChaosReplicas replicas = new ChaosReplicas(environment,
				(index) -> Map.of(ChaosReplicaMain.LOST_LEASE, this.config.lostLeaseOf(index)),
				this.config.replicaJvmFlags(), this.config.workDir());
		ChaosDriver driver = new ChaosDriver(this.cluster, NAMESPACE, names, this.config.updatesPerSecond(),
				this.config.seed());
		Thread leaseWatcher = daemon("chaos-lease-watcher", this::watchLease);
		Thread keeper = daemon("chaos-replica-keeper", () -> keep(replicas));
		try {
			replicas.startAll(this.config.replicas(), START_TIMEOUT);
			leaseWatcher.start();
			keeper.start();
			logger.info("Chaos started: replicas={} objects={} duration={} faultInterval={} seed={}",
					this.config.replicas(), this.config.objects(), this.config.duration(), this.config.faultInterval(),
					this.config.seed());
			long started = System.nanoTime();
			driver.start();
			injectFaults(replicas, started + this.config.duration().toNanos());
			driver.stop();
			long chaosEnded = System.nanoTime();
			report.chaos(Duration.ofNanos(chaosEnded - started), driver.updates(), driver.retries(),
					Map.copyOf(this.faults));
			logger.info("Chaos stopped, waiting for every widget to converge: updates={} faults={}", driver.updates(),
					this.faults);
			report.convergedAfter(awaitConvergence(names, driver, chaosEnded));
		}
		finally {
			this.keeping = false;
			keeper.join();
			replicas.stopAll(STOP_GRACE);
			this.watchingLease = false;
			leaseWatcher.join();
		}
		report.environment("load average at the end (1/5/15 min)", RunFacts.loadAverage());
		report.replicas(replicas.started(), replicas.exitedOnTheirOwn(), this.leaseHolders.keySet().size());
		report.finalState(finalState(names, driver));
		report.journals(analyse(replicas));
		return report.build();
	}

	private void injectFaults(ChaosReplicas replicas, long deadline) throws Exception {
		List<Fault> bag = new ArrayList<>();
		while (true) {
			long pause = (long) (this.config.faultInterval().toNanos() * (0.5 + this.random.nextDouble()));
			if (System.nanoTime() + pause - deadline > 0) {
				long left = deadline - System.nanoTime();
				if (left > 0) {
					TimeUnit.NANOSECONDS.sleep(left);
				}
				return;
			}
			TimeUnit.NANOSECONDS.sleep(pause);
			if (bag.isEmpty()) {
				bag.addAll(List.of(Fault.values()));
				Collections.shuffle(bag, this.random);
			}
			switch (bag.remove(0)) {
				case API_SERVER_RESTART -> restartApiServer();
				case LEADER_KILL -> killLeader(replicas);
			}
		}
	}

	private void restartApiServer() throws InterruptedException {
		boolean kill = this.random.nextBoolean();
		long down = (long) (this.random.nextDouble() * 2 * this.config.leaseDuration().toMillis());
		logger.info("Fault: API server {}, down for {} ms before it starts again", kill ? "killed" : "stopped", down);
		if (kill) {
			this.controlPlane.killApiServer();
		}
		else {
			this.controlPlane.stopApiServer();
		}
		Thread.sleep(down);
		this.controlPlane.startApiServer();
		count(kill ? "API server restarts (SIGKILL)" : "API server restarts (SIGTERM)");
		logger.info("API server is back");
	}

	private void killLeader(ChaosReplicas replicas) throws Exception {
		long deadline = System.nanoTime() + this.config.leaseDuration().multipliedBy(3).plusSeconds(10).toNanos();
		while (System.nanoTime() - deadline < 0) {
			String holder = holder();
			Replica leader = (holder != null) ? replicas.running(holder) : null;
			if (leader != null) {
				logger.info("Fault: killing the leader: replica={}", leader.id());
				replicas.kill(leader);
				replicas.start();
				count("leader kills (SIGKILL)");
				return;
			}
			Thread.sleep(200);
		}
		logger.info("Fault skipped: no running replica held the Lease");
		count("leader kills skipped (no leader)");
	}

	private String holder() {
		try {
			V1Lease lease = this.cluster.lease(NAMESPACE, LEASE);
			return (lease.getSpec() != null) ? lease.getSpec().getHolderIdentity() : null;
		}
		catch (ApiException ex) {
			return null;
		}
	}

	private void watchLease() {
		while (this.watchingLease) {
			try {
				V1Lease lease = this.cluster.lease(NAMESPACE, LEASE);
				String holder = lease.getSpec().getHolderIdentity();
				Integer transitions = lease.getSpec().getLeaseTransitions();
				if (holder != null && !holder.isEmpty() && transitions != null) {
					this.leaseHolders.computeIfAbsent(transitions, (key) -> ConcurrentHashMap.newKeySet()).add(holder);
				}
			}
			catch (ApiException | RuntimeException ex) {
				// no Lease yet, or no API server: look again
			}
			sleep(200);
		}
	}

	private void keep(ChaosReplicas replicas) {
		while (this.keeping) {
			try {
				replicas.replaceDead();
			}
			catch (Exception ex) {
				logger.error("Cannot replace a replica", ex);
			}
			sleep(250);
		}
	}

	private Duration awaitConvergence(List<String> names, ChaosDriver driver, long since) throws InterruptedException {
		long deadline = since + this.config.convergeTimeout().toNanos();
		while (true) {
			FinalState state = null;
			try {
				state = finalState(names, driver);
			}
			catch (ApiException ex) {
				// the API server may still be starting
			}
			if (state != null && state.converged() == names.size()) {
				Duration after = Duration.ofNanos(System.nanoTime() - since);
				logger.info("Every widget converged: after={}", after);
				return after;
			}
			if (System.nanoTime() - deadline > 0) {
				logger.error("Widgets did not converge within {}: {}", this.config.convergeTimeout(), state);
				return null;
			}
			Thread.sleep(1000);
		}
	}

	private FinalState finalState(List<String> names, ChaosDriver driver) throws ApiException {
		Map<String, Integer> indexes = new HashMap<>();
		for (int index = 0; index < names.size(); index++) {
			indexes.put(names.get(index), index);
		}
		int converged = 0;
		int specLost = 0;
		int statusBehind = 0;
		List<String> examples = new ArrayList<>();
		for (Widget widget : this.cluster.list(NAMESPACE)) {
			Integer index = indexes.get(widget.getMetadata().getName());
			if (index == null) {
				continue;
			}
			long expected = driver.expected(index);
			Long spec = (widget.getSpec() != null && widget.getSpec().getValue() != null) ? widget.getSpec().getValue()
					: 0L;
			Long status = (widget.getStatus() != null) ? widget.getStatus().getObservedValue() : null;
			if (spec != expected) {
				specLost++;
				example(examples, widget, expected, spec, status);
			}
			else if (!Objects.equals(status, spec)) {
				statusBehind++;
				example(examples, widget, expected, spec, status);
			}
			else {
				converged++;
			}
		}
		return new FinalState(names.size(), converged, specLost, statusBehind, examples);
	}

	private static void example(List<String> examples, Widget widget, long expected, Long spec, Long status) {
		if (examples.size() < 10) {
			examples.add("%s: last written %d, spec.value %s, status.observedValue %s"
				.formatted(widget.getMetadata().getName(), expected, spec, status));
		}
	}

	private JournalAnalysis analyse(ChaosReplicas replicas) throws Exception {
		Map<String, List<Entry>> journals = new HashMap<>();
		Map<String, Long> diedAt = new HashMap<>();
		for (Replica replica : replicas.all()) {
			journals.put(replica.id(),
					Files.exists(replica.journal()) ? ReconcileJournal.read(replica.journal()) : List.of());
			diedAt.put(replica.id(), replica.process().exitedAt());
		}
		return JournalAnalysis.analyse(journals, diedAt, this.leaseHolders);
	}

	private void count(String fault) {
		this.faults.merge(fault, 1, Integer::sum);
	}

	private static Thread daemon(String name, java.lang.Runnable body) {
		Thread thread = new Thread(body, name);
		thread.setDaemon(true);
		return thread;
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private enum Fault {

		API_SERVER_RESTART, LEADER_KILL

	}

	/**
	 * The widgets as the API server has them.
	 *
	 * @param objects widgets expected
	 * @param converged widgets whose spec and status show the value last written
	 * @param specLost widgets whose {@code spec.value} is not the value last written
	 * @param statusBehind widgets whose {@code status.observedValue} differs from
	 * {@code spec.value}
	 * @param examples some widgets that have not converged
	 */
	record FinalState(int objects, int converged, int specLost, int statusBehind, List<String> examples) {

	}

}
