package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

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
import io.kubeboot.operator.sharding.internal.HashRing;
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

	@RegisterExtension
	private final TestResources resources = new TestResources();

	private final ConcurrentLinkedQueue<Write> journal = new ConcurrentLinkedQueue<>();

	private final String ringName = "fleet-" + System.nanoTime();

	private final String identityA = "replica-a-" + System.nanoTime();

	private final String identityB = "replica-b-" + System.nanoTime();

	private ShardingConfig.Mode mode = ShardingConfig.Mode.FILTER;

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
		Map<String, String> owners = clustersSplitOverTheRing();
		createObjects(controlPlane, home, owners.keySet());
		Replica a = replica(this.identityA, controlPlane, home, owners.keySet(), null);
		a.manager().start();
		await().atMost(WAIT).until(() -> names(a.fleet().clusters()).equals(owners.keySet()));
		long alone = System.nanoTime();
		await().atMost(WAIT).until(() -> writtenSince(alone, this.identityA).equals(owners.keySet()));

		Replica b = replica(this.identityB, controlPlane, home, owners.keySet(), null);
		b.manager().start();
		long joined = System.nanoTime();
		await().atMost(WAIT).until(() -> runsItsShare(a, owners) && runsItsShare(b, owners));
		assertThat(b.fleet().statuses()).filteredOn((status) -> owners.get(status.name()).equals(this.identityA))
			.extracting(ClusterStatus::state)
			.containsOnly(State.ELSEWHERE);
		await().atMost(WAIT).until(() -> writtenSince(joined, this.identityB).equals(share(owners, this.identityB)));

		b.manager().stop();
		long left = System.nanoTime();
		await().atMost(WAIT).until(() -> names(a.fleet().clusters()).equals(owners.keySet()));
		await().atMost(WAIT).until(() -> writtenSince(left, this.identityA).equals(owners.keySet()));
		assertNoOverlap();
	}

	/**
	 * A replica cut off from the home cluster (its Lease not renewed) while its clusters'
	 * API servers still answer it: its writes to them stop by its renew deadline, and the
	 * other replica engages them only once its Lease expired.
	 */
	@Test
	void aReplicaCutOffFromHomeStopsWritingBeforeTheOtherTakesItsClusters(ControlPlane controlPlane, TestNamespace home)
			throws Exception {
		Map<String, String> owners = clustersSplitOverTheRing();
		createObjects(controlPlane, home, owners.keySet());
		TcpProxy proxy = this.resources.closeable(TcpProxy.to(controlPlane.apiServerUrl()));
		Replica a = replica(this.identityA, controlPlane, home, owners.keySet(), proxy);
		Replica b = replica(this.identityB, controlPlane, home, owners.keySet(), null);
		a.manager().start();
		b.manager().start();
		await().atMost(WAIT).until(() -> runsItsShare(a, owners) && runsItsShare(b, owners));
		Set<String> ofA = share(owners, this.identityA);
		long settled = System.nanoTime();
		await().atMost(WAIT).until(() -> writtenSince(settled, this.identityA).equals(ofA));

		long cutAt = System.nanoTime();
		proxy.cut();
		await().atMost(WAIT).until(() -> writtenSince(cutAt, this.identityB).equals(owners.keySet()));
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
	 * Names three clusters such that the ring of the two replicas gives each replica at
	 * least one.
	 * @return each cluster's owner under the ring of both replicas, by name
	 */
	private Map<String, String> clustersSplitOverTheRing() {
		HashRing both = new HashRing(List.of(this.identityA, this.identityB), ShardingConfig.DEFAULT_VIRTUAL_NODES);
		Map<String, String> owners = new LinkedHashMap<>();
		String third = null;
		for (int i = 0; owners.size() < 2 || third == null; i++) {
			String name = "c" + i;
			String owner = both.owner(Fleet.ringKey(name));
			if (!owners.containsValue(owner)) {
				owners.put(name, owner);
			}
			else if (third == null) {
				third = name;
			}
		}
		owners.put(third, both.owner(Fleet.ringKey(third)));
		return owners;
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
			.configure((controller) -> controller.namespace(home.name()).labelSelector(SELECTOR))
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
		long start = System.nanoTime();
		Thread.sleep(request.name().endsWith("-0") ? SLOW_WORK.toMillis() : WORK.toMillis());
		long sent = System.nanoTime();
		try {
			cluster.client()
				.patch(new V1ConfigMap()
					.metadata(new V1ObjectMeta().namespace(request.namespace()).name(request.name())),
						Patch.merge(Map.of("data", Map.of("writer", identity))));
		}
		catch (RuntimeException ex) {
			// refused by the fence: not journaled
			return Result.requeueAfter(REQUEUE);
		}
		this.journal.add(new Write(cluster.name(), identity, start, sent, System.nanoTime()));
		return Result.requeueAfter(REQUEUE);
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

	private boolean runsItsShare(Replica replica, Map<String, String> owners) {
		String identity = replica.fleet().ring().orElseThrow().config().identity();
		return names(replica.fleet().clusters()).equals(share(owners, identity));
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
