package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.healthz.CheckResult;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A reconcile that ignores its stop and its interruption must not race the next leader:
 * the stopping leader neither releases the Lease nor lets the worker write once its
 * leadership can no longer be vouched for, so the standby's first reconcile of the object
 * begins after the old worker's last write.
 */
@WithControlPlane
class StuckWorkerIntegrationTests {

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static final Duration RENEW = Duration.ofSeconds(2);

	private static final Duration RETRY = Duration.ofMillis(500);

	/** How long the stuck worker keeps trying to write after its stop. */
	private static final Duration STUCK_FOR = Duration.ofSeconds(8);

	@RegisterExtension
	private final TestResources resources = new TestResources();

	private final CountDownLatch release = new CountDownLatch(1);

	/**
	 * Ends the stuck reconcile before the managers stop: {@link TestResources} stops them
	 * after the {@code @AfterEach} methods.
	 */
	@AfterEach
	void release() {
		this.release.countDown();
	}

	@Test
	void standbyReconcilesOnlyAfterTheStuckWorkersLastWrite(ApiClient admin, TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		AtomicLong lastOldWrite = new AtomicLong();
		AtomicInteger refusedOldWrites = new AtomicInteger();
		CountDownLatch writing = new CountDownLatch(3);
		Manager old = manager(admin, ns, "old", (client) -> (request) -> {
			// a reconcile that ignores interrupts and keeps trying to write for
			// STUCK_FOR after its stop, until the test releases it
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			long interruptedAt = 0;
			while (System.nanoTime() < deadline
					&& (interruptedAt == 0 || System.nanoTime() - interruptedAt < STUCK_FOR.toNanos())) {
				try {
					V1ConfigMap current = client.uncached().get(V1ConfigMap.class, request).orElseThrow();
					client.patch(current, Patch.merge(Map.of("data", Map.of("writer", "old"))));
					lastOldWrite.set(System.currentTimeMillis());
					writing.countDown();
				}
				catch (RuntimeException refused) {
					refusedOldWrites.incrementAndGet();
				}
				try {
					if (Thread.interrupted() && interruptedAt == 0) {
						interruptedAt = System.nanoTime();
					}
					if (this.release.await(100, TimeUnit.MILLISECONDS)) {
						break;
					}
				}
				catch (InterruptedException ignored) {
					if (interruptedAt == 0) {
						interruptedAt = System.nanoTime();
					}
				}
			}
			return Result.done();
		});
		AtomicLong firstNewReconcile = new AtomicLong();
		Manager standby = manager(admin, ns, "new", (client) -> (request) -> {
			firstNewReconcile.compareAndSet(0, System.currentTimeMillis());
			return Result.done();
		});
		Client adminClient = old.client();
		old.start();
		await().atMost(Duration.ofSeconds(20)).until(old::isLeader);
		standby.start();
		adminClient.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(ns).name("contested")));
		assertThat(writing.await(20, TimeUnit.SECONDS)).isTrue();

		old.stop();
		assertThat(old.stuckRunnables()).containsExactly("controller-configmap");
		assertThat(old.checks())
			.filteredOn((check) -> check.probe() == Check.Probe.LIVENESS && check.name().equals("leader-work-stopped"))
			.singleElement()
			.extracting(Check::run)
			.extracting(CheckResult::ok)
			.isEqualTo(false);

		await().atMost(Duration.ofSeconds(30)).until(() -> firstNewReconcile.get() != 0);
		// the stuck worker is still trying: its writes are refused, and none landed after
		// the new leader began
		assertThat(refusedOldWrites.get()).isPositive();
		assertThat(lastOldWrite.get()).isLessThan(firstNewReconcile.get());
		this.release.countDown();
		await().atMost(Duration.ofSeconds(30)).until(() -> old.stuckRunnables().isEmpty());
		assertThat(lastOldWrite.get()).isLessThan(firstNewReconcile.get());
	}

	private Manager manager(ApiClient admin, String namespace, String identity,
			java.util.function.Function<Client, io.kubeboot.operator.reconcile.Reconciler> reconciler) {
		Manager manager = Manager.builder(admin)
			.namespace(namespace)
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.leaderElection(new LeaderElectionConfig(namespace, "stuck-lease", identity, LEASE, RENEW, RETRY, true,
					LostLeasePolicy.RE_ELECT))
			.onLostLeaseExit(() -> {
			})
			.build();
		Controller.builder(manager, V1ConfigMap.class).complete(reconciler.apply(manager.client()));
		return this.resources.manager(manager);
	}

}
