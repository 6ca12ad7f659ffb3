package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lease renewals that hang (faults.md scenario 27): the leader's connection to the API
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

	private final List<Replica> replicas = new ArrayList<>();

	private final AtomicInteger leadingNow = new AtomicInteger();

	private final AtomicInteger maxLeading = new AtomicInteger();

	@AfterEach
	void stopReplicas() {
		this.replicas.forEach((replica) -> {
			replica.proxy.restore();
			replica.manager.stop();
			replica.proxy.close();
		});
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
		// was at most one request before the leader's renewal returned
		assertThat(takeOver).isGreaterThan(LEASE.minus(RETRY))
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

	private Replica replica(String name, ControlPlane controlPlane, TestNamespace namespace,
			Consumer<Manager> customizer) {
		TcpProxy proxy = TcpProxy.to(controlPlane.apiServerUrl());
		ApiClient client = controlPlane.adminClient();
		client.setBasePath(proxy.url("https"));
		Replica replica = new Replica(name + "-" + System.nanoTime(), proxy);
		Manager manager = Manager.builder(client)
			.namespace(namespace.name())
			.gracefulShutdownTimeout(Duration.ofSeconds(10))
			.leaderElection(new LeaderElectionConfig(namespace.name(), LEASE_NAME, replica.identity, LEASE, RENEW,
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
