package io.kubeboot.operator.benchmarks.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.kubeboot.operator.benchmarks.chaos.ChaosReplicaMain;
import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Entry;
import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal;
import io.kubeboot.operator.benchmarks.harness.ChaosReplicas.Replica;
import io.kubeboot.operator.benchmarks.harness.ShardJournals.Mark;
import io.kubeboot.operator.benchmarks.harness.ShardingChaosReport.Handover;
import io.kubeboot.operator.benchmarks.harness.ShardingChaosReport.Shares;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.test.ControlPlane;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Lease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sharding run (issue 15's acceptance with operator processes): replicas of
 * {@link ChaosReplicaMain} in sharded mode share the widgets over a shard ring, each
 * reconcile working a while and asking to be called again, and every reconcile's start
 * and end is journaled. Its phases, each measured from the journals:
 * <ol>
 * <li>start: {@code replicas} replicas; every widget reconciled; each replica's share of
 * the widgets in a settled window (every member's Lease acknowledges the same ring, then
 * until every widget was reconciled);</li>
 * <li>{@code kill -9} of a replica: the time until every widget of its share was
 * reconciled by another, against lease duration + 2 x retry period; a replacement
 * joins;</li>
 * <li>{@code SIGTERM} of a replica: the same for a graceful stop, against 2 s; a
 * replacement joins;</li>
 * <li>scale up to one replica more, then down to one fewer than at the start (two stopped
 * at once), each settled.</li>
 * </ol>
 * Then the replicas stop, and their journals must show no widget ever reconciled by two
 * replicas at once. A phase that does not complete within {@code phaseTimeout} ends the
 * run (and fails it).
 */
public final class ShardingChaosRun {

	/**
	 * The namespace of the widgets and of the ring's Leases.
	 */
	static final String NAMESPACE = "chaos";

	/**
	 * The shard ring the replicas join.
	 */
	static final String RING = "chaos-widgets";

	private static final Logger logger = LoggerFactory.getLogger(ShardingChaosRun.class);

	private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

	private static final Duration STOP_GRACE = Duration.ofSeconds(30);

	private static final long POLL_MILLIS = 100;

	private final ShardingChaosConfig config;

	private final Cluster cluster;

	private final ShardJournals journals = new ShardJournals();

	/**
	 * Creates a run on a running control plane.
	 * @param config what to run
	 * @param controlPlane a control plane of its own; the run does not close it
	 */
	public ShardingChaosRun(ShardingChaosConfig config, ControlPlane controlPlane) {
		this.config = config;
		this.cluster = new Cluster(controlPlane, Duration.ofSeconds(15));
	}

	/**
	 * Runs the phases and checks the journals.
	 * @return the report; {@link ShardingChaosReport#failures()} tells whether every
	 * check passed, {@link ShardingChaosReport#missedTargets()} whether the targets were
	 * met
	 * @throws Exception if the run itself could not be carried out
	 */
	public ShardingChaosReport run() throws Exception {
		ShardingChaosReport.Builder report = new ShardingChaosReport.Builder(this.config);
		RunFacts.atStart().forEach(report::environment);
		RunFacts.prepareWorkDir(this.config.workDir());
		this.cluster.installCrd();
		report.environment("kube-apiserver", this.cluster.serverVersion() + " with etcd, local, no fsync");
		this.cluster.createNamespace(NAMESPACE);
		this.cluster.createWidgets(NAMESPACE, this.config.objects());
		Map<String, String> environment = ChaosReplicas.environment(this.cluster.clientEnvironment(), NAMESPACE,
				this.config.leaseDuration(), this.config.renewDeadline(), this.config.retryPeriod(),
				this.config.workTime());
		environment.put(ChaosReplicaMain.SHARD_RING, RING);
		environment.put(ChaosReplicaMain.REQUEUE_MS, String.valueOf(this.config.requeueAfter().toMillis()));
		ChaosReplicas replicas = new ChaosReplicas(environment, (index) -> Map.of(), this.config.replicaJvmFlags(),
				this.config.workDir());
		try {
			phases(replicas, report);
		}
		catch (PhaseNotCompleted ex) {
			logger.error("Sharding run ended early: {}", ex.getMessage());
			report.incomplete(ex.getMessage());
		}
		finally {
			replicas.stopAll(STOP_GRACE);
		}
		report.environment("load average at the end (1/5/15 min)", RunFacts.loadAverage());
		report.replicasStarted(replicas.started());
		report.journals(analyse(replicas));
		return report.build();
	}

	private void phases(ChaosReplicas replicas, ShardingChaosReport.Builder report) throws Exception {
		int count = this.config.replicas();
		Window settled = start(replicas, count, report);
		settled = kill(replicas, settled, report);
		settled = stop(replicas, settled, report);
		replicas.startOne(START_TIMEOUT);
		follow(replicas);
		String phase = "scale up: settled with " + (count + 1) + " replicas";
		settled = settle(replicas, phase);
		report.settled(phase, settled.shares(), false);
		scaleDownByTwo(replicas, settled, report);
	}

	/**
	 * Starts the replicas, waits until every object was reconciled and the ring settled;
	 * the shares then are issue 15's first claim.
	 */
	private Window start(ChaosReplicas replicas, int count, ShardingChaosReport.Builder report) throws Exception {
		Mark start = this.journals.mark();
		replicas.startAll(count, START_TIMEOUT);
		follow(replicas);
		await(() -> this.journals.reconcilersSince(start).size() == this.config.objects(),
				"start: every object reconciled");
		report.started(ids(replicas.running()), ReconcileJournal.now() - start.time());
		String phase = "settled: " + count + " replicas";
		Window settled = settle(replicas, phase);
		report.settled(phase, settled.shares(), true);
		return settled;
	}

	/**
	 * Kills the oldest replica with {@code SIGKILL}, measures the takeover of its objects
	 * and starts a replacement.
	 */
	private Window kill(ChaosReplicas replicas, Window settled, ShardingChaosReport.Builder report) throws Exception {
		Replica killed = replicas.running().get(0);
		String phase = "kill -9 " + killed.id();
		Mark kill = this.journals.mark();
		replicas.kill(killed);
		report.handover(phase, handOver(phase, List.of(killed), settled, kill, replicas), this.config.takeoverTarget(),
				"lease + 2 x retry");
		return replace(replicas, report);
	}

	/**
	 * Stops the oldest replica with {@code SIGTERM}, measures the handover of its objects
	 * and starts a replacement.
	 */
	private Window stop(ChaosReplicas replicas, Window settled, ShardingChaosReport.Builder report) throws Exception {
		Replica stopped = replicas.running().get(0);
		String phase = "SIGTERM " + stopped.id();
		Mark stop = this.journals.mark();
		replicas.terminate(stopped);
		report.handover(phase, handOver(phase, List.of(stopped), settled, stop, replicas),
				ShardingChaosConfig.HANDOVER_TARGET, "graceful handover");
		replicas.awaitGone(stopped, STOP_GRACE);
		return replace(replicas, report);
	}

	private Window replace(ChaosReplicas replicas, ShardingChaosReport.Builder report) throws Exception {
		replicas.startOne(START_TIMEOUT);
		follow(replicas);
		String phase = "settled: a replacement joined";
		Window settled = settle(replicas, phase);
		report.settled(phase, settled.shares(), false);
		return settled;
	}

	/**
	 * Stops the two oldest replicas at once with {@code SIGTERM}, measures the handover
	 * of their objects and waits until the ring settled without them.
	 */
	private void scaleDownByTwo(ChaosReplicas replicas, Window settled, ShardingChaosReport.Builder report)
			throws Exception {
		List<Replica> leaving = replicas.running().subList(0, 2);
		String phase = "scale down: SIGTERM " + String.join(" and ", ids(leaving));
		Mark stop = this.journals.mark();
		leaving.forEach(replicas::terminate);
		// issue 15 sets no time for this one: reported, not checked
		report.handover(phase, handOver(phase, leaving, settled, stop, replicas), null, null);
		for (Replica replica : leaving) {
			replicas.awaitGone(replica, STOP_GRACE);
		}
		phase = "scale down: settled with " + replicas.running().size() + " replicas";
		report.settled(phase, settle(replicas, phase).shares(), false);
	}

	/**
	 * Waits until every member's Lease acknowledges the ring of the running replicas,
	 * then until every object was reconciled after that, and returns who reconciled what
	 * in that window.
	 */
	private Window settle(ChaosReplicas replicas, String phase) throws Exception {
		Set<String> members = new TreeSet<>(ids(replicas.running()));
		await(() -> ringAcknowledged(members), phase + ": every member acknowledges " + members);
		Mark from = this.journals.mark();
		await(() -> this.journals.reconcilersSince(from).size() == this.config.objects(),
				phase + ": every object reconciled");
		Map<String, Set<String>> reconcilers = this.journals.reconcilersSince(from);
		long window = ReconcileJournal.now() - from.time();
		Map<String, Integer> counts = new TreeMap<>();
		int byTwo = 0;
		for (Set<String> by : reconcilers.values()) {
			by.forEach((replica) -> counts.merge(replica, 1, Integer::sum));
			if (by.size() > 1) {
				byTwo++;
			}
		}
		Shares shares = new Shares(List.copyOf(members), counts, this.config.objects(), byTwo, window);
		logger.info("Ring settled: phase=\"{}\" shares={}", phase, shares.describe());
		return new Window(reconcilers, shares);
	}

	/**
	 * Waits until every object the leaving replicas reconciled in the last settled window
	 * was reconciled by another replica after the mark, taken just before they were
	 * killed or stopped.
	 */
	private Handover handOver(String phase, List<Replica> leaving, Window settled, Mark mark, ChaosReplicas replicas)
			throws Exception {
		List<String> gone = ids(leaving);
		Set<String> theirs = new HashSet<>();
		settled.reconcilers().forEach((object, by) -> {
			if (by.stream().anyMatch(gone::contains)) {
				theirs.add(object);
			}
		});
		await(() -> this.journals.firstStartsByOthers(theirs, gone, mark).size() == theirs.size(),
				phase + ": every object of " + gone + " reconciled by another replica");
		Map<String, Long> first = this.journals.firstStartsByOthers(theirs, gone, mark);
		long earliest = first.values().stream().mapToLong(Long::longValue).min().orElse(mark.time()) - mark.time();
		long latest = first.values().stream().mapToLong(Long::longValue).max().orElse(mark.time()) - mark.time();
		Handover handover = new Handover(gone, ids(replicas.running()), theirs.size(), earliest, latest);
		logger.info("Objects handed over: phase=\"{}\" {}", phase, handover.describe());
		return handover;
	}

	/**
	 * Whether the Lease of every member acknowledges exactly the members: each has seen
	 * the same ring and drained what it no longer owns.
	 */
	private boolean ringAcknowledged(Set<String> members) {
		List<V1Lease> leases;
		try {
			leases = this.cluster.leases(NAMESPACE, ShardRing.RING_LABEL + "=" + RING);
		}
		catch (ApiException ex) {
			return false;
		}
		Map<String, Set<String>> acknowledged = new HashMap<>();
		for (V1Lease lease : leases) {
			String holder = (lease.getSpec() != null) ? lease.getSpec().getHolderIdentity() : null;
			Map<String, String> annotations = lease.getMetadata().getAnnotations();
			if (holder != null && annotations != null) {
				acknowledged.put(holder, members(annotations.get(ShardRing.DRAINED_ANNOTATION)));
			}
		}
		return members.stream().allMatch((member) -> members.equals(acknowledged.get(member)));
	}

	/**
	 * Reads the members of an acknowledgement, {@code <virtualNodes>:<member>,...}.
	 */
	static Set<String> members(String acknowledgement) {
		if (acknowledgement == null || acknowledgement.indexOf(':') < 0) {
			return Set.of();
		}
		String list = acknowledgement.substring(acknowledgement.indexOf(':') + 1);
		return list.isEmpty() ? Set.of() : new TreeSet<>(Arrays.asList(list.split(",")));
	}

	private void await(Condition condition, String what) throws Exception {
		long deadline = System.nanoTime() + this.config.phaseTimeout().toNanos();
		while (true) {
			this.journals.poll();
			if (condition.holds()) {
				return;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new PhaseNotCompleted(what + " (not within " + this.config.phaseTimeout().toSeconds() + " s)");
			}
			Thread.sleep(POLL_MILLIS);
		}
	}

	private void follow(ChaosReplicas replicas) {
		replicas.all().forEach((replica) -> this.journals.follow(replica.journal()));
	}

	private ShardJournalAnalysis analyse(ChaosReplicas replicas) throws Exception {
		Map<String, List<Entry>> journals = new HashMap<>();
		Map<String, Long> diedAt = new HashMap<>();
		for (Replica replica : replicas.all()) {
			journals.put(replica.id(), ReconcileJournal.read(replica.journal()));
			diedAt.put(replica.id(), replica.process().exitedAt());
		}
		return ShardJournalAnalysis.analyse(journals, diedAt);
	}

	private static List<String> ids(List<Replica> replicas) {
		List<String> ids = new ArrayList<>();
		replicas.forEach((replica) -> ids.add(replica.id()));
		return ids;
	}

	@FunctionalInterface
	private interface Condition {

		boolean holds() throws Exception;

	}

	/**
	 * Who reconciled what in a settled window, and the shares it shows.
	 */
	private record Window(Map<String, Set<String>> reconcilers, Shares shares) {

	}

	/**
	 * A phase did not complete in time.
	 */
	private static final class PhaseNotCompleted extends Exception {

		PhaseNotCompleted(String message) {
			super(message);
		}

	}

}
