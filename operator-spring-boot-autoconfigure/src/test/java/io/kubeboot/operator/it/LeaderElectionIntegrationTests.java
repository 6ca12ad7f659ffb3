package io.kubeboot.operator.it;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.LeaseAccessDeniedException;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Leader election against a real kube-apiserver: the scenarios of RELIABILITY.md 1 to 10,
 * with short durations (lease 3s, renew deadline 2s, retry period 0.5s). A replica "dies"
 * by having its connection cut at a TCP proxy, so it can neither renew nor release,
 * exactly as after {@code kill -9}.
 */
@WithControlPlane
class LeaderElectionIntegrationTests {

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static final Duration RENEW = Duration.ofSeconds(2);

	private static final Duration RETRY = Duration.ofMillis(500);

	private static final Duration WAIT = Duration.ofSeconds(20);

	/** Scheduling slack on a loaded two-core machine. */
	private static final Duration SLACK = Duration.ofMillis(1500);

	private static final String LEASE_NAME = "test-operator";

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
	void exactlyOneOfSeveralCandidatesStartedAtOnceLeads(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		List<Replica> candidates = List.of(replica("a", controlPlane, namespace), replica("b", controlPlane, namespace),
				replica("c", controlPlane, namespace));
		CountDownLatch go = new CountDownLatch(1);
		List<Thread> starters = new ArrayList<>();
		for (Replica candidate : candidates) {
			Thread starter = new Thread(() -> {
				try {
					go.await();
					candidate.manager.start();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			starter.start();
			starters.add(starter);
		}
		go.countDown();
		for (Thread starter : starters) {
			starter.join();
		}
		await().atMost(WAIT).until(() -> this.leadingNow.get() == 1);
		// stay a few renewals long and make sure nobody else starts leading
		Thread.sleep(LEASE.plus(RETRY.multipliedBy(2)).toMillis());
		assertThat(this.maxLeading).hasValue(1);
		assertThat(candidates.stream().filter((replica) -> replica.manager.isLeader())).hasSize(1);
		Replica leader = candidates.stream().filter((replica) -> replica.manager.isLeader()).findFirst().orElseThrow();
		assertThat(holder(controlPlane, namespace)).isEqualTo(leader.identity);
		assertThat(leader.starts).hasValue(1);
	}

	@Test
	void standbyTakesOverWithinLeaseDurationAfterTheLeaderDies(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		Replica a = replica("a", controlPlane, namespace);
		a.manager.start();
		await().atMost(WAIT).until(a.manager::isLeader);
		Replica b = replica("b", controlPlane, namespace);
		b.manager.start();
		await().atMost(WAIT).until(() -> b.manager.leaderElection().observedLeader() != null);
		long killedAt = System.nanoTime();
		a.proxy.cut();
		await().atMost(WAIT).until(() -> b.startedAt.get() != 0);
		Duration failover = Duration.ofNanos(b.startedAt.get() - killedAt);
		System.out.println("failover after the leader died: " + failover.toMillis() + " ms");
		assertThat(failover).isLessThanOrEqualTo(LEASE.plus(RETRY.multipliedBy(2)).plus(SLACK));
		// the dead leader noticed within its renew deadline and stopped its leader-only
		// work before b started
		assertThat(a.exits).hasValue(1);
		assertThat(a.stoppedAt.get()).isBetween(killedAt, b.startedAt.get());
		assertThat(this.maxLeading).hasValue(1);
		assertThat(b.starts).hasValue(1);
	}

	@Test
	void gracefulStopReleasesTheLeaseAfterWorkStoppedAndStandbyTakesOverAtOnce(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		CoordinationV1Api leases = new CoordinationV1Api(admin);
		List<String> holderAtEndOfReconcile = new CopyOnWriteArrayList<>();
		AtomicLong lastReconcileStart = new AtomicLong();
		CountDownLatch inReconcile = new CountDownLatch(1);
		Replica a = replica("a", controlPlane, namespace, LostLeasePolicy.EXIT,
				(manager) -> Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
					lastReconcileStart.set(System.nanoTime());
					inReconcile.countDown();
					Thread.sleep(1000);
					holderAtEndOfReconcile.add(leases.readNamespacedLease(LEASE_NAME, namespace.name())
						.execute()
						.getSpec()
						.getHolderIdentity());
					return Result.done();
				}));
		new CoreV1Api(admin)
			.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("work")))
			.execute();
		a.manager.start();
		Replica b = replica("b", controlPlane, namespace);
		b.manager.start();
		assertThat(inReconcile.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		a.manager.stop();
		long stoppedAt = System.nanoTime();
		assertThat(holderAtEndOfReconcile).containsExactly(a.identity); // released only
																		// after the
																		// reconcile
																		// finished
		assertThat(lastReconcileStart.get()).isLessThan(stoppedAt);
		await().atMost(WAIT).until(() -> b.startedAt.get() != 0);
		Duration failover = Duration.ofNanos(b.startedAt.get() - stoppedAt);
		System.out.println("failover after a graceful stop with release: " + failover.toMillis() + " ms");
		assertThat(failover).isLessThanOrEqualTo(RETRY.multipliedBy(2).plus(SLACK));
		assertThat(this.maxLeading).hasValue(1);
	}

	/**
	 * A reconcile that outlives the lease duration after a SIGTERM (but not the graceful
	 * timeout) still writes: the stopping leader renews its Lease until its leader-only
	 * work stopped, so its fence stays open and the standby leads only after the last
	 * write, once the Lease is released.
	 */
	@Test
	void gracefulStopRenewsTheLeaseUntilAReconcileLongerThanTheLeaseFinishedAndItsLastWriteLands(
			ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		CountDownLatch inReconcile = new CountDownLatch(1);
		AtomicLong wroteAt = new AtomicLong();
		CompletableFuture<Throwable> write = new CompletableFuture<>();
		Replica a = replica("a", controlPlane, namespace, LostLeasePolicy.EXIT,
				(manager) -> Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
					if (write.isDone()) {
						return Result.done();
					}
					inReconcile.countDown();
					// longer than the lease: without renewals the standby would lead
					// meanwhile
					Thread.sleep(LEASE.plus(RETRY.multipliedBy(2)).plus(SLACK).toMillis());
					try {
						manager.client()
							.patch(new V1ConfigMap()
								.metadata(new V1ObjectMeta().name(request.name()).namespace(request.namespace())),
									Patch.merge(Map.of("data", Map.of("written", "after-stop"))));
						wroteAt.set(System.nanoTime());
						write.complete(null);
					}
					catch (RuntimeException ex) {
						write.complete(ex);
					}
					return Result.done();
				}));
		new CoreV1Api(admin)
			.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("work")))
			.execute();
		a.manager.start();
		Replica b = replica("b", controlPlane, namespace);
		b.manager.start();
		assertThat(inReconcile.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		await().atMost(WAIT).until(() -> a.identity.equals(b.manager.leaderElection().observedLeader()));
		a.manager.stop();
		assertThat(write.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the reconcile's write after the stop").isNull();
		assertThat(new CoreV1Api(admin).readNamespacedConfigMap("work", namespace.name()).execute().getData())
			.containsEntry("written", "after-stop");
		await().atMost(WAIT).until(() -> b.startedAt.get() != 0);
		assertThat(b.startedAt.get()).as("the standby leads after the old leader's last write")
			.isGreaterThan(wroteAt.get());
		assertThat(a.events).containsExactly("started", "stopped");
	}

	/**
	 * With a retry period of 30 s a standby that only polled would take over up to 36 s
	 * after the release; watching the Lease it tries at once.
	 */
	@Test
	void standbyWatchingTheLeaseTakesOverAReleaseWithoutWaitingForItsRetryPeriod(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		LeaderElectionConfig slow = new LeaderElectionConfig(namespace.name(), LEASE_NAME, "template",
				Duration.ofSeconds(60), Duration.ofSeconds(40), Duration.ofSeconds(30), true, LostLeasePolicy.EXIT);
		Replica a = replica("a", controlPlane, (manager) -> {
		}, slow);
		a.manager.start();
		await().atMost(WAIT).until(() -> a.startedAt.get() != 0);
		Replica b = replica("b", controlPlane, (manager) -> {
		}, slow);
		b.manager.start();
		// b tried once, found the Lease held, and now waits for its next retry in 30 s
		await().atMost(WAIT).until(() -> a.identity.equals(b.manager.leaderElection().observedLeader()));
		a.manager.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> b.startedAt.get() != 0);
		assertThat(holder(controlPlane, namespace)).isEqualTo(b.identity);
		assertThat(this.maxLeading).hasValue(1);
	}

	@Test
	void leaderStopsLeadingWithinTheRenewDeadlineWhenTheApiServerIsDown(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		Replica a = replica("a", controlPlane, namespace, LostLeasePolicy.RE_ELECT, (manager) -> {
		});
		a.manager.start();
		await().atMost(WAIT).until(a.manager::isLeader);
		await().atMost(WAIT).until(() -> a.manager.leaderElection().sinceLastRenewal().compareTo(RETRY) < 0);
		long renewedBefore = System.nanoTime() - a.manager.leaderElection().sinceLastRenewal().toNanos();
		controlPlane.stopApiServer();
		try {
			await().atMost(WAIT).until(() -> a.stoppedAt.get() != 0);
			Duration leading = Duration.ofNanos(a.stoppedAt.get() - renewedBefore);
			System.out.println("leader stopped leading after its last renewal: " + leading.toMillis() + " ms");
			assertThat(leading).isLessThanOrEqualTo(RENEW.plus(RETRY).plus(SLACK));
			assertThat(a.manager.isLeader()).isFalse();
		}
		finally {
			controlPlane.startApiServer();
		}
		await().atMost(WAIT).until(a.manager::isLeader); // re-elected after recovery
		assertThat(a.starts).hasValue(2);
		assertThat(this.maxLeading).hasValue(1);
	}

	@Test
	void leaderKeepsTheLeaseThroughAnOutageShorterThanTheRenewDeadlineAndItsWatchesResume(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		List<String> reconciled = new CopyOnWriteArrayList<>();
		Replica a = leaderRecording(reconciled, controlPlane, namespace);
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		a.proxy.cut();
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("during-outage")))
			.execute();
		Thread.sleep(RENEW.dividedBy(2).toMillis()); // the outage, shorter than the renew
														// deadline
		a.proxy.restore();
		await().atMost(WAIT).until(() -> reconciled.contains("during-outage"));
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("after-outage")))
			.execute();
		await().atMost(WAIT).until(() -> reconciled.contains("after-outage"));
		assertThat(a.manager.isLeader()).isTrue();
		assertThat(a.exits).hasValue(0);
		assertThat(a.events).containsExactly("started");
		assertThat(a.starts).hasValue(1);
	}

	/**
	 * A slow API server, not a dead one: every answer to the leader comes 300ms late (a
	 * renewal, a get and an update, takes about twice that, well within the renew
	 * deadline). It keeps leading and reconciling, and the standby never takes over.
	 */
	@Test
	void leaderKeepsTheLeaseAndReconcilesWhileEveryAnswerComesLate(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		List<String> reconciled = new CopyOnWriteArrayList<>();
		Replica a = leaderRecording(reconciled, controlPlane, namespace);
		Replica b = replica("b", controlPlane, namespace);
		b.manager.start();
		await().atMost(WAIT).until(() -> a.identity.equals(b.manager.leaderElection().observedLeader()));
		a.proxy.delay(Duration.ofMillis(300));
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		long slowSince = System.nanoTime();
		for (int i = 0; i < 3; i++) {
			String name = "slow-" + i;
			core.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name(name)))
				.execute();
			await().atMost(WAIT).until(() -> reconciled.contains(name));
		}
		// at least two lease durations of slow answers
		await().atMost(WAIT)
			.until(() -> Duration.ofNanos(System.nanoTime() - slowSince).compareTo(LEASE.multipliedBy(2)) > 0);
		assertThat(a.manager.isLeader()).isTrue();
		assertThat(a.exits).hasValue(0);
		assertThat(b.starts).hasValue(0);
		assertThat(this.maxLeading).hasValue(1);
	}

	/**
	 * Answers that come later than the renew deadline: the leader stops leading by its
	 * deadline, as if the server were gone, and the standby takes over once the Lease
	 * expired, never while the old leader still leads.
	 */
	@Test
	void leaderWhoseAnswersComeLaterThanItsRenewDeadlineStepsDownAndTheStandbyLeads(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		Replica a = replica("a", controlPlane, namespace);
		a.manager.start();
		await().atMost(WAIT).until(a.manager::isLeader);
		Replica b = replica("b", controlPlane, namespace);
		b.manager.start();
		await().atMost(WAIT).until(() -> a.identity.equals(b.manager.leaderElection().observedLeader()));
		long slowSince = System.nanoTime();
		a.proxy.delay(RENEW.plus(RETRY));
		await().atMost(WAIT).until(() -> b.startedAt.get() != 0);
		assertThat(a.exits).hasValue(1);
		assertThat(a.stoppedAt.get()).isBetween(slowSince, b.startedAt.get());
		assertThat(Duration.ofNanos(a.stoppedAt.get() - slowSince)).isLessThan(RENEW.plus(RETRY).plus(SLACK));
		assertThat(this.maxLeading).hasValue(1);
	}

	@Test
	void leaderStepsDownWhenTheLeaseIsTakenOver(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		Replica a = replica("a", controlPlane, namespace);
		a.manager.start();
		await().atMost(WAIT).until(a.manager::isLeader);
		CoordinationV1Api leases = new CoordinationV1Api(controlPlane.adminClient());
		// read and replaced again when a renewal lands in between (409)
		await().atMost(WAIT).ignoreException(ApiException.class).until(() -> {
			V1Lease lease = leases.readNamespacedLease(LEASE_NAME, namespace.name()).execute();
			lease.getSpec().holderIdentity("intruder").leaseDurationSeconds(60);
			leases.replaceNamespacedLease(LEASE_NAME, namespace.name(), lease).execute();
			return true;
		});
		long takenAt = System.nanoTime();
		await().atMost(WAIT).until(() -> a.exits.get() == 1);
		assertThat(Duration.ofNanos(System.nanoTime() - takenAt)).isLessThanOrEqualTo(RENEW.plus(SLACK));
		assertThat(a.manager.isLeader()).isFalse();
		assertThat(holder(controlPlane, namespace)).isEqualTo("intruder");
	}

	@Test
	void deletedLeaseEndsWithASingleLeader(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		Replica a = replica("a", controlPlane, namespace);
		Replica b = replica("b", controlPlane, namespace);
		a.manager.start();
		await().atMost(WAIT).until(a.manager::isLeader);
		b.manager.start();
		// a standby that has seen the Lease: one that never did takes a missing Lease as
		// free, as client-go's does
		await().atMost(WAIT).until(() -> a.identity.equals(b.manager.leaderElection().observedLeader()));
		new CoordinationV1Api(controlPlane.adminClient()).deleteNamespacedLease(LEASE_NAME, namespace.name()).execute();
		await().atMost(WAIT).until(() -> leaseExists(controlPlane, namespace));
		Thread.sleep(LEASE.plus(RETRY.multipliedBy(2)).toMillis());
		assertThat(this.maxLeading).hasValue(1);
		assertThat(this.leadingNow).hasValue(1);
		String holder = holder(controlPlane, namespace);
		assertThat(List.of(a, b).stream().filter((replica) -> replica.manager.isLeader())).singleElement()
			.satisfies((leader) -> assertThat(leader.identity).isEqualTo(holder));
	}

	@Test
	void forbiddenLeaseUpdateFailsStartNamingTheVerbs(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(controlPlane.adminClient());
		rbac.createNamespacedRole(namespace.name(),
				new V1Role().metadata(new V1ObjectMeta().name("lease-reader"))
					.rules(List.of(new V1PolicyRule().apiGroups(List.of("coordination.k8s.io"))
						.resources(List.of("leases"))
						.verbs(List.of("get", "list", "watch")))))
			.execute();
		rbac.createNamespacedRoleBinding(namespace.name(),
				new V1RoleBinding().metadata(new V1ObjectMeta().name("lease-reader"))
					.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("lease-reader"))
					.subjects(List
						.of(new RbacV1Subject().kind("User").name("user2").apiGroup("rbac.authorization.k8s.io"))))
			.execute();
		Manager manager = Manager.builder(controlPlane.clientFor("user2"))
			.namespace(namespace.name())
			.leaderElection(config(namespace, "user2", LostLeasePolicy.EXIT))
			.build();
		assertThatExceptionOfType(LeaseAccessDeniedException.class).isThrownBy(manager::start)
			.withMessage(
					"Leader election needs to create, update leases (coordination.k8s.io) in namespace '" + namespace
							+ "' for its Lease '" + LEASE_NAME + "', which RBAC denies to this operator's identity");
		assertThat(leaseExists(controlPlane, namespace)).isFalse();
	}

	/**
	 * RBAC that stops allowing the Lease's update while this replica leads (get still
	 * allowed): every renewal is refused with 403, and the leader gives up at its renew
	 * deadline, saying why, instead of retrying while it still counts itself leader.
	 */
	@Test
	void leaseUpdateForbiddenWhileLeadingEndsTheTermAtTheRenewDeadline(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(controlPlane.adminClient());
		rbac.createNamespacedRole(namespace.name(), leaseRole(List.of("get", "list", "watch", "create", "update")))
			.execute();
		rbac.createNamespacedRoleBinding(namespace.name(),
				new V1RoleBinding().metadata(new V1ObjectMeta().name("lease-holder"))
					.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("lease-holder"))
					.subjects(List
						.of(new RbacV1Subject().kind("User").name("user3").apiGroup("rbac.authorization.k8s.io"))))
			.execute();
		AtomicInteger exits = new AtomicInteger();
		AtomicLong stoppedAt = new AtomicLong();
		Manager manager = Manager.builder(controlPlane.clientFor("user3"))
			.namespace(namespace.name())
			.leaderElection(config(namespace, "user3", LostLeasePolicy.EXIT))
			.onLostLeaseExit(exits::incrementAndGet)
			.build();
		manager.add("work", (stop) -> {
			try {
				stop.await();
			}
			finally {
				stoppedAt.set(System.nanoTime());
			}
		});
		this.replicas.add(new Replica("user3", TcpProxy.to(controlPlane.apiServerUrl())));
		this.replicas.get(this.replicas.size() - 1).manager = manager;
		manager.start();
		await().atMost(WAIT).until(manager::isLeader);
		rbac.replaceNamespacedRole("lease-holder", namespace.name(),
				leaseRole(List.of("get", "list", "watch", "create")))
			.execute();
		long revokedAt = System.nanoTime();
		await().atMost(WAIT).until(() -> stoppedAt.get() != 0);
		assertThat(manager.isLeader()).isFalse();
		assertThat(exits).hasValue(1);
		// at the renew deadline of the last renewal that RBAC still allowed
		assertThat(Duration.ofNanos(stoppedAt.get() - revokedAt)).isLessThan(RENEW.plus(RETRY).plus(SLACK));
		assertThat(manager.leaderElection().lastError()).contains("403");
		assertThat(holder(controlPlane, namespace)).isEqualTo("user3"); // it could not
																		// release either
	}

	private static V1Role leaseRole(List<String> verbs) {
		return new V1Role().metadata(new V1ObjectMeta().name("lease-holder"))
			.rules(List.of(new V1PolicyRule().apiGroups(List.of("coordination.k8s.io"))
				.resources(List.of("leases"))
				.verbs(verbs)));
	}

	@Test
	void shutdownBeforeBeingElectedNeverAcquiresTheLease(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		CoordinationV1Api leases = new CoordinationV1Api(controlPlane.adminClient());
		leases
			.createNamespacedLease(namespace.name(),
					new V1Lease().metadata(new V1ObjectMeta().name(LEASE_NAME))
						.spec(new V1LeaseSpec().holderIdentity("other").leaseDurationSeconds(3600)))
			.execute();
		Replica a = replica("a", controlPlane, namespace);
		a.manager.start();
		await().atMost(WAIT).until(() -> "other".equals(a.manager.leaderElection().observedLeader()));
		a.manager.stop();
		assertThat(holder(controlPlane, namespace)).isEqualTo("other");
		assertThat(a.starts).hasValue(0);
	}

	/**
	 * Scenario 8 where acquiring is possible: a stop races the acquisition of a free
	 * Lease (none yet, no holder, or one that expired), many times, with and without
	 * release on shutdown. Once stop returned, the candidate holds the Lease only if it
	 * led (its leader-only runnable started), never if release on shutdown is on, and no
	 * leader-only runnable runs or starts.
	 */
	@Test
	void stopRacingTheAcquisitionOfAFreeLeaseLeavesItUnheldUnlessTheReplicaLed(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		CoordinationV1Api leases = new CoordinationV1Api(admin);
		// how long an acquisition takes here, to spread the stops over it
		long acquiring = timeToLead(admin, namespace);
		Random random = new Random();
		List<String> outcomes = new CopyOnWriteArrayList<>();
		AtomicInteger lateStarts = new AtomicInteger();
		for (int i = 0; i < 45; i++) {
			String leaseName = "race-" + i;
			String state = List.of("none", "free", "expired").get(i % 3);
			boolean release = (i / 3) % 2 == 0;
			Duration lease = state.equals("expired") ? Duration.ofSeconds(1) : LEASE;
			if (!state.equals("none")) {
				leases
					.createNamespacedLease(namespace.name(),
							new V1Lease().metadata(new V1ObjectMeta().name(leaseName))
								.spec(new V1LeaseSpec().holderIdentity(state.equals("free") ? "" : "gone")
									.leaseDurationSeconds(1)
									.renewTime(OffsetDateTime.now().minusHours(1))))
					.execute();
			}
			String identity = "racer-" + i;
			AtomicBoolean started = new AtomicBoolean();
			AtomicBoolean running = new AtomicBoolean();
			AtomicBoolean stopReturned = new AtomicBoolean();
			Manager manager = Manager.builder(admin)
				.namespace(namespace.name())
				.leaderElection(new LeaderElectionConfig(namespace.name(), leaseName, identity, lease,
						lease.multipliedBy(2).dividedBy(3), lease.dividedBy(6), release, LostLeasePolicy.RE_ELECT))
				.onLostLeaseExit(() -> {
				})
				.build();
			manager.add("work", (stop) -> {
				if (stopReturned.get()) {
					lateStarts.incrementAndGet();
				}
				started.set(true);
				running.set(true);
				try {
					stop.await();
				}
				finally {
					running.set(false);
				}
			});
			manager.start();
			// a free Lease is taken at the first try, an expired one at the first try a
			// lease duration after the first sighting
			long delay = state.equals("expired")
					? lease.toNanos() + (long) (random.nextDouble() * (lease.dividedBy(5).toNanos() + 2 * acquiring))
					: (long) (random.nextDouble() * 2 * acquiring);
			Thread.sleep(delay / 1_000_000, (int) (delay % 1_000_000));
			manager.stop();
			stopReturned.set(true);
			assertThat(running).as("leader-only work running after stop returned").isFalse();
			String holder = holder(controlPlane, namespace, leaseName);
			if (!started.get() || release) {
				assertThat(holder).as("holder of %s (%s, release %s, led %s)", leaseName, state, release, started.get())
					.isNotEqualTo(identity);
			}
			outcomes.add(started.get() ? "led" : (identity.equals(holder) ? "held" : "never led"));
		}
		System.out.println("stops racing acquisitions (" + Duration.ofNanos(acquiring).toMillis() + " ms each): "
				+ outcomes.stream().collect(Collectors.groupingBy((outcome) -> outcome, Collectors.counting())));
		assertThat(lateStarts).hasValue(0);
	}

	/** Returns how long a candidate takes to lead after its start returned. */
	private long timeToLead(ApiClient admin, TestNamespace namespace) throws Exception {
		AtomicLong ledAt = new AtomicLong();
		Manager manager = Manager.builder(admin)
			.namespace(namespace.name())
			.leaderElection(config(namespace, "warm-up", LostLeasePolicy.EXIT))
			.build();
		manager.add("work", (stop) -> {
			ledAt.set(System.nanoTime());
			stop.await();
		});
		manager.start();
		long startedAt = System.nanoTime();
		await().atMost(WAIT).until(() -> ledAt.get() != 0);
		manager.stop();
		return Math.max(ledAt.get() - startedAt, Duration.ofMillis(10).toNanos());
	}

	@Test
	void reElectPolicyStopsEveryLeaderOnlyRunnableBeforeCampaigningAgain(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		Replica a = replica("a", controlPlane, namespace, LostLeasePolicy.RE_ELECT, (manager) -> {
		});
		Replica b = replica("b", controlPlane, namespace);
		a.manager.start();
		await().atMost(WAIT).until(a.manager::isLeader);
		b.manager.start();
		a.proxy.cut();
		await().atMost(WAIT).until(() -> b.manager.isLeader());
		a.proxy.restore();
		assertThat(a.events).containsExactly("started", "stopped-lost");
		b.manager.stop(); // releases: a campaigns again and wins
		await().atMost(WAIT).until(a.manager::isLeader);
		assertThat(a.events).containsExactly("started", "stopped-lost", "started");
		assertThat(a.starts).hasValue(2);
		assertThat(this.maxLeading).hasValue(1);
	}

	/**
	 * Starts replica "a", whose ConfigMap controller records the names it reconciles, and
	 * waits until it leads.
	 */
	private Replica leaderRecording(List<String> reconciled, ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		Replica a = replica("a", controlPlane, namespace, LostLeasePolicy.EXIT,
				(manager) -> Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
					reconciled.add(request.name());
					return Result.done();
				}));
		a.manager.start();
		await().atMost(WAIT).until(a.manager::isLeader);
		return a;
	}

	private Replica replica(String name, ControlPlane controlPlane, TestNamespace namespace) {
		return replica(name, controlPlane, namespace, LostLeasePolicy.EXIT, (manager) -> {
		});
	}

	private Replica replica(String name, ControlPlane controlPlane, TestNamespace namespace, LostLeasePolicy policy,
			java.util.function.Consumer<Manager> customizer) {
		return replica(name, controlPlane, customizer, config(namespace, "template", policy));
	}

	private Replica replica(String name, ControlPlane controlPlane, java.util.function.Consumer<Manager> customizer,
			LeaderElectionConfig settings) {
		TcpProxy proxy = TcpProxy.to(controlPlane.apiServerUrl());
		ApiClient client = controlPlane.adminClient();
		client.setBasePath(proxy.url("https"));
		Replica replica = new Replica(name + "-" + System.nanoTime(), proxy);
		Manager manager = Manager.builder(client)
			.namespace(settings.namespace())
			.gracefulShutdownTimeout(Duration.ofSeconds(10))
			.leaderElection(new LeaderElectionConfig(settings.namespace(), settings.name(), replica.identity,
					settings.leaseDuration(), settings.renewDeadline(), settings.retryPeriod(),
					settings.releaseOnShutdown(), settings.lostLeasePolicy()))
			.leaderElectionListener(replica)
			.onLostLeaseExit(replica.exits::incrementAndGet)
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

	private static LeaderElectionConfig config(TestNamespace namespace, String identity, LostLeasePolicy policy) {
		return new LeaderElectionConfig(namespace.name(), LEASE_NAME, identity, LEASE, RENEW, RETRY, true, policy);
	}

	private static String holder(ControlPlane controlPlane, TestNamespace namespace) throws ApiException {
		return new CoordinationV1Api(controlPlane.adminClient()).readNamespacedLease(LEASE_NAME, namespace.name())
			.execute()
			.getSpec()
			.getHolderIdentity();
	}

	/** Returns the holder of a Lease, or {@code null} if there is no Lease. */
	private static String holder(ControlPlane controlPlane, TestNamespace namespace, String leaseName)
			throws ApiException {
		try {
			return new CoordinationV1Api(controlPlane.adminClient()).readNamespacedLease(leaseName, namespace.name())
				.execute()
				.getSpec()
				.getHolderIdentity();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw ex;
		}
	}

	private static boolean leaseExists(ControlPlane controlPlane, TestNamespace namespace) {
		try {
			holder(controlPlane, namespace);
			return true;
		}
		catch (ApiException ex) {
			return false;
		}
	}

	static final class Replica implements LeaderElectionListener {

		final String identity;

		final TcpProxy proxy;

		Manager manager;

		final AtomicInteger starts = new AtomicInteger();

		final AtomicInteger exits = new AtomicInteger();

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
