package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.cluster.Cluster;
import io.kubeboot.operator.cluster.ClusterStatus;
import io.kubeboot.operator.cluster.ClusterStatus.State;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.cluster.StaticClusters;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A fleet shared over a shard ring by two replicas of a home manager. Its three clusters
 * are all the test's control plane under three names (what is shared is the name, the API
 * server behind it does not matter), each cluster's controller writing the objects named
 * after it without pause. A journal records each write that was answered, with the
 * cluster and the replica: no two replicas ever write one cluster's objects at once, not
 * even when a reconcile is in flight while its cluster moves.
 */
@WithControlPlane
class SharedFleetIntegrationTests {

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static final Duration RENEW = Duration.ofSeconds(2);

	private static final Duration RETRY = Duration.ofMillis(500);

	private static final Duration WAIT = Duration.ofSeconds(60);

	/** What the scheduling of a loaded test machine may add to a protocol's bound. */
	private static final Duration SLACK = Duration.ofMillis(1500);

	private static final int OBJECTS_PER_CLUSTER = 3;

	/** How long each reconcile works before its write, so that overlaps show. */
	private static final Duration WORK = Duration.ofMillis(50);

	/**
	 * How long the reconciles of each cluster's first object work: one is often in flight
	 * when its cluster moves, and its write comes late.
	 */
	private static final Duration SLOW_WORK = Duration.ofSeconds(1);

	private static final Duration REQUEUE = Duration.ofMillis(150);

	private static final String SELECTOR = "fleet-shared=yes";

	private static final Set<String> CLUSTERS = Set.of("c0", "c1", "c2");

	@RegisterExtension
	private final TestResources resources = new TestResources();

	private final ConcurrentLinkedQueue<Write> journal = new ConcurrentLinkedQueue<>();

	private final String ringName = "fleet-" + System.nanoTime();

	/**
	 * The replicas' identities, fixed (each test has a namespace of its own, where the
	 * ring's Leases are): the ring of both gives each replica at least one of
	 * {@link #CLUSTERS}.
	 */
	private final String identityA = "replica-a";

	private final String identityB = "replica-b";

	private ShardingConfig.Mode mode = ShardingConfig.Mode.FILTER;

	/**
	 * The replica whose reconciles of each cluster's object {@code -2} write on, if any.
	 */
	private volatile @Nullable String stubborn;

	/** The clusters whose object {@code -2} a stubborn reconcile writes now. */
	private final Set<String> writingOn = ConcurrentHashMap.newKeySet();

	/**
	 * A replica alone engages every cluster; a second one joining takes those the ring
	 * gives it only once the first disengaged them; when it stops, it hands them back. In
	 * both modes of the ring: by label, the objects' reconciles move by labels, and the
	 * clusters still by acknowledged views.
	 */
	@ParameterizedTest
	@EnumSource(ShardingConfig.Mode.class)
	void clustersMoveBetweenReplicasOnlyOnceTheirEngagementsEnded(ShardingConfig.Mode mode, ControlPlane controlPlane,
			TestNamespace home) throws Exception {
		this.mode = mode;
		createObjects(controlPlane, home, CLUSTERS);
		Replica a = replica(this.identityA, controlPlane, home, CLUSTERS, null);
		a.manager().start();
		await().atMost(WAIT).until(() -> names(a.fleet().clusters()).equals(CLUSTERS));
		long alone = System.nanoTime();
		await().atMost(WAIT).until(() -> writtenSince(alone, this.identityA).equals(CLUSTERS));

		Replica b = replica(this.identityB, controlPlane, home, CLUSTERS, null);
		b.manager().start();
		long joined = System.nanoTime();
		Map<String, String> owners = awaitSplit(a, b);
		assertThat(b.fleet().statuses()).filteredOn((status) -> owners.get(status.name()).equals(this.identityA))
			.extracting(ClusterStatus::state)
			.containsOnly(State.ELSEWHERE);
		await().atMost(WAIT).until(() -> writtenSince(joined, this.identityB).equals(share(owners, this.identityB)));

		b.manager().stop();
		long left = System.nanoTime();
		await().atMost(WAIT).until(() -> names(a.fleet().clusters()).equals(CLUSTERS));
		await().atMost(WAIT).until(() -> writtenSince(left, this.identityA).equals(CLUSTERS));
		assertNoOverlap();
	}

	/**
	 * A replica cut off from the home cluster (its Lease not renewed) while its clusters'
	 * API servers still answer it, one reconcile of each of its clusters ignoring its
	 * stop and interruption and writing on: its writes to them are refused from its renew
	 * deadline on, and the other replica engages them only once its Lease expired.
	 */
	@Test
	void aReplicaCutOffFromHomeStopsWritingBeforeTheOtherTakesItsClusters(ControlPlane controlPlane, TestNamespace home)
			throws Exception {
		createObjects(controlPlane, home, CLUSTERS);
		TcpProxy proxy = this.resources.closeable(TcpProxy.to(controlPlane.apiServerUrl()));
		Replica a = replica(this.identityA, controlPlane, home, CLUSTERS, proxy);
		Replica b = replica(this.identityB, controlPlane, home, CLUSTERS, null);
		a.manager().start();
		b.manager().start();
		Map<String, String> owners = awaitSplit(a, b);
		Set<String> ofA = share(owners, this.identityA);
		this.stubborn = this.identityA;
		await().atMost(WAIT).until(() -> this.writingOn.containsAll(ofA));

		long cutAt = System.nanoTime();
		proxy.cut();
		try {
			await().atMost(WAIT).until(() -> writtenSince(cutAt, this.identityB).equals(CLUSTERS));
			// a while longer: the stubborn reconciles of the cut-off replica would still
			// write
			long takenOverAt = System.nanoTime();
			await().atMost(WAIT)
				.until(() -> writtenSince(takenOverAt, this.identityB).equals(CLUSTERS)
						&& System.nanoTime() - takenOverAt > REQUEUE.multipliedBy(4).toNanos());
		}
		finally {
			this.stubborn = null;
		}
		long lastOfA = this.journal.stream()
			.filter((write) -> write.replica().equals(this.identityA))
			.mapToLong(Write::sent)
			.max()
			.orElseThrow();
		long takenOver = this.journal.stream()
			.filter((write) -> write.start() >= cutAt && ofA.contains(write.cluster())
					&& write.replica().equals(this.identityB))
			.mapToLong(Write::start)
			.min()
			.orElseThrow();
		System.out.println("clusters of a cut-off replica taken over after " + millisSince(cutAt, takenOver)
				+ " ms; its last answered write was sent " + millisSince(cutAt, lastOfA) + " ms after the cut");
		// its writes stopped by its renew deadline, counted from its last renewal
		assertThat(Duration.ofNanos(lastOfA - cutAt)).isLessThan(RENEW.plus(SLACK));
		// nobody engaged its clusters before its Lease could have expired
		assertThat(Duration.ofNanos(takenOver - cutAt)).isGreaterThan(LEASE.minus(RETRY));
		await().atMost(WAIT).until(() -> a.fleet().clusters().isEmpty());
		assertNoOverlap();
	}

	/**
	 * Waits until the two replicas, both in the ring, run their shares of the clusters:
	 * each at least one, together all, none on both.
	 * @return each cluster's replica, by name
	 */
	private Map<String, String> awaitSplit(Replica a, Replica b) {
		await().atMost(WAIT).until(() -> {
			Set<String> ofA = names(a.fleet().clusters());
			Set<String> ofB = names(b.fleet().clusters());
			return ring(a).members().size() == 2 && ring(b).members().size() == 2 && !ofA.isEmpty() && !ofB.isEmpty()
					&& Collections.disjoint(ofA, ofB)
					&& Stream.concat(ofA.stream(), ofB.stream()).collect(Collectors.toSet()).equals(CLUSTERS);
		});
		Map<String, String> owners = new HashMap<>();
		names(a.fleet().clusters()).forEach((name) -> owners.put(name, this.identityA));
		names(b.fleet().clusters()).forEach((name) -> owners.put(name, this.identityB));
		return owners;
	}

	private static ShardRing ring(Replica replica) {
		return replica.fleet().ring().orElseThrow();
	}

	/**
	 * A replica: a home manager in the ring, whose fleet engages the given clusters, all
	 * served by the control plane. With a proxy, its requests to the home cluster (its
	 * Lease's among them) go through it, and its clusters' requests do not.
	 */
	private Replica replica(String identity, ControlPlane controlPlane, TestNamespace home, Set<String> clusters,
			@Nullable TcpProxy proxy) {
		ApiClient homeClient = controlPlane.adminClient();
		if (proxy != null) {
			homeClient.setBasePath(proxy.url("https"));
		}
		ManagerBuilder builder = Manager.builder(homeClient)
			.namespace(home.name())
			.cacheSyncTimeout(Duration.ofSeconds(5))
			.gracefulShutdownTimeout(Duration.ofSeconds(10));
		if (this.mode == ShardingConfig.Mode.LABEL) {
			// the label mode's sharder runs on the leader
			builder
				.leaderElection(new LeaderElectionConfig(home.name(), this.ringName + "-leader", identity, LEASE, RENEW,
						RETRY, true, LostLeasePolicy.RE_ELECT))
				.onLostLeaseExit(() -> {
				});
		}
		Manager manager = this.resources.manager(builder.build());
		ShardRing ring = ShardRing.join(manager, homeClient, new ShardingConfig(home.name(), this.ringName, identity,
				LEASE, RENEW, RETRY, ShardingConfig.DEFAULT_VIRTUAL_NODES, this.mode));
		Map<String, ApiClient> clients = new LinkedHashMap<>();
		clusters.forEach((name) -> clients.put(name, controlPlane.adminClient()));
		Fleet fleet = Fleet.builder(manager).provider(StaticClusters.of(clients)).sharedOver(ring).build();
		fleet.controller(V1ConfigMap.class)
			.named("journal")
			.configure((controller) -> controller.namespace(home.name())
				.labelSelector(SELECTOR)
				// a worker per object: with fewer, the objects requeued at once would
				// keep the
				// initial list's requests, of low priority, waiting
				.maxConcurrentReconciles(OBJECTS_PER_CLUSTER * 3))
			.complete((cluster, request) -> write(cluster, request, identity));
		return new Replica(manager, fleet);
	}

	/**
	 * Writes an object of the cluster, journaling the write if it was answered, and comes
	 * back soon: a cluster's objects are written for as long as it is engaged.
	 */
	private Result write(Cluster cluster, Request request, String identity) throws InterruptedException {
		if (!request.name().startsWith(cluster.name() + "-")) {
			return Result.done();
		}
		if (identity.equals(this.stubborn) && request.name().endsWith("-2")) {
			writeOn(cluster, request, identity);
			return Result.requeueAfter(REQUEUE);
		}
		long start = System.nanoTime();
		Thread.sleep(request.name().endsWith("-0") ? SLOW_WORK.toMillis() : WORK.toMillis());
		long sent = System.nanoTime();
		try {
			patch(cluster, request, identity);
		}
		catch (RuntimeException ex) {
			// refused by the fence: not journaled
			return Result.requeueAfter(REQUEUE);
		}
		this.journal.add(new Write(cluster.name(), identity, start, sent, System.nanoTime()));
		return Result.requeueAfter(REQUEUE);
	}

	/**
	 * Writes an object again and again, journaling each answered write, ignoring the stop
	 * and the interruption of its cluster: only the fence can keep its writes out.
	 */
	private void writeOn(Cluster cluster, Request request, String identity) {
		this.writingOn.add(cluster.name());
		while (identity.equals(this.stubborn)) {
			long sent = System.nanoTime();
			try {
				patch(cluster, request, identity);
				this.journal.add(new Write(cluster.name(), identity, sent, sent, System.nanoTime()));
			}
			catch (RuntimeException ex) {
				// refused by the fence, or interrupted: written again
				Thread.interrupted();
			}
			try {
				Thread.sleep(WORK.toMillis());
			}
			catch (InterruptedException ex) {
				// ignored: the fence, not the stop, must end its writes
			}
		}
	}

	private static void patch(Cluster cluster, Request request, String identity) {
		cluster.client()
			.patch(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(request.namespace()).name(request.name())),
					Patch.merge(Map.of("data", Map.of("writer", identity))));
	}

	private static void createObjects(ControlPlane controlPlane, TestNamespace home, Set<String> clusters)
			throws Exception {
		CoreV1Api api = new CoreV1Api(controlPlane.adminClient());
		for (String cluster : clusters) {
			for (int i = 0; i < OBJECTS_PER_CLUSTER; i++) {
				api.createNamespacedConfigMap(home.name(),
						new V1ConfigMap()
							.metadata(new V1ObjectMeta().name(cluster + "-" + i).labels(Map.of("fleet-shared", "yes"))))
					.execute();
			}
		}
	}

	private static Set<String> share(Map<String, String> owners, String identity) {
		return owners.entrySet()
			.stream()
			.filter((owner) -> owner.getValue().equals(identity))
			.map(Map.Entry::getKey)
			.collect(Collectors.toSet());
	}

	private static Set<String> names(List<Cluster> clusters) {
		return clusters.stream().map(Cluster::name).collect(Collectors.toSet());
	}

	/**
	 * The clusters a replica wrote to with writes begun since a moment.
	 */
	private Set<String> writtenSince(long nanos, String identity) {
		return this.journal.stream()
			.filter((write) -> write.start() >= nanos && write.replica().equals(identity))
			.map(Write::cluster)
			.collect(Collectors.toSet());
	}

	/**
	 * Fails if writes of two replicas to one cluster overlapped in time.
	 */
	private void assertNoOverlap() {
		List<String> overlaps = new ArrayList<>();
		List<Write> writes = new ArrayList<>(this.journal);
		for (Write first : writes) {
			for (Write second : writes) {
				if (first.cluster().equals(second.cluster()) && !first.replica().equals(second.replica())
						&& first.start() < second.end() && second.start() < first.end()) {
					overlaps.add(first + " / " + second);
				}
			}
		}
		assertThat(writes).isNotEmpty();
		assertThat(overlaps).isEmpty();
	}

	private static long millisSince(long from, long to) {
		return Duration.ofNanos(to - from).toMillis();
	}

	private record Replica(Manager manager, Fleet fleet) {
	}

	/**
	 * An answered write to a cluster by a replica: when its reconcile began, when the
	 * write was sent and when the answer came.
	 */
	private record Write(String cluster, String replica, long start, long sent, long end) {
	}

}
