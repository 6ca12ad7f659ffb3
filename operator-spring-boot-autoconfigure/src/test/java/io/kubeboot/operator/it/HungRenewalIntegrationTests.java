package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lease renewals that hang (RELIABILITY.md row 27): the leader's connection to the API
 * server accepts requests but never answers. Its leader-election traffic goes through a
 * {@link TcpProxy} that the tests hang or stall; everything else of the test reaches the
 * API server directly.
 */
@WithControlPlane
class HungRenewalIntegrationTests {

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static final Duration RENEW = Duration.ofSeconds(2);

	private static final Duration RETRY = Duration.ofMillis(500);

	private static final Duration WAIT = Duration.ofSeconds(30);

	/** Scheduling slack on a loaded two-core machine. */
	private static final Duration SLACK = Duration.ofMillis(1500);

	private static final String LEASE_NAME = "hung-renewal";

	private static final String CONTESTED = "contested";

	/** How the client's refusals of leader-only writes begin. */
	private static final String NO_LONGER_LEADS = "This replica no longer leads";

	/**
	 * How long after the hang a reconcile of the old leader keeps writing, ignoring its
	 * stop: well past the renew deadline, within the interruption's grace period.
	 */
	private static final Duration KEEPS_WRITING = Duration.ofSeconds(5);

	/** How soon a write applied by the API server is seen by polling it. */
	private static final Duration SEEN_WITHIN = Duration.ofSeconds(1);

	private final List<Replica> replicas = new ArrayList<>();

	private final List<TcpProxy> proxies = new ArrayList<>();

	private final AtomicInteger leadingNow = new AtomicInteger();

	private final AtomicInteger maxLeading = new AtomicInteger();

	@AfterEach
	void stopReplicas() {
		this.replicas.forEach((replica) -> {
			replica.proxy.restore();
			replica.manager.stop();
			replica.proxy.close();
		});
		this.proxies.forEach(TcpProxy::close);
	}

	@Test
	void leaderWhoseRenewalsHangStopsLeadingByItsRenewDeadlineAndTheStandbyTakesOver(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		Replica a = replica("a", controlPlane, namespace, (manager) -> {
		});
		a.manager.start();
		await().atMost(WAIT).until(a.manager::isLeader);
		Replica b = replica("b", controlPlane, namespace, (manager) -> {
		});
		b.manager.start();
		await().atMost(WAIT).until(() -> a.identity.equals(b.manager.leaderElection().observedLeader()));
		long hungAt = System.nanoTime();
		a.proxy.hang();
		await().atMost(WAIT).until(() -> a.stoppedAt.get() != 0);
		long lastRenewal = System.nanoTime() - a.manager.leaderElection().sinceLastRenewal().toNanos();
		Duration leadingAfterRenewal = Duration.ofNanos(a.stoppedAt.get() - lastRenewal);
		System.out.println("hung leader stopped leading after its last renewal: " + leadingAfterRenewal.toMillis()
				+ " ms (hung " + Duration.ofNanos(hungAt - lastRenewal).toMillis() + " ms after it)");
		assertThat(leadingAfterRenewal).isLessThanOrEqualTo(RENEW.plus(SLACK));
		assertThat(a.events).containsExactly("started", "stopped-lost");
		assertThat(a.manager.isLeader()).isFalse();
		await().atMost(WAIT).until(() -> b.startedAt.get() != 0);
		Duration takeOver = Duration.ofNanos(b.startedAt.get() - lastRenewal);
		System.out.println("standby took over after the hung leader's last renewal: " + takeOver.toMillis() + " ms");
		// the standby waited a lease duration after it last saw the Lease change, which
		// was at most two requests (one retry period each) before the leader's renewal
		// returned
		assertThat(takeOver).isGreaterThan(LEASE.minus(RETRY.multipliedBy(2)))
			.isLessThanOrEqualTo(LEASE.plus(RETRY.multipliedBy(2)).plus(SLACK));
		assertThat(b.startedAt.get()).isGreaterThan(a.stoppedAt.get());
		assertThat(this.maxLeading).hasValue(1);
	}

	@Test
	void renewalHungOnAHalfOpenConnectionIsRetriedOnANewOneAndKeepsTheLease(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		Replica a = replica("a", controlPlane, namespace, (manager) -> {
		});
		a.manager.start();
		await().atMost(WAIT).until(a.manager::isLeader);
		Replica b = replica("b", controlPlane, namespace, (manager) -> {
		});
		b.manager.start();
		await().atMost(WAIT).until(() -> a.identity.equals(b.manager.leaderElection().observedLeader()));
		// every open connection goes silent; new ones work
		a.proxy.stall();
		long stalledAt = System.nanoTime();
		await().atMost(WAIT)
			.until(() -> System.nanoTime() - stalledAt > RENEW.multipliedBy(3).toNanos()
					|| !a.events.equals(List.of("started")));
		assertThat(a.events).containsExactly("started");
		assertThat(a.manager.isLeader()).isTrue();
		assertThat(a.manager.leaderElection().sinceLastRenewal()).isLessThan(RENEW);
		assertThat(b.starts).hasValue(0);
	}

	/**
	 * Scenario 27's "no write after it" and scenario 4's "no writes after the deadline",
	 * checked on the API server: the old leader's reconciles keep writing through a
	 * client that still reaches the API server (only its leader election hangs), and
	 * ignore their stop for a few seconds, yet none of their writes is seen on the object
	 * after the old leader's renew deadline.
	 */
	@Test
	void oldLeaderWritesNothingAfterItsRenewDeadlineThoughItsClientStillWorks(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		String ns = namespace.name();
		new CoreV1Api(admin)
			.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name(CONTESTED)))
			.execute();
		AtomicInteger refused = new AtomicInteger();
		AtomicInteger sent = new AtomicInteger();
		AtomicLong hungAt = new AtomicLong();
		Replica a = replica("a", controlPlane, namespace, (manager) -> {
			Client writer = Client.create(controlPlane.adminClient(), manager.cache(), "old-leader", WAIT);
			Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
				// writes every 100 ms until KEEPS_WRITING after the hang, ignoring
				// its stop and its interruption
				while (hungAt.get() == 0 || System.nanoTime() - hungAt.get() < KEEPS_WRITING.toNanos()) {
					try {
						writer.patch(contested(ns),
								Patch.merge(Map.of("data", Map.of("old", Integer.toString(sent.incrementAndGet())))));
					}
					catch (RuntimeException ex) {
						if (String.valueOf(ex.getMessage()).startsWith(NO_LONGER_LEADS)) {
							refused.incrementAndGet();
						}
						// else an interrupted call, say: keep writing
						Thread.interrupted();
					}
					sleepIgnoringInterrupts(Duration.ofMillis(100));
				}
				return Result.requeueAfter(Duration.ofMillis(10));
			});
		});
		Replica b = replica("b", controlPlane, namespace,
				(manager) -> Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
					manager.client().patch(contested(ns), Patch.merge(Map.of("data", Map.of("new", "b"))));
					return Result.done();
				}));
		try (ObjectHistory history = new ObjectHistory(admin, ns)) {
			a.manager.start();
			await().atMost(WAIT).until(() -> history.changesOf("old").size() >= 3);
			b.manager.start();
			await().atMost(WAIT).until(() -> a.identity.equals(b.manager.leaderElection().observedLeader()));
			hungAt.set(System.nanoTime());
			a.proxy.hang();
			await().atMost(WAIT).until(() -> a.stoppedAt.get() != 0);
			long deadline = System.nanoTime() - a.manager.leaderElection().sinceLastRenewal().toNanos()
					+ RENEW.toNanos();
			await().atMost(WAIT).until(() -> history.changesOf("new").size() == 1);
			// the reconcile in flight kept trying for seconds after the deadline
			await().atMost(WAIT)
				.until(() -> System.nanoTime() - hungAt.get() > KEEPS_WRITING.toNanos()
						&& Controller.forKind(a.manager, V1ConfigMap.class).activeWorkers() == 0);
			assertThat(a.manager.stuckRunnables()).isEmpty();
			List<Long> oldWrites = history.changesOf("old");
			System.out.println("old leader's writes seen on the API server: " + oldWrites.size() + ", last "
					+ Duration.ofNanos(oldWrites.get(oldWrites.size() - 1) - deadline).toMillis()
					+ " ms after its renew deadline; refused: " + refused.get());
			assertThat(refused.get()).isPositive();
			assertThat(oldWrites)
				.allSatisfy((seenAt) -> assertThat(seenAt).isLessThan(deadline + SEEN_WITHIN.toNanos()));
			assertThat(history.changesOf("new").get(0)).isGreaterThan(oldWrites.get(oldWrites.size() - 1));
			assertThat(this.maxLeading).hasValue(1);
		}
	}

	/**
	 * A write in flight when the renewals start to hang, on a connection that hangs too:
	 * the fence cancels it when the renew deadline passes, and the reconcile learns that
	 * its leadership is gone, instead of waiting for the client's timeout (30 s here) or
	 * the interruption of leader-only work after a lost Lease.
	 */
	@Test
	void writeInFlightWhenTheLeaseIsLostIsCutOffAtTheRenewDeadline(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient admin = controlPlane.adminClient();
		String ns = namespace.name();
		new CoreV1Api(admin)
			.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name(CONTESTED)))
			.execute();
		TcpProxy writes = TcpProxy.to(controlPlane.apiServerUrl());
		this.proxies.add(writes);
		ApiClient writesClient = controlPlane.adminClient();
		writesClient.setBasePath(writes.url("https"));
		CountDownLatch firstWritten = new CountDownLatch(1);
		CountDownLatch hung = new CountDownLatch(1);
		AtomicLong writeEnded = new AtomicLong();
		AtomicReference<RuntimeException> writeFailure = new AtomicReference<>();
		// a long lease: the leader-only work is interrupted only lease - renew deadline
		// (8 s) after the loss, so that only the fence can end the write sooner
		Replica a = replica("a", controlPlane, namespace, Duration.ofSeconds(10), (manager) -> {
			Client writer = Client.create(writesClient, manager.cache(), "old-leader", WAIT);
			Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
				if (firstWritten.getCount() == 0) {
					return Result.done();
				}
				writer.patch(contested(ns), Patch.merge(Map.of("data", Map.of("old", "1"))));
				firstWritten.countDown();
				hung.await();
				try {
					writer.patch(contested(ns), Patch.merge(Map.of("data", Map.of("old", "2"))));
				}
				catch (RuntimeException ex) {
					writeFailure.set(ex);
				}
				writeEnded.set(System.nanoTime());
				return Result.done();
			});
		});
		a.manager.start();
		assertThat(firstWritten.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		a.proxy.hang();
		writes.hang();
		hung.countDown();
		await().atMost(WAIT).until(() -> writeEnded.get() != 0);
		long deadline = System.nanoTime() - a.manager.leaderElection().sinceLastRenewal().toNanos() + RENEW.toNanos();
		System.out.println("write in flight ended " + Duration.ofNanos(writeEnded.get() - deadline).toMillis()
				+ " ms after the renew deadline");
		assertThat(writeEnded.get()).isLessThan(deadline + SLACK.toNanos());
		assertThat(writeFailure.get()).hasMessageStartingWith(NO_LONGER_LEADS)
			.hasMessageContaining("a write of leader-only work still unanswered when the renew deadline passed");
		assertThat(new CoreV1Api(admin).readNamespacedConfigMap(CONTESTED, ns).execute().getData()).containsEntry("old",
				"1");
		await().atMost(WAIT).until(() -> a.stoppedAt.get() != 0);
		assertThat(a.manager.stuckRunnables()).isEmpty();
	}

	private static V1ConfigMap contested(String namespace) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(CONTESTED));
	}

	/** Sleeps, swallowing interruptions, as a reconcile that ignores them would. */
	private static void sleepIgnoringInterrupts(Duration duration) {
		long end = System.nanoTime() + duration.toNanos();
		while (System.nanoTime() < end) {
			try {
				Thread.sleep(Math.max(1, (end - System.nanoTime()) / 1_000_000));
			}
			catch (InterruptedException ignored) {
				// keeps going
			}
		}
	}

	private Replica replica(String name, ControlPlane controlPlane, TestNamespace namespace,
			Consumer<Manager> customizer) {
		return replica(name, controlPlane, namespace, LEASE, customizer);
	}

	private Replica replica(String name, ControlPlane controlPlane, TestNamespace namespace, Duration lease,
			Consumer<Manager> customizer) {
		TcpProxy proxy = TcpProxy.to(controlPlane.apiServerUrl());
		ApiClient client = controlPlane.adminClient();
		client.setBasePath(proxy.url("https"));
		Replica replica = new Replica(name + "-" + System.nanoTime(), proxy);
		Manager manager = Manager.builder(client)
			.namespace(namespace.name())
			.gracefulShutdownTimeout(Duration.ofSeconds(10))
			.leaderElection(new LeaderElectionConfig(namespace.name(), LEASE_NAME, replica.identity, lease, RENEW,
					RETRY, true, LostLeasePolicy.RE_ELECT))
			.leaderElectionListener(replica)
			.onLostLeaseExit(() -> {
			})
			.build();
		manager.add("work", (stop) -> {
			replica.starts.incrementAndGet();
			replica.startedAt.set(System.nanoTime());
			this.maxLeading.accumulateAndGet(this.leadingNow.incrementAndGet(), Math::max);
			try {
				stop.await();
			}
			finally {
				this.leadingNow.decrementAndGet();
				replica.stoppedAt.set(System.nanoTime());
			}
		});
		customizer.accept(manager);
		replica.manager = manager;
		this.replicas.add(replica);
		return replica;
	}

	/**
	 * Polls the contested ConfigMap on the API server every 20 ms and records when each
	 * value of its data keys was first seen, on the monotonic clock: a write was applied
	 * at the latest when it was seen.
	 */
	private static final class ObjectHistory implements AutoCloseable {

		private final Map<String, List<Long>> changes = new ConcurrentHashMap<>();

		private final Thread thread;

		ObjectHistory(ApiClient client, String namespace) {
			CoreV1Api api = new CoreV1Api(client);
			this.thread = new Thread(() -> {
				Map<String, String> last = new HashMap<>();
				while (!Thread.currentThread().isInterrupted()) {
					try {
						Map<String, String> data = api.readNamespacedConfigMap(CONTESTED, namespace)
							.execute()
							.getData();
						long now = System.nanoTime();
						if (data != null) {
							data.forEach((key, value) -> {
								if (!value.equals(last.put(key, value))) {
									this.changes.computeIfAbsent(key, (k) -> new CopyOnWriteArrayList<>()).add(now);
								}
							});
						}
						Thread.sleep(20);
					}
					catch (InterruptedException ex) {
						return;
					}
					catch (ApiException ex) {
						// the next poll tries again
					}
				}
			}, "object-history");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		List<Long> changesOf(String key) {
			return List.copyOf(this.changes.getOrDefault(key, List.of()));
		}

		@Override
		public void close() throws InterruptedException {
			this.thread.interrupt();
			this.thread.join(5000);
		}

	}

	static final class Replica implements LeaderElectionListener {

		final String identity;

		final TcpProxy proxy;

		Manager manager;

		final AtomicInteger starts = new AtomicInteger();

		final AtomicLong startedAt = new AtomicLong();

		final AtomicLong stoppedAt = new AtomicLong();

		final List<String> events = new CopyOnWriteArrayList<>();

		Replica(String identity, TcpProxy proxy) {
			this.identity = identity;
			this.proxy = proxy;
		}

		@Override
		public void startedLeading(String identity) {
			this.events.add("started");
		}

		@Override
		public void stoppedLeading(String identity, boolean lost) {
			this.events.add(lost ? "stopped-lost" : "stopped");
		}

	}

}
