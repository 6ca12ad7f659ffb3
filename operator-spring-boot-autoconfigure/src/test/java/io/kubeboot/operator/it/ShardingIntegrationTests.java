package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerState;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Filter-based sharding against a real kube-apiserver: several managers in one JVM, each
 * with its own identity and shard Lease, reconcile ConfigMaps that requeue themselves
 * every 200ms, and a journal of every reconcile's start and end shows who reconciled what
 * and that no two replicas ever reconciled one object at once, also while the ring
 * changes. Lease 3s, renew deadline 2s, retry period 0.5s.
 */
@WithControlPlane
class ShardingIntegrationTests {

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static final Duration RENEW = Duration.ofSeconds(2);

	private static final Duration RETRY = Duration.ofMillis(500);

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final int OBJECTS = 60;

	/** Scheduling slack on a loaded two-core machine. */
	private static final Duration SLACK = Duration.ofMillis(1500);

	private static final String RING = "widgets";

	private final List<Replica> replicas = new ArrayList<>();

	private final ShardingJournal journal = new ShardingJournal();

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

	/**
	 * A member whose connection is cut (as after {@code kill -9}, or a network partition)
	 * stops reconciling at its renew deadline; the others take its objects only once its
	 * Lease expired, within lease duration + 2 x retry period of its last renewal.
	 */
	@Test
	void aMemberCutOffStopsAtItsRenewDeadlineAndTheOthersTakeItsObjectsAfterItsLeaseExpired(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS);
		Replica a = replica("a", controlPlane, namespace);
		Replica b = replica("b", controlPlane, namespace);
		Replica c = replica("c", controlPlane, namespace, TcpProxy.to(controlPlane.apiServerUrl()));
		for (Replica replica : this.replicas) {
			replica.manager.start();
		}
		awaitRing(a, b, c);
		long settled = System.nanoTime();
		await().atMost(WAIT).until(() -> reconciledSince(settled).size() == OBJECTS);
		Set<Request> ofC = this.journal.reconcilersSince(settled)
			.entrySet()
			.stream()
			.filter((e) -> e.getValue().contains(c.identity))
			.map(Map.Entry::getKey)
			.collect(Collectors.toSet());
		assertThat(ofC).isNotEmpty();
		long cutAt = System.nanoTime();
		c.proxy.cut();
		await().atMost(WAIT).until(() -> {
			Map<Request, Set<String>> since = this.journal.reconcilersSince(cutAt);
			return ofC.stream()
				.allMatch((request) -> since.containsKey(request) && !since.get(request).equals(Set.of(c.identity)));
		});
		long takenOver = this.journal.entries()
			.filter((entry) -> entry.start() >= cutAt && ofC.contains(entry.request())
					&& !entry.replica().equals(c.identity))
			.mapToLong(ShardingJournal.Entry::start)
			.min()
			.orElseThrow();
		long lastOfC = this.journal.entries()
			.filter((entry) -> entry.replica().equals(c.identity))
			.mapToLong(ShardingJournal.Entry::start)
			.max()
			.orElseThrow();
		System.out.println("objects of a cut-off member taken over after "
				+ Duration.ofNanos(takenOver - cutAt).toMillis() + " ms; its last reconcile started "
				+ Duration.ofNanos(lastOfC - cutAt).toMillis() + " ms after the cut");
		// c stopped by its renew deadline (counted from its last renewal, before the cut)
		assertThat(Duration.ofNanos(lastOfC - cutAt)).isLessThan(RENEW.plus(SLACK));
		// nobody took its objects before its Lease could have expired
		assertThat(Duration.ofNanos(takenOver - cutAt)).isGreaterThan(LEASE.minus(RETRY))
			.isLessThan(LEASE.plus(RETRY.multipliedBy(2)).plus(SLACK));
		assertThat(c.ring.isMember()).isFalse();
		assertThat(readiness(c).run().reason()).isEqualTo("not a member of shard ring widgets: its Lease "
				+ namespace.name() + "/" + c.ring.config().leaseName() + " was not renewed within the renew deadline");
		assertThat(readiness(a).run().ok()).isTrue();
		this.journal.assertNoOverlap(OBJECTS);
		// a Lease not renewed for two lease durations is deleted by the first live member
		await().atMost(WAIT).until(() -> !leaseNames(controlPlane, namespace).contains(c.ring.config().leaseName()));
		assertThat(Duration.ofNanos(System.nanoTime() - cutAt)).isGreaterThan(LEASE.multipliedBy(2).minus(RETRY));
		assertThat(leaseNames(controlPlane, namespace)).contains(a.ring.config().leaseName(),
				b.ring.config().leaseName());
	}

	/**
	 * A member whose renewals time out for a moment (the API server answers its Lease
	 * requests 700ms late) is past its renew deadline, its fence closed, and reconciles
	 * all its objects once it holds its Lease again: the requests that came due meanwhile
	 * waited instead of being dropped. Before, they waited for a change of the ring or a
	 * resync, and the ring does not change: this replica counts itself in its view until
	 * a lease duration after its last renewal. Only the Lease requests go through the
	 * proxy, so the cache's watch is not delayed and no relist queues the objects again.
	 */
	@Test
	void aMemberRenewedLateReconcilesItsObjectsAgainOnceItsLeaseIsValid(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS);
		TcpProxy proxy = TcpProxy.to(controlPlane.apiServerUrl());
		Replica a = replica("a", controlPlane, namespace, proxy, true, LEASE, RENEW, Duration.ofMillis(1500));
		a.manager.start();
		awaitRing(a);
		long settled = System.nanoTime();
		await().atMost(WAIT).until(() -> reconciledSince(settled).size() == OBJECTS);
		this.journal.lapseAndAwaitAllReconciled(proxy, a.ring, OBJECTS, WAIT);
		assertThat(a.ring.members()).containsExactly(a.identity);
		this.journal.assertNoOverlap(OBJECTS);
	}

	/**
	 * A reconcile still running when its replica's membership lapsed cannot write: the
	 * shard Lease fences the sharded controller's writes as the leader Lease fences
	 * leader-only work's.
	 */
	@Test
	void aReconcileInFlightPastTheRenewDeadlineCannotWrite(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		Blocked blocked = blockedReconcile(controlPlane, namespace);
		blocked.proxy.cut();
		await().atMost(WAIT).until(() -> !blocked.ring.isMember());
		blocked.lapsed.countDown();
		assertRefused(blocked.write.get(WAIT.toSeconds(), TimeUnit.SECONDS));
	}

	/**
	 * A member that lost its Lease while a reconcile was running takes it again only once
	 * that reconcile ended: holding the Lease opens the fence, and the reconcile's writes
	 * would pass it although its object may have been taken over meanwhile.
	 */
	@Test
	void aMemberTakesItsLeaseAgainOnlyOnceTheReconcilesBegunUnderTheLostOneEnded(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		Blocked blocked = blockedReconcile(controlPlane, namespace);
		blocked.proxy.cut();
		await().atMost(WAIT).until(() -> !blocked.ring.isMember());
		blocked.proxy.restore();
		Check readiness = readiness(new Replica("alone", blocked.manager, blocked.ring, blocked.proxy));
		await().atMost(WAIT)
			.until(() -> ("not a member of shard ring widgets: its Lease " + namespace.name() + "/"
					+ blocked.ring.config().leaseName()
					+ " was lost while reconciles begun under it (or fleet clusters engaged under it) still run; it is "
					+ "taken again once they ended")
				.equals(readiness.run().reason()));
		assertThat(blocked.ring.isMember()).isFalse();
		blocked.lapsed.countDown();
		assertRefused(blocked.write.get(WAIT.toSeconds(), TimeUnit.SECONDS));
		await().atMost(WAIT).until(blocked.ring::isMember);
	}

	/**
	 * A member stopped gracefully while a reconcile runs for longer than its lease keeps
	 * renewing its Lease until that reconcile ended: its last write lands, and the member
	 * that takes the object over reconciles it only after that write, once the Lease was
	 * released.
	 */
	@Test
	void aStoppingMemberRenewsItsLeaseUntilAReconcileLongerThanTheLeaseFinishedAndItsLastWriteLands(
			ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		Blocked blocked = blockedReconcile(controlPlane, namespace);
		Thread stopping = new Thread(blocked.manager::stop, "stop-alone");
		stopping.start();
		await().atMost(WAIT).until(() -> blocked.manager.state() == ManagerState.STOPPING);
		Replica b = replica("b", controlPlane, namespace);
		b.manager.start();
		await().atMost(WAIT).until(b.ring::isMember);
		// the reconcile goes on for twice the lease: without renewals b counted the
		// stopping member's Lease expired meanwhile and took its object
		Thread.sleep(LEASE.multipliedBy(2).toMillis());
		blocked.lapsed.countDown();
		assertThat(blocked.write.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the reconcile's write after the stop")
			.isNull();
		stopping.join(WAIT.toMillis());
		assertThat(stopping.isAlive()).isFalse();
		Request fenced = new Request(namespace.name(), "fenced");
		await().atMost(WAIT).until(() -> this.journal.entries().anyMatch((entry) -> entry.request().equals(fenced)));
		long firstOfB = this.journal.entries()
			.filter((entry) -> entry.request().equals(fenced))
			.mapToLong(ShardingJournal.Entry::start)
			.min()
			.orElseThrow();
		assertThat(firstOfB).as("b's first reconcile of the object comes after the stopped member's last write")
			.isGreaterThan(blocked.wroteAt.get());
	}

	private static void assertRefused(Throwable refused) {
		assertThat(refused).isInstanceOf(IllegalStateException.class)
			.hasMessageStartingWith("This replica is no longer a member of shard ring widgets (Lease last renewed ")
			.hasMessageEndingWith(
					"a write of a sharded controller is refused so that it cannot race the objects' " + "next owner");
	}

	/**
	 * A single member, all its requests through a proxy, whose reconciler blocks in its
	 * first reconcile until {@code lapsed} and then writes, completing {@code write} with
	 * the write's failure (or {@code null}).
	 */
	private Blocked blockedReconcile(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("fenced").putLabelsItem("sharded", "yes")))
			.execute();
		TcpProxy proxy = TcpProxy.to(controlPlane.apiServerUrl());
		ApiClient client = controlPlane.adminClient();
		client.setBasePath(proxy.url("https"));
		Manager manager = Manager.builder(client)
			.namespace(namespace.name())
			.gracefulShutdownTimeout(Duration.ofSeconds(10))
			.build();
		ShardRing ring = ShardRing.join(manager, client,
				new ShardingConfig(namespace.name(), RING, "alone", LEASE, RENEW, RETRY, 100));
		CountDownLatch inFlight = new CountDownLatch(1);
		CountDownLatch lapsed = new CountDownLatch(1);
		CompletableFuture<Throwable> write = new CompletableFuture<>();
		AtomicLong wroteAt = new AtomicLong();
		Controller.builder(manager, V1ConfigMap.class)
			.labelSelector(ShardingJournal.SELECTOR)
			.gatedBy(ring)
			.complete((request) -> {
				if (write.isDone()) {
					return Result.done();
				}
				// the client resolves the kind once, with a read nothing fences: before
				// the cut
				manager.client().isNamespaced(V1ConfigMap.class);
				inFlight.countDown();
				lapsed.await();
				try {
					V1ConfigMap object = new V1ConfigMap()
						.metadata(new V1ObjectMeta().name(request.name()).namespace(request.namespace()));
					manager.client().patch(object, Patch.merge(Map.of("data", Map.of("written", "late"))));
					wroteAt.set(System.nanoTime());
					write.complete(null);
				}
				catch (RuntimeException ex) {
					write.complete(ex);
				}
				return Result.done();
			});
		this.replicas.add(new Replica("alone", manager, ring, proxy));
		manager.start();
		assertThat(inFlight.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		return new Blocked(manager, ring, proxy, lapsed, write, wroteAt);
	}

	private record Blocked(Manager manager, ShardRing ring, TcpProxy proxy, CountDownLatch lapsed,
			CompletableFuture<Throwable> write, AtomicLong wroteAt) {
	}

	@Test
	void threeMembersEachReconcileTheirShareAndNothingElse(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS);
		Replica a = replica("a", controlPlane, namespace);
		Replica b = replica("b", controlPlane, namespace);
		Replica c = replica("c", controlPlane, namespace);
		for (Replica replica : this.replicas) {
			replica.manager.start();
		}
		awaitRing(a, b, c);
		// a window in which the ring stays as it is
		long from = System.nanoTime();
		await().atMost(WAIT).until(() -> reconciledSince(from).size() == OBJECTS);
		Map<Request, Set<String>> by = this.journal.reconcilersSince(from);
		assertThat(by).hasSize(OBJECTS);
		by.forEach((request, who) -> assertThat(who).as("reconcilers of %s", request).hasSize(1));
		for (Replica replica : List.of(a, b, c)) {
			Set<Request> mine = by.entrySet()
				.stream()
				.filter((e) -> e.getValue().contains(replica.identity))
				.map(Map.Entry::getKey)
				.collect(Collectors.toSet());
			assertThat(mine).as("share of %s", replica.identity).isNotEmpty();
			mine.forEach((request) -> assertThat(replica.ring.owns(V1ConfigMap.class, request)).isTrue());
		}
		// every Lease is labelled with the ring and acknowledges the three members
		List<V1Lease> leases = new CoordinationV1Api(controlPlane.adminClient()).listNamespacedLease(namespace.name())
			.labelSelector(ShardRing.RING_LABEL + "=" + RING)
			.execute()
			.getItems();
		assertThat(leases).hasSize(3)
			.allSatisfy((lease) -> assertThat(lease.getMetadata().getAnnotations().get(ShardRing.DRAINED_ANNOTATION))
				.contains(a.identity)
				.contains(b.identity)
				.contains(c.identity));
		this.journal.assertNoOverlap(OBJECTS);
	}

	@Test
	void aJoiningMemberTakesItsShareAfterTheOthersDrainedAndAStoppedOneHandsItBack(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS);
		Replica a = replica("a", controlPlane, namespace);
		Replica b = replica("b", controlPlane, namespace);
		a.manager.start();
		b.manager.start();
		awaitRing(a, b);
		long before = System.nanoTime();
		await().atMost(WAIT).until(() -> reconciledSince(before).size() == OBJECTS);
		Replica c = replica("c", controlPlane, namespace);
		c.manager.start();
		awaitRing(a, b, c);
		await().atMost(WAIT)
			.until(() -> this.journal.entries().anyMatch((entry) -> entry.replica().equals(c.identity)));
		long joined = System.nanoTime();
		await().atMost(WAIT).until(() -> reconciledSince(joined).size() == OBJECTS);
		Set<Request> ofC = this.journal.reconcilersSince(joined)
			.entrySet()
			.stream()
			.filter((e) -> e.getValue().contains(c.identity))
			.map(Map.Entry::getKey)
			.collect(Collectors.toSet());
		assertThat(ofC).isNotEmpty();
		c.manager.stop();
		long stopped = System.nanoTime();
		// c's objects go back to a and b, after c's last reconcile ended
		await().atMost(WAIT).until(() -> {
			Map<Request, Set<String>> since = this.journal.reconcilersSince(stopped);
			return ofC.stream().allMatch((request) -> since.containsKey(request));
		});
		Map<Request, Set<String>> after = this.journal.reconcilersSince(stopped);
		ofC.forEach((request) -> assertThat(after.get(request)).doesNotContain(c.identity));
		this.journal.assertNoOverlap(OBJECTS);
		// the Lease c released is deleted once it stayed released for a lease duration
		await().atMost(WAIT).until(() -> !leaseNames(controlPlane, namespace).contains(c.ring.config().leaseName()));
		assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isGreaterThan(LEASE.minus(RETRY));
	}

	/**
	 * With a retry period of 20s a member that only read the ring periodically would
	 * notice the stop up to 20s later; watching the ring's Leases it hands over at once.
	 */
	@Test
	void aGracefulStopHandsItsObjectsOverWithinTwoSecondsWithoutWaitingForTheRetryPeriod(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ShardingJournal.createObjects(controlPlane, namespace, OBJECTS);
		Duration retry = Duration.ofSeconds(20);
		Replica a = replica("a", controlPlane, namespace, null, Duration.ofSeconds(60), Duration.ofSeconds(40), retry);
		Replica b = replica("b", controlPlane, namespace, null, Duration.ofSeconds(60), Duration.ofSeconds(40), retry);
		a.manager.start();
		b.manager.start();
		awaitRing(a, b);
		long settled = System.nanoTime();
		await().atMost(WAIT).until(() -> reconciledSince(settled).size() == OBJECTS);
		Set<Request> ofB = this.journal.reconcilersSince(settled)
			.entrySet()
			.stream()
			.filter((e) -> e.getValue().contains(b.identity))
			.map(Map.Entry::getKey)
			.collect(Collectors.toSet());
		assertThat(ofB).isNotEmpty();
		b.manager.stop();
		long stopped = System.nanoTime();
		await().atMost(WAIT).until(() -> this.journal.reconcilersSince(stopped).keySet().containsAll(ofB));
		long handedOver = this.journal.entries()
			.filter((entry) -> entry.start() >= stopped && ofB.contains(entry.request()))
			.mapToLong(ShardingJournal.Entry::start)
			.max()
			.orElseThrow();
		// the first reconcile by a of the last of b's objects
		long lastFirst = ofB.stream()
			.mapToLong((request) -> this.journal.entries()
				.filter((entry) -> entry.start() >= stopped && entry.request().equals(request))
				.mapToLong(ShardingJournal.Entry::start)
				.min()
				.orElseThrow())
			.max()
			.orElseThrow();
		System.out.println("objects of a stopped member handed over after "
				+ Duration.ofNanos(lastFirst - stopped).toMillis() + " ms");
		assertThat(handedOver).isGreaterThanOrEqualTo(lastFirst);
		assertThat(Duration.ofNanos(lastFirst - stopped)).isLessThan(Duration.ofSeconds(2).plus(SLACK));
		this.journal.assertNoOverlap(OBJECTS);
	}

	private static List<String> leaseNames(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		return new CoordinationV1Api(controlPlane.adminClient()).listNamespacedLease(namespace.name())
			.labelSelector(ShardRing.RING_LABEL + "=" + RING)
			.execute()
			.getItems()
			.stream()
			.map((lease) -> lease.getMetadata().getName())
			.toList();
	}

	private static Check readiness(Replica replica) {
		return replica.manager.checks()
			.stream()
			.filter((check) -> check.name().equals("shard-ring-" + RING) && check.probe() == Check.Probe.READINESS)
			.findFirst()
			.orElseThrow();
	}

	private void awaitRing(Replica... members) {
		Set<String> identities = new HashSet<>();
		for (Replica member : members) {
			identities.add(member.identity);
		}
		await().atMost(WAIT)
			.until(() -> List.of(members)
				.stream()
				.allMatch((member) -> member.ring.isMember() && Set.copyOf(member.ring.members()).equals(identities)));
	}

	private Set<Request> reconciledSince(long nanos) {
		return this.journal.reconcilersSince(nanos).keySet();
	}

	private Replica replica(String name, ControlPlane controlPlane, TestNamespace namespace) {
		return replica(name, controlPlane, namespace, null);
	}

	private Replica replica(String name, ControlPlane controlPlane, TestNamespace namespace, @Nullable TcpProxy proxy) {
		return replica(name, controlPlane, namespace, proxy, LEASE, RENEW, RETRY);
	}

	private Replica replica(String name, ControlPlane controlPlane, TestNamespace namespace, @Nullable TcpProxy proxy,
			Duration lease, Duration renew, Duration retry) {
		return replica(name, controlPlane, namespace, proxy, false, lease, renew, retry);
	}

	/**
	 * A replica whose Lease requests, and unless {@code onlyTheLease} all its requests,
	 * go through the proxy.
	 */
	private Replica replica(String name, ControlPlane controlPlane, TestNamespace namespace, @Nullable TcpProxy proxy,
			boolean onlyTheLease, Duration lease, Duration renew, Duration retry) {
		ApiClient client = controlPlane.adminClient();
		ApiClient leaseClient = controlPlane.adminClient();
		if (proxy != null) {
			leaseClient.setBasePath(proxy.url("https"));
			if (!onlyTheLease) {
				client = leaseClient;
			}
		}
		String identity = name + "-" + System.nanoTime();
		Manager manager = Manager.builder(client)
			.namespace(namespace.name())
			.gracefulShutdownTimeout(Duration.ofSeconds(10))
			.build();
		ShardRing ring = ShardRing.join(manager, leaseClient,
				new ShardingConfig(namespace.name(), RING, identity, lease, renew, retry, 100));
		Controller.builder(manager, V1ConfigMap.class)
			.labelSelector(ShardingJournal.SELECTOR)
			.maxConcurrentReconciles(4)
			.gatedBy(ring)
			.complete((request) -> this.journal.reconcile(request, identity, () -> false));
		Replica replica = new Replica(identity, manager, ring, proxy);
		this.replicas.add(replica);
		return replica;
	}

	private record Replica(String identity, Manager manager, ShardRing ring, @Nullable TcpProxy proxy) {
	}

}
