package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.predicate.Predicate;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Label-based sharding against a real kube-apiserver: several managers in one JVM, with
 * leader election for the sharder, each caching only the ConfigMaps labelled with its
 * shard id, reconcile them with a requeue every 200ms; a journal of every reconcile's
 * start and end shows who reconciled what, that no two replicas ever reconciled one
 * object at once, and that no reconcile ever found its object missing from the cache
 * (nothing is deleted here: a missing object would be a move taken for a deletion). The
 * controllers' event filter drops every update, so the drain requests reach them only
 * because they pass any filter. Lease 3s, renew deadline 2s, retry period 0.5s.
 */
@WithControlPlane
class LabelShardingIntegrationTests {

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static final Duration RENEW = Duration.ofSeconds(2);

	private static final Duration RETRY = Duration.ofMillis(500);

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final Duration SLACK = Duration.ofMillis(1500);

	private static final int OBJECTS = 60;

	private static final String RING = "labelled";

	private static final String SHARD_LABEL = "shard.sharding.kubeboot.io/" + RING;

	private static final String DRAIN_LABEL = "drain.sharding.kubeboot.io/" + RING;

	private final List<Replica> replicas = new ArrayList<>();

	private final List<Entry> journal = new CopyOnWriteArrayList<>();

	@AfterEach
	void stopReplicas() {
		this.replicas.forEach((replica) -> {
			if (replica.proxy != null) {
				replica.proxy.restore();
			}
			replica.manager.stop();
			if (replica.proxy != null) {
				replica.proxy.close();
			}
		});
	}

	@Test
	void everyReplicaCachesAndReconcilesOnlyTheObjectsLabelledWithItsId(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		createObjects(controlPlane, namespace);
		Replica a = replica("a", controlPlane, namespace);
		Replica b = replica("b", controlPlane, namespace);
		Replica c = replica("c", controlPlane, namespace);
		this.replicas.forEach((replica) -> startQuietly(replica));
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b, c));
		long settled = System.nanoTime();
		await().atMost(WAIT).until(() -> reconcilersSince(settled).size() == OBJECTS);
		Map<String, String> labels = shardLabels(controlPlane, namespace);
		Map<Request, Set<String>> by = reconcilersSince(settled);
		for (Replica replica : List.of(a, b, c)) {
			Set<String> mine = labels.entrySet()
				.stream()
				.filter((e) -> e.getValue().equals(replica.identity))
				.map(Map.Entry::getKey)
				.collect(Collectors.toSet());
			assertThat(mine).as("share of %s", replica.identity).isNotEmpty();
			// its cache holds its share and nothing else
			assertThat(replica.controller.cachedRequests().stream().map(Request::name).collect(Collectors.toSet()))
				.isEqualTo(mine);
			assertThat(by.entrySet()
				.stream()
				.filter((e) -> e.getValue().contains(replica.identity))
				.map((e) -> e.getKey().name())
				.collect(Collectors.toSet())).isEqualTo(mine);
		}
		assertNoOverlapAndNothingMissing();
	}

	@Test
	void aJoiningReplicaGetsItsShareThroughDrainsAndAStoppedOneHandsItsShareBack(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		createObjects(controlPlane, namespace);
		Replica a = replica("a", controlPlane, namespace);
		Replica b = replica("b", controlPlane, namespace);
		startQuietly(a);
		startQuietly(b);
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b));
		Replica c = replica("c", controlPlane, namespace);
		startQuietly(c);
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b, c));
		long joined = System.nanoTime();
		await().atMost(WAIT).until(() -> reconcilersSince(joined).size() == OBJECTS);
		assertThat(reconcilersSince(joined).values()).anySatisfy((who) -> assertThat(who).contains(c.identity));
		c.manager.stop();
		long stopped = System.nanoTime();
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b));
		await().atMost(WAIT).until(() -> reconcilersSince(stopped).size() == OBJECTS);
		assertThat(reconcilersSince(stopped).values()).allSatisfy((who) -> assertThat(who).doesNotContain(c.identity));
		assertNoOverlapAndNothingMissing();
	}

	/**
	 * A member whose connection is cut (as after {@code kill -9}, or a network partition)
	 * stops reconciling at its renew deadline; the sharder relabels its objects only once
	 * its Lease expired, without waiting for a give-back that cannot come.
	 */
	@Test
	void theObjectsOfAMemberCutOffAreRelabelledOnceItsLeaseExpired(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		createObjects(controlPlane, namespace);
		Replica a = replica("a", controlPlane, namespace, null);
		startQuietly(a);
		// a leads: the sharder must outlive the cut
		await().atMost(WAIT).until(() -> a.manager.isLeader());
		Replica b = replica("b", controlPlane, namespace, null);
		Replica c = replica("c", controlPlane, namespace, TcpProxy.to(controlPlane.apiServerUrl()));
		startQuietly(b);
		startQuietly(c);
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b, c));
		Set<String> ofC = shardLabels(controlPlane, namespace).entrySet()
			.stream()
			.filter((e) -> e.getValue().equals(c.identity))
			.map(Map.Entry::getKey)
			.collect(Collectors.toSet());
		assertThat(ofC).isNotEmpty();
		long cutAt = System.nanoTime();
		c.proxy.cut();
		await().atMost(WAIT).until(() -> {
			Set<String> since = reconcilersSince(cutAt).entrySet()
				.stream()
				.filter((e) -> !e.getValue().equals(Set.of(c.identity)))
				.map((e) -> e.getKey().name())
				.collect(Collectors.toSet());
			return since.containsAll(ofC);
		});
		long takenOver = this.journal.stream()
			.filter((entry) -> entry.start >= cutAt && ofC.contains(entry.request.name())
					&& !entry.replica.equals(c.identity))
			.mapToLong(Entry::start)
			.min()
			.orElseThrow();
		long lastOfC = this.journal.stream()
			.filter((entry) -> entry.replica.equals(c.identity))
			.mapToLong(Entry::start)
			.max()
			.orElseThrow();
		// c stopped by its renew deadline (counted from its last renewal, before the cut)
		assertThat(Duration.ofNanos(lastOfC - cutAt)).isLessThan(RENEW.plus(SLACK));
		// nobody took its objects before its Lease could have expired
		assertThat(Duration.ofNanos(takenOver - cutAt)).isGreaterThan(LEASE.minus(RETRY))
			.isLessThan(LEASE.plus(RETRY.multipliedBy(2)).plus(SLACK));
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b));
		assertNoOverlapAndNothingMissing();
	}

	/**
	 * Whether the ring is settled on these members and every object is labelled with the
	 * member the ring gives it to, with no drain pending.
	 */
	private boolean labelled(ControlPlane controlPlane, TestNamespace namespace, Replica... members) {
		for (Replica member : members) {
			if (!member.ring.isMember() || member.ring.members().size() != members.length) {
				return false;
			}
		}
		try {
			List<V1ConfigMap> objects = objects(controlPlane, namespace);
			return objects.size() == OBJECTS && objects.stream().allMatch((object) -> {
				Map<String, String> labels = object.getMetadata().getLabels();
				Request request = Request.of(namespace.name(), object.getMetadata().getName());
				// the identities are label values, so the shard ids are the identities
				List<String> owners = Stream.of(members)
					.filter((member) -> member.ring.owns(V1ConfigMap.class, request))
					.map(Replica::identity)
					.toList();
				return owners.size() == 1 && owners.get(0).equals(labels.get(SHARD_LABEL))
						&& !labels.containsKey(DRAIN_LABEL);
			});
		}
		catch (Exception ex) {
			return false;
		}
	}

	/** The shard label of every object that has one, by name. */
	private static Map<String, String> shardLabels(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		Map<String, String> labels = new HashMap<>();
		objects(controlPlane, namespace).forEach((object) -> {
			String shard = object.getMetadata().getLabels().get(SHARD_LABEL);
			if (shard != null) {
				labels.put(object.getMetadata().getName(), shard);
			}
		});
		return labels;
	}

	private static List<V1ConfigMap> objects(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		return new CoreV1Api(controlPlane.adminClient()).listNamespacedConfigMap(namespace.name())
			.labelSelector("sharded=yes")
			.execute()
			.getItems();
	}

	private Map<Request, Set<String>> reconcilersSince(long nanos) {
		Map<Request, Set<String>> by = new HashMap<>();
		for (Entry entry : this.journal) {
			if (entry.start >= nanos) {
				by.computeIfAbsent(entry.request, (request) -> new HashSet<>()).add(entry.replica);
			}
		}
		return by;
	}

	private void assertNoOverlapAndNothingMissing() {
		assertThat(this.journal).as("reconciles that found their object missing from the cache")
			.noneMatch(Entry::missing);
		Map<Request, List<Entry>> byObject = new HashMap<>();
		this.journal.forEach((entry) -> byObject.computeIfAbsent(entry.request, (r) -> new ArrayList<>()).add(entry));
		byObject.forEach((request, entries) -> {
			entries.sort(Comparator.comparingLong(Entry::start));
			for (int i = 1; i < entries.size(); i++) {
				Entry previous = entries.get(i - 1);
				Entry next = entries.get(i);
				assertThat(next.start)
					.as("%s: %s started while %s still reconciled it", request, next.replica, previous.replica)
					.isGreaterThanOrEqualTo(previous.end);
			}
		});
	}

	private void createObjects(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		for (int i = 0; i < OBJECTS; i++) {
			core.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("object-" + i).putLabelsItem("sharded", "yes")))
				.execute();
		}
	}

	private static void startQuietly(Replica replica) {
		try {
			replica.manager.start();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private Replica replica(String identity, ControlPlane controlPlane, TestNamespace namespace) {
		return replica(identity, controlPlane, namespace, null);
	}

	private Replica replica(String identity, ControlPlane controlPlane, TestNamespace namespace,
			@Nullable TcpProxy proxy) {
		ApiClient client = controlPlane.adminClient();
		if (proxy != null) {
			client.setBasePath(proxy.url("https"));
		}
		Manager manager = Manager.builder(client)
			.namespace(namespace.name())
			.gracefulShutdownTimeout(Duration.ofSeconds(10))
			.leaderElection(new LeaderElectionConfig(namespace.name(), "labelled-leader", identity, LEASE, RENEW, RETRY,
					true, LostLeasePolicy.RE_ELECT))
			.build();
		ShardRing ring = ShardRing.join(manager, client, new ShardingConfig(namespace.name(), RING, identity, LEASE,
				RENEW, RETRY, 100, ShardingConfig.Mode.LABEL));
		Controller controller = Controller.builder(manager, V1ConfigMap.class)
			.labelSelector("sharded=yes")
			.withEventFilter(new Predicate<V1ConfigMap>() {

				@Override
				public boolean update(V1ConfigMap oldObject, V1ConfigMap newObject) {
					return false;
				}

			})
			.maxConcurrentReconciles(4)
			.sharded(ring)
			.complete((request) -> {
				long start = System.nanoTime();
				boolean missing = manager.cache().get(V1ConfigMap.class, request).isEmpty();
				try {
					// simulated work, not a wait: a second replica reconciling
					// the same object meanwhile shows as an overlap
					Thread.sleep(30);
				}
				finally {
					this.journal.add(new Entry(request, identity, start, System.nanoTime(), missing));
				}
				return Result.requeueAfter(Duration.ofMillis(200));
			});
		Replica replica = new Replica(identity, manager, ring, controller, proxy);
		this.replicas.add(replica);
		return replica;
	}

	private record Replica(String identity, Manager manager, ShardRing ring, Controller controller,
			@Nullable TcpProxy proxy) {
	}

	private record Entry(Request request, String replica, long start, long end, boolean missing) {
	}

}
