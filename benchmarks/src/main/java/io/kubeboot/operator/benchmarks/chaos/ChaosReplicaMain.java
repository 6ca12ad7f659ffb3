package io.kubeboot.operator.benchmarks.chaos;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Event;
import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.child.Probe;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.util.ClientBuilder;

/**
 * One operator replica of the chaos run: the plain {@link Manager} with leader election,
 * whose reconciler copies {@code spec.value} of a widget into
 * {@code status.observedValue} and journals every reconcile's start and end and every
 * change of leadership ({@link ReconcileJournal}). Reads the {@code BENCH_*} settings of
 * every operator process under test ({@link ChildSettings}, the Lease name required) and
 * its own: {@value #REPLICA} (its identity), {@value #JOURNAL} (the journal file),
 * {@value #LOST_LEASE} ({@code exit} or {@code re-elect}) and {@value #WORK_MS} (how long
 * a reconcile works before it writes).
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
	 * Milliseconds a reconcile works before it writes the status.
	 */
	public static final String WORK_MS = "CHAOS_WORK_MS";

	/**
	 * Reconciles in parallel per replica.
	 */
	static final int WORKERS = 4;

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
		if (!settings.leaderElection()) {
			throw new IllegalStateException(ChildSettings.LEASE_NAME + " is not set");
		}
		String replica = required(environment, REPLICA);
		LostLeasePolicy policy = switch (required(environment, LOST_LEASE)) {
			case "exit" -> LostLeasePolicy.EXIT;
			case "re-elect" -> LostLeasePolicy.RE_ELECT;
			default -> throw new IllegalStateException(LOST_LEASE + " must be exit or re-elect");
		};
		Duration work = Duration.ofMillis(Long.parseLong(environment.getOrDefault(WORK_MS, "5")));
		Probe probe = Probe.start(settings);
		ApiClient client = ClientBuilder.standard().build();
		ReconcileJournal journal = ReconcileJournal.open(Path.of(required(environment, JOURNAL)), replica);
		ChaosReplicaMain main = new ChaosReplicaMain(journal, replica);
		LeaderElectionConfig election = new LeaderElectionConfig(settings.namespace(), settings.leaseName(), replica,
				settings.leaseDuration(), settings.renewDeadline(), settings.retryPeriod(), true, policy);
		Manager manager = Manager.builder(client)
			.namespace(settings.namespace())
			.leaderElection(election)
			.leaderElectionListener(main.listener(new CoordinationV1Api(client), election))
			.build();
		Cache cache = manager.cache();
		Client writer = manager.client();
		Controller.builder(manager, Widget.class)
			.maxConcurrentReconciles(WORKERS)
			.complete((request) -> main.reconcile(request, cache, writer, work));
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			manager.stop();
			stopped.countDown();
		}, "manager-stop"));
		manager.start();
		probe.ready();
		stopped.await();
	}

	private Result reconcile(Request request, Cache cache, Client writer, Duration work) throws Exception {
		long started = ReconcileJournal.now();
		String term = this.term;
		long id = this.journal.nextId();
		String key = request.namespace() + "/" + request.name();
		Widget widget = cache.get(Widget.class, request).orElse(null);
		Long value = (widget != null) ? valueOf(widget) : null;
		Long generation = (widget != null) ? widget.getMetadata().getGeneration() : null;
		this.journal.append(started, term, Event.START, key, id, (value != null) ? value : "-",
				(generation != null) ? generation : "-");
		String outcome = "error";
		try {
			if (widget == null) {
				outcome = "gone";
				return Result.done();
			}
			Widget.Status status = widget.getStatus();
			if (status != null && Objects.equals(status.getObservedValue(), value)
					&& Objects.equals(status.getObservedGeneration(), generation)) {
				outcome = "skip";
				return Result.done();
			}
			Thread.sleep(work.toMillis());
			writer.status()
				.patch(widget, Patch
					.merge(Map.of("status", Map.of("observedValue", value, "observedGeneration", generation))));
			outcome = "wrote";
			return Result.done();
		}
		catch (Exception ex) {
			outcome = "error:" + ex.getClass().getSimpleName();
			throw ex;
		}
		finally {
			this.journal.append(ReconcileJournal.now(), term, Event.END, key, id, outcome);
		}
	}

	private static long valueOf(Widget widget) {
		Long value = (widget.getSpec() != null) ? widget.getSpec().getValue() : null;
		return (value != null) ? value : 0L;
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

	private static String required(Map<String, String> environment, String name) {
		String value = environment.get(name);
		if (value == null || value.isBlank()) {
			throw new IllegalStateException(name + " is not set");
		}
		return value;
	}

}
