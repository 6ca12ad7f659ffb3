package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.kubeboot.operator.cache.CacheTransform;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.predicate.EventFilter;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
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

	private static final String SHARD_LABEL = ShardRing.shardLabel(RING);

	private static final String DRAIN_LABEL = ShardRing.drainLabel(RING);

	private static final String TERM_ANNOTATION = ShardRing.termAnnotation(RING);

	/**
	 * An annotation of every object that the caches drop (a transform), as a user may
	 * drop {@code kubectl.kubernetes.io/last-applied-configuration}: the sharder's writes
	 * must keep it.
	 */
	private static final String NOTE = "example.com/note";

	private final List<Replica> replicas = new ArrayList<>();

	private final ShardingJournal journal = new ShardingJournal();

	@AfterEach
	void stopReplicas() {
		this.replicas.forEach((replica) -> {
			replica.proxies.forEach(TcpProxy::restore);
			replica.manager.stop();
			replica.proxies.forEach(TcpProxy::close);
		});
	}

	@Test
	void everyReplicaCachesAndReconcilesOnlyTheObjectsLabelledWithItsId(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS, Map.of(NOTE, "kept"));
		Replica a = replica("a", controlPlane, namespace);
		Replica b = replica("b", controlPlane, namespace);
		Replica c = replica("c", controlPlane, namespace);
		this.replicas.forEach((replica) -> startQuietly(replica));
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b, c));
		long settled = System.nanoTime();
		await().atMost(WAIT).until(() -> this.journal.reconcilersSince(settled).size() == OBJECTS);
		Map<String, String> labels = shardLabels(controlPlane, namespace);
		Map<Request, Set<String>> by = this.journal.reconcilersSince(settled);
		for (Replica replica : List.of(a, b, c)) {
			Set<String> mine = shareOf(labels, replica);
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
		// the sharder wrote labels and terms without touching what its cache does not
		// hold
		assertThat(objects(controlPlane, namespace))
			.allSatisfy((object) -> assertThat(object.getMetadata().getAnnotations()).containsEntry(NOTE, "kept"));
		assertNoOverlapAndNothingMissing();
	}

	@Test
	void aJoiningReplicaGetsItsShareThroughDrainsAndAStoppedOneHandsItsShareBack(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS);
		Replica a = replica("a", controlPlane, namespace);
		Replica b = replica("b", controlPlane, namespace);
		startQuietly(a);
		startQuietly(b);
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b));
		Replica c = replica("c", controlPlane, namespace);
		startQuietly(c);
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b, c));
		long joined = System.nanoTime();
		await().atMost(WAIT).until(() -> this.journal.reconcilersSince(joined).size() == OBJECTS);
		assertThat(this.journal.reconcilersSince(joined).values())
			.anySatisfy((who) -> assertThat(who).contains(c.identity));
		c.manager.stop();
		long stopped = System.nanoTime();
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b));
		await().atMost(WAIT).until(() -> this.journal.reconcilersSince(stopped).size() == OBJECTS);
		assertThat(this.journal.reconcilersSince(stopped).values())
			.allSatisfy((who) -> assertThat(who).doesNotContain(c.identity));
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
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS);
		Replica a = replica("a", controlPlane, namespace, null);
		startQuietly(a);
		// a leads: the sharder must outlive the cut
		await().atMost(WAIT).until(() -> a.manager.isLeader());
		Replica b = replica("b", controlPlane, namespace, null);
		Replica c = replica("c", controlPlane, namespace, TcpProxy.to(controlPlane.apiServerUrl()));
		startQuietly(b);
		startQuietly(c);
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b, c));
		Set<String> ofC = shareOf(shardLabels(controlPlane, namespace), c);
		assertThat(ofC).isNotEmpty();
		long cutAt = System.nanoTime();
		c.proxies.forEach(TcpProxy::cut);
		await().atMost(WAIT).until(() -> {
			Set<String> since = this.journal.reconcilersSince(cutAt)
				.entrySet()
				.stream()
				.filter((e) -> !e.getValue().equals(Set.of(c.identity)))
				.map((e) -> e.getKey().name())
				.collect(Collectors.toSet());
			return since.containsAll(ofC);
		});
		long takenOver = this.journal.entries()
			.filter((entry) -> entry.start() >= cutAt && ofC.contains(entry.request().name())
					&& !entry.replica().equals(c.identity))
			.mapToLong(ShardingJournal.Entry::start)
			.min()
			.orElseThrow();
		long lastOfC = this.journal.entries()
			.filter((entry) -> entry.replica().equals(c.identity))
			.mapToLong(ShardingJournal.Entry::start)
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
	 * A member whose shard Lease renewals come late (the API server answers them 700ms
	 * late) is past its renew deadline for a moment, its fence closed, and reconciles all
	 * its objects once its Lease is valid again: the requests that came due meanwhile
	 * waited instead of being dropped. Before, they were dropped and waited for a change
	 * of the ring, which a late renewal does not bring. Only the shard Lease requests go
	 * through the proxy: the cache's watch and the leader Lease are not delayed.
	 */
	@Test
	void aMemberRenewedLateReconcilesItsObjectsAgainOnceItsLeaseIsValid(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS);
		TcpProxy proxy = TcpProxy.to(controlPlane.apiServerUrl());
		Replica a = replica("a", controlPlane, namespace, null, proxy, LEASE, RENEW, Duration.ofMillis(1500));
		startQuietly(a);
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a));
		long settled = System.nanoTime();
		await().atMost(WAIT).until(() -> this.journal.reconcilersSince(settled).size() == OBJECTS);
		this.journal.lapseAndAwaitAllReconciled(proxy, a.ring, OBJECTS, WAIT);
		assertNoOverlapAndNothingMissing();
	}

	/**
	 * The leader, whose sharder assigns the objects, keeps its own objects while its
	 * shard Lease renewals come late: the API server's answers to its Lease requests
	 * arrive 550ms late, so a renewal (a read and a write, about 1.15s) takes more than
	 * half and less than all of what the renew deadline (3s) leaves after the retry
	 * period (1.5s): the fence closes before each renewal lands, for about 0.8s of every
	 * 2.65s, and the Lease is never lost. It counts itself a member until its Lease
	 * expires, as the others do (lease duration 8s). Before, its view dropped itself at
	 * every read of the ring that fell into a closed fence, and its sharder moved all its
	 * objects to the other replica without a give-back, and back.
	 */
	@Test
	void aLeaderWhoseRenewalsComeLateKeepsItsObjects(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS);
		Duration lease = Duration.ofSeconds(8);
		Duration renew = Duration.ofSeconds(3);
		Duration retry = Duration.ofMillis(1500);
		TcpProxy proxy = TcpProxy.to(controlPlane.apiServerUrl());
		Replica a = replica("a", controlPlane, namespace, null, proxy, lease, renew, retry);
		startQuietly(a);
		await().atMost(WAIT).until(() -> a.manager.isLeader());
		Replica b = replica("b", controlPlane, namespace, null, null, lease, renew, retry);
		startQuietly(b);
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b));
		Map<String, String> before = shardLabels(controlPlane, namespace);
		Set<String> ofA = shareOf(before, a);
		assertThat(ofA).isNotEmpty();
		long delayed = System.nanoTime();
		proxy.delay(Duration.ofMillis(550));
		List<List<String>> viewsOfA = new CopyOnWriteArrayList<>();
		int[] lapses = { 0 };
		boolean[] member = { true };
		// eight times the fence closes and opens again; a's view is sampled meanwhile
		await().atMost(WAIT).pollInterval(Duration.ofMillis(10)).until(() -> {
			viewsOfA.add(a.ring.members());
			boolean now = a.ring.isMember();
			if (member[0] && !now) {
				lapses[0]++;
			}
			member[0] = now;
			return lapses[0] >= 8 && now;
		});
		proxy.restore();
		assertThat(viewsOfA).as("a's views of the ring while its renewals came late")
			.allSatisfy((view) -> assertThat(view).contains(a.identity));
		assertThat(shardLabels(controlPlane, namespace)).isEqualTo(before);
		assertThat(this.journal.reconcilersSince(delayed)
			.entrySet()
			.stream()
			.filter((e) -> ofA.contains(e.getKey().name()))
			.flatMap((e) -> e.getValue().stream())
			.collect(Collectors.toSet())).as("who reconciled a's objects").containsOnly(a.identity);
		assertNoOverlapAndNothingMissing();
	}

	/**
	 * A member cut off for longer than its lease duration, whose objects were moved to
	 * the others meanwhile, that holds its Lease again before its cache saw the moves,
	 * reconciles none of the objects its cache still labels as its own: they carry its
	 * earlier term. Its shard Lease and its other requests go through two proxies, and
	 * only the Lease's is restored at first; once its cache is back, it reconciles its
	 * new share, stamped with its new term. Before terms, it reconciled its old objects
	 * beside their new owners, its writes no longer fenced.
	 */
	@Test
	void aMemberBackFromALongPartitionReconcilesNoneOfTheObjectsMovedMeanwhile(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS);
		Replica a = replica("a", controlPlane, namespace, null);
		startQuietly(a);
		await().atMost(WAIT).until(() -> a.manager.isLeader());
		Replica b = replica("b", controlPlane, namespace, null);
		TcpProxy cacheProxy = TcpProxy.to(controlPlane.apiServerUrl());
		TcpProxy leaseProxy = TcpProxy.to(controlPlane.apiServerUrl());
		Replica c = replica("c", controlPlane, namespace, cacheProxy, leaseProxy, LEASE, RENEW, RETRY);
		startQuietly(b);
		startQuietly(c);
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b, c));
		String firstTerm = c.ring.term();
		Set<String> ofC = shareOf(shardLabels(controlPlane, namespace), c);
		assertThat(ofC).isNotEmpty();
		cacheProxy.cut();
		leaseProxy.cut();
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b));
		// its cache still holds its objects as they were before the cut
		assertThat(c.controller.cachedRequests().stream().map(Request::name).collect(Collectors.toSet()))
			.isEqualTo(ofC);
		long leaseBack = System.nanoTime();
		leaseProxy.restore();
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b, c));
		assertThat(c.ring.term()).isNotEqualTo(firstTerm);
		Map<String, String> labels = shardLabels(controlPlane, namespace);
		Set<String> ofCNow = shareOf(labels, c);
		assertThat(ofCNow).isNotEmpty();
		// a and b reconciled their shares since: c had the time to reconcile what its
		// cache holds (its new share it cannot see yet)
		long settled = System.nanoTime();
		await().atMost(WAIT)
			.until(() -> this.journal.reconcilersSince(settled).keySet().size() >= labels.size() - ofCNow.size());
		long cacheBack = System.nanoTime();
		cacheProxy.restore();
		await().atMost(WAIT)
			.until(() -> this.journal.reconcilersSince(cacheBack)
				.entrySet()
				.stream()
				.filter((e) -> e.getValue().contains(c.identity))
				.map((e) -> e.getKey().name())
				.collect(Collectors.toSet())
				.containsAll(ofCNow));
		assertThat(this.journal.entries()
			.filter((entry) -> entry.replica().equals(c.identity) && entry.start() >= leaseBack
					&& entry.start() < cacheBack)
			.map((entry) -> entry.request().name())
			.toList()).as("reconciled by c after it held its Lease again, before its cache was back").isEmpty();
		assertNoOverlapAndNothingMissing();
	}

	/**
	 * A replica that no longer leads (its leader Lease handed to another, under
	 * {@code re-elect}) keeps no metadata of the sharded objects: its sharder gave its
	 * informer back when it stopped. Leading again, its sharder caches them again and
	 * relabels an object whose shard label was removed, which only its informer's handler
	 * tells it of. Before, every term added a handler that outlived it, and the informer
	 * kept listing and watching every object on the replica that no longer led.
	 */
	@Test
	void aReplicaThatNoLongerLeadsKeepsNoMetadataOfTheShardedObjects(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS);
		Replica a = replica("a", controlPlane, namespace);
		startQuietly(a);
		await().atMost(WAIT).until(() -> a.manager.isLeader());
		Replica b = replica("b", controlPlane, namespace);
		startQuietly(b);
		await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b));
		assertThat(sharderCache(a).list()).hasSize(OBJECTS);
		assertThat(sharderCache(b)).as("b never led").isNull();
		for (Replica leader : List.of(b, a, b)) {
			Replica other = (leader == a) ? b : a;
			handLeaderLease(controlPlane, namespace, leader);
			await().atMost(WAIT).until(() -> leader.manager.isLeader() && !other.manager.isLeader());
			await().atMost(WAIT).until(() -> cached(leader) == OBJECTS);
			// before, it kept listing and watching every object
			await().atMost(WAIT).until(() -> cached(other) == 0);
			unlabelOne(controlPlane, namespace);
			await().atMost(WAIT).until(() -> labelled(controlPlane, namespace, a, b));
		}
		assertNoOverlapAndNothingMissing();
	}

	/**
	 * The metadata-only informer of a replica's sharder (its controller caches whole
	 * objects), {@code null} before it first led.
	 */
	private static @Nullable Informer<?> sharderCache(Replica replica) {
		return replica.manager.informers()
			.stream()
			.filter((informer) -> informer.key().metadataOnly())
			.findFirst()
			.orElse(null);
	}

	/** How many objects a replica's sharder caches: none before it first led. */
	private static int cached(Replica replica) {
		Informer<?> informer = sharderCache(replica);
		return (informer != null) ? informer.list().size() : 0;
	}

	/**
	 * Writes a replica's identity into the leader Lease: the leader's next renewal finds
	 * it held by another, and that replica's next try renews it as its own.
	 */
	private static void handLeaderLease(ControlPlane controlPlane, TestNamespace namespace, Replica to) {
		CoordinationV1Api leases = new CoordinationV1Api(controlPlane.adminClient());
		await().atMost(WAIT).until(() -> {
			V1Lease lease = leases.readNamespacedLease("labelled-leader", namespace.name()).execute();
			lease.getSpec().holderIdentity(to.identity);
			try {
				leases.replaceNamespacedLease("labelled-leader", namespace.name(), lease).execute();
				return true;
			}
			catch (ApiException ex) {
				// a renewal landed in between
				return false;
			}
		});
	}

	/** Removes the shard label of one object, which the leader's sharder puts back. */
	private static void unlabelOne(ControlPlane controlPlane, TestNamespace namespace) {
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		await().atMost(WAIT).until(() -> {
			V1ConfigMap object = objects(controlPlane, namespace).get(0);
			object.getMetadata().getLabels().remove(SHARD_LABEL);
			try {
				core.replaceNamespacedConfigMap(object.getMetadata().getName(), namespace.name(), object).execute();
				return true;
			}
			catch (ApiException ex) {
				// the sharder wrote it in between
				return false;
			}
		});
	}

	/**
	 * Whether the ring is settled on these members and every object is labelled with the
	 * member the ring gives it to, in that member's current term, with no drain pending.
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
				List<Replica> owners = Stream.of(members)
					.filter((member) -> member.ring.owns(V1ConfigMap.class, request))
					.toList();
				Map<String, String> annotations = (object.getMetadata().getAnnotations() != null)
						? object.getMetadata().getAnnotations() : Map.of();
				return owners.size() == 1 && owners.get(0).identity.equals(labels.get(SHARD_LABEL))
						&& owners.get(0).ring.term() != null
						&& owners.get(0).ring.term().equals(annotations.get(TERM_ANNOTATION))
						&& !labels.containsKey(DRAIN_LABEL);
			});
		}
		catch (Exception ex) {
			return false;
		}
	}

	/** The names of the objects whose shard label names the replica. */
	private static Set<String> shareOf(Map<String, String> shardLabels, Replica replica) {
		return shardLabels.entrySet()
			.stream()
			.filter((e) -> e.getValue().equals(replica.identity))
			.map(Map.Entry::getKey)
			.collect(Collectors.toSet());
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
			.labelSelector(ShardingJournal.SELECTOR)
			.execute()
			.getItems();
	}

	private void assertNoOverlapAndNothingMissing() {
		this.journal.assertNothingMissing();
		this.journal.assertNoOverlap(OBJECTS);
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
		return replica(identity, controlPlane, namespace, proxy, proxy, LEASE, RENEW, RETRY);
	}

	/**
	 * A replica whose shard Lease requests go through one proxy and all its other
	 * requests (its cache, the leader Lease, its writes) through another, or the same;
	 * its ring uses the timings given.
	 */
	private Replica replica(String identity, ControlPlane controlPlane, TestNamespace namespace,
			@Nullable TcpProxy clientProxy, @Nullable TcpProxy shardLeaseProxy, Duration lease, Duration renew,
			Duration retry) {
		ApiClient client = controlPlane.adminClient();
		ApiClient shardLeaseClient = controlPlane.adminClient();
		if (clientProxy != null) {
			client.setBasePath(clientProxy.url("https"));
		}
		if (shardLeaseProxy != null) {
			shardLeaseClient.setBasePath(shardLeaseProxy.url("https"));
		}
		Manager manager = Manager.builder(client)
			.namespace(namespace.name())
			.cacheTransform(PartialObjectMetadata.class, CacheTransform.removeAnnotations(NOTE))
			.gracefulShutdownTimeout(Duration.ofSeconds(10))
			.leaderElection(new LeaderElectionConfig(namespace.name(), "labelled-leader", identity, LEASE, RENEW, RETRY,
					true, LostLeasePolicy.RE_ELECT))
			.build();
		ShardRing ring = ShardRing.join(manager, shardLeaseClient, new ShardingConfig(namespace.name(), RING, identity,
				lease, renew, retry, 100, ShardingConfig.Mode.LABEL));
		Controller controller = Controller.builder(manager, V1ConfigMap.class)
			.labelSelector(ShardingJournal.SELECTOR)
			.withEventFilter(new EventFilter<V1ConfigMap>() {

				@Override
				public boolean update(V1ConfigMap oldObject, V1ConfigMap newObject) {
					return false;
				}

			})
			.maxConcurrentReconciles(4)
			.gatedBy(ring)
			.complete((request) -> this.journal.reconcile(request, identity,
					() -> manager.cache().get(V1ConfigMap.class, request).isEmpty()));
		Replica replica = new Replica(identity, manager, ring, controller,
				Stream.of(clientProxy, shardLeaseProxy).filter(Objects::nonNull).distinct().toList());
		this.replicas.add(replica);
		return replica;
	}

	private record Replica(String identity, Manager manager, ShardRing ring, Controller controller,
			List<TcpProxy> proxies) {
	}

}
