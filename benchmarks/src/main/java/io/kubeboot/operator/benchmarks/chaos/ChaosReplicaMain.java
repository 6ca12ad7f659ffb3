package io.kubeboot.operator.benchmarks.chaos;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Event;
import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.child.Probe;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.util.ClientBuilder;

/**
 * One operator replica of the chaos runs, on the plain {@link Manager}, reconciling
 * widgets with a {@link ChaosReconciler} that journals every reconcile's start and end
 * ({@link ReconcileJournal}). In one of two modes:
 * <ul>
 * <li>leader election (the Lease {@link ChildSettings#LEASE_NAME} set): one replica
 * reconciles at a time; changes of leadership are journaled too;</li>
 * <li>sharded ({@value #SHARD_RING} set): the replica joins that shard ring
 * ({@link ShardRing}) and its controller is sharded: every replica reconciles its share,
 * each widget again {@value #REQUEUE_MS} milliseconds after its last reconcile. In the
 * filter-based mode ({@value #SHARD_MODE} {@code filter}, the default) without leader
 * election; in the label-based one ({@code label}) with it (the Lease
 * {@link ChildSettings#LEASE_NAME}), as the leader runs the sharder.</li>
 * </ul>
 * Reads the {@code BENCH_*} settings of every operator process under test
 * ({@link ChildSettings}: the namespace and the Lease timings, which a sharded replica
 * uses for its shard Lease) and its own: {@value #REPLICA} (its identity),
 * {@value #JOURNAL} (the journal file), {@value #WORK_MS} (how long a reconcile works),
 * with leader election {@value #LOST_LEASE} ({@code exit} or {@code re-elect}).
 */
public final class ChaosReplicaMain {

	/**
	 * The replica's identity, unique for every process the run starts.
	 */
	public static final String REPLICA = "CHAOS_REPLICA";

	/**
	 * The journal file.
	 */
	public static final String JOURNAL = "CHAOS_JOURNAL";

	/**
	 * What the replica does when it loses the Lease: {@code exit} or {@code re-elect}.
	 */
	public static final String LOST_LEASE = "CHAOS_LOST_LEASE";

	/**
	 * Milliseconds a reconcile works: before it writes the status with leader election,
	 * on every reconcile when sharded.
	 */
	public static final String WORK_MS = "CHAOS_WORK_MS";

	/**
	 * The shard ring to join; set, the replica is sharded instead of leader-elected.
	 */
	public static final String SHARD_RING = "CHAOS_SHARD_RING";

	/**
	 * Milliseconds after which a sharded replica reconciles a widget again.
	 */
	public static final String REQUEUE_MS = "CHAOS_REQUEUE_MS";

	/**
	 * How a sharded replica shares the widgets: {@code filter} (the default) or
	 * {@code label} ({@link ShardingConfig.Mode}).
	 */
	public static final String SHARD_MODE = "CHAOS_SHARD_MODE";

	/**
	 * Reconciles in parallel per replica with leader election.
	 */
	static final int WORKERS = 4;

	/**
	 * Reconciles in parallel per sharded replica: more, as each one mostly sleeps and a
	 * replica must take over a departed one's share while it keeps reconciling its own.
	 */
	public static final int SHARDED_WORKERS = 16;

	private final ReconcileJournal journal;

	private final String replica;

	private final AtomicInteger terms = new AtomicInteger();

	private volatile String term = ReconcileJournal.NO_TERM;

	private ChaosReplicaMain(ReconcileJournal journal, String replica) {
		this.journal = journal;
		this.replica = replica;
	}

	public static void main(String[] args) {
		try {
			run(System.getenv());
		}
		catch (Throwable ex) {
			ex.printStackTrace();
			System.exit(1);
		}
	}

	private static void run(Map<String, String> environment) throws Exception {
		ChildSettings settings = ChildSettings.fromEnvironment();
		String ring = environment.get(SHARD_RING);
		boolean sharded = ring != null && !ring.isBlank();
		ShardingConfig.Mode mode = shardMode(environment);
		if (!sharded && !settings.leaderElection()) {
			throw new IllegalStateException(
					"Set " + ChildSettings.LEASE_NAME + " (leader election), " + SHARD_RING + " (sharded) or both");
		}
		if (sharded && settings.leaderElection() != (mode == ShardingConfig.Mode.LABEL)) {
			throw new IllegalStateException("A sharded replica uses leader election (" + ChildSettings.LEASE_NAME
					+ ") in the label-based mode and only in it; " + SHARD_MODE + " is " + mode);
		}
		String replica = required(environment, REPLICA);
		Duration work = Duration.ofMillis(Long.parseLong(environment.getOrDefault(WORK_MS, "5")));
		Probe probe = Probe.start(settings);
		ApiClient client = ClientBuilder.standard().build();
		ReconcileJournal journal = ReconcileJournal.open(Path.of(required(environment, JOURNAL)), replica);
		Manager manager = sharded ? shardedReplica(settings, environment, ring, mode, replica, client, journal, work)
				: leaderElectedReplica(settings, environment, replica, client, journal, work);
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			manager.stop();
			stopped.countDown();
		}, "manager-stop"));
		manager.start();
		probe.ready();
		stopped.await();
	}

	private static Manager leaderElectedReplica(ChildSettings settings, Map<String, String> environment, String replica,
			ApiClient client, ReconcileJournal journal, Duration work) {
		LostLeasePolicy policy = switch (required(environment, LOST_LEASE)) {
			case "exit" -> LostLeasePolicy.EXIT;
			case "re-elect" -> LostLeasePolicy.RE_ELECT;
			default -> throw new IllegalStateException(LOST_LEASE + " must be exit or re-elect");
		};
		ChaosReplicaMain main = new ChaosReplicaMain(journal, replica);
		LeaderElectionConfig election = new LeaderElectionConfig(settings.namespace(), settings.leaseName(), replica,
				settings.leaseDuration(), settings.renewDeadline(), settings.retryPeriod(), true, policy);
		Manager manager = Manager.builder(client)
			.namespace(settings.namespace())
			.leaderElection(election)
			.leaderElectionListener(main.listener(new CoordinationV1Api(client), election))
			.build();
		Controller.builder(manager, Widget.class)
			.maxConcurrentReconciles(WORKERS)
			.complete(ChaosReconciler.onWrites(journal, manager.cache(), manager.client(), work, () -> main.term));
		return manager;
	}

	private static Manager shardedReplica(ChildSettings settings, Map<String, String> environment, String ring,
			ShardingConfig.Mode mode, String replica, ApiClient client, ReconcileJournal journal, Duration work) {
		Duration requeueAfter = Duration.ofMillis(Long.parseLong(required(environment, REQUEUE_MS)));
		ManagerBuilder builder = Manager.builder(client).namespace(settings.namespace());
		if (mode == ShardingConfig.Mode.LABEL) {
			// the sharder runs on the leader; a replica that loses the leader Lease stays
			// a member of the ring and stands for election again
			builder.leaderElection(new LeaderElectionConfig(settings.namespace(), settings.leaseName(), replica,
					settings.leaseDuration(), settings.renewDeadline(), settings.retryPeriod(), true,
					LostLeasePolicy.RE_ELECT));
		}
		Manager manager = builder.build();
		ShardRing shardRing = ShardRing.join(manager, client,
				new ShardingConfig(settings.namespace(), ring, replica, settings.leaseDuration(),
						settings.renewDeadline(), settings.retryPeriod(), ShardingConfig.DEFAULT_VIRTUAL_NODES, mode));
		Controller.builder(manager, Widget.class)
			.maxConcurrentReconciles(SHARDED_WORKERS)
			.gatedBy(shardRing)
			.complete(ChaosReconciler.periodic(journal, manager.cache(), manager.client(), work, requeueAfter));
		return manager;
	}

	private LeaderElectionListener listener(CoordinationV1Api leases, LeaderElectionConfig election) {
		return new LeaderElectionListener() {

			@Override
			public void startedLeading(String identity) {
				String term = ChaosReplicaMain.this.replica + "#" + ChaosReplicaMain.this.terms.incrementAndGet();
				ChaosReplicaMain.this.term = term;
				journal(term, Event.LEAD);
				Thread reader = new Thread(() -> readLease(leases, election, term), "chaos-lease-reader");
				reader.setDaemon(true);
				reader.start();
			}

			@Override
			public void stoppedLeading(String identity, boolean lost) {
				journal(ChaosReplicaMain.this.term, Event.UNLEAD, lost);
				ChaosReplicaMain.this.term = ReconcileJournal.NO_TERM;
			}

		};
	}

	/**
	 * Journals the Lease's transition count as it is just after this replica acquired it,
	 * which numbers the term on the Lease; a few attempts, as the API server may just be
	 * going away.
	 */
	private void readLease(CoordinationV1Api leases, LeaderElectionConfig election, String term) {
		for (int attempt = 0; attempt < 10; attempt++) {
			try {
				V1Lease lease = leases.readNamespacedLease(election.name(), election.namespace()).execute();
				journal(term, Event.TERM, lease.getSpec().getLeaseTransitions(), lease.getSpec().getHolderIdentity());
				return;
			}
			catch (Exception ex) {
				try {
					Thread.sleep(200);
				}
				catch (InterruptedException interrupted) {
					return;
				}
			}
		}
	}

	private void journal(String term, Event event, Object... values) {
		try {
			this.journal.append(ReconcileJournal.now(), term, event, values);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static ShardingConfig.Mode shardMode(Map<String, String> environment) {
		String mode = environment.getOrDefault(SHARD_MODE, "");
		return mode.isBlank() ? ShardingConfig.Mode.FILTER : shardMode(SHARD_MODE, mode);
	}

	/**
	 * Reads a shard mode as the chaos run spells it: {@code filter} or {@code label}.
	 * @param name where the value was set (a variable or a system property), for the
	 * error
	 * @param value the value
	 * @return the mode
	 * @throws IllegalArgumentException if the value is neither
	 */
	public static ShardingConfig.Mode shardMode(String name, String value) {
		return switch (value.strip()) {
			case "filter" -> ShardingConfig.Mode.FILTER;
			case "label" -> ShardingConfig.Mode.LABEL;
			default -> throw new IllegalArgumentException(name + " must be filter or label, was " + value);
		};
	}

	private static String required(Map<String, String> environment, String name) {
		String value = environment.get(name);
		if (value == null || value.isBlank()) {
			throw new IllegalStateException(name + " is not set");
		}
		return value;
	}

}
