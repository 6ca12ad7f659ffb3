package io.kubeboot.operator.it;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.cache.ObjectBudgets;
import io.kubeboot.operator.cluster.ClusterProvider;
import io.kubeboot.operator.cluster.ClusterStatus;
import io.kubeboot.operator.cluster.ClusterStatus.State;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.cluster.KubeconfigSecrets;
import io.kubeboot.operator.cluster.StaticClusters;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A fleet against three real control planes: the home cluster (the shared one, a hub
 * holding what every member must have) and two members on loopback ports of their own.
 * Its controller copies each home ConfigMap named {@code desired-*} into a namespace of
 * every engaged member, through that member's client.
 */
@WithControlPlane
class FleetIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String MEMBER_NAMESPACE = "fleet-" + UUID.randomUUID().toString().substring(0, 8);

	private static List<ControlPlane> members;

	private static ControlPlane memberA;

	private static ControlPlane memberB;

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@BeforeAll
	static void startMembers() throws Exception {
		members = FleetMembers.start(MEMBER_NAMESPACE, 2);
		memberA = members.get(0);
		memberB = members.get(1);
	}

	@AfterAll
	static void stopMembers() {
		FleetMembers.close(members);
	}

	@Test
	void clustersJoinAndLeaveThroughSecretsWhileTheFleetRuns(ApiClient admin, TestNamespace hub) throws Exception {
		// a budget for a kind only the home cluster caches binds no member
		Manager home = this.resources
			.manager(homeBuilder(admin, hub).objectBudgets(new ObjectBudgets(0, Map.of("Secret", 100))).build());
		Fleet fleet = Fleet.builder(home)
			.provider(StaticClusters.of(Map.of("a", memberA.adminClient())))
			.provider(KubeconfigSecrets.in(home, hub.name()))
			.build();
		copyController(fleet, home, hub);
		start(home);
		CoreV1Api hubApi = new CoreV1Api(admin);
		hubApi.createNamespacedConfigMap(hub.name(), desired("desired-one", "1")).execute();
		awaitCopy(memberA, "desired-one", "1");

		hubApi.createNamespacedSecret(hub.name(), kubeconfigSecret("b", kubeconfigOf(memberB))).execute();
		awaitCopy(memberB, "desired-one", "1");
		await().atMost(WAIT)
			.until(() -> fleet.statuses().stream().map(ClusterStatus::state).toList(),
					(states) -> states.equals(List.of(State.RUNNING, State.RUNNING)));
		assertThat(fleet.clusters()).extracting((cluster) -> cluster.name()).containsExactly("a", "b");

		hubApi.replaceNamespacedConfigMap("desired-one", hub.name(), desired("desired-one", "2")).execute();
		awaitCopy(memberA, "desired-one", "2");
		awaitCopy(memberB, "desired-one", "2");

		// a member's own change is seen through that member's caches
		new CoreV1Api(memberB.adminClient()).deleteNamespacedConfigMap("desired-one", MEMBER_NAMESPACE).execute();
		awaitCopy(memberB, "desired-one", "2");

		hubApi.deleteNamespacedSecret("b", hub.name()).execute();
		await().atMost(WAIT).until(() -> fleet.cluster("b").isEmpty() && fleet.statuses().size() == 1);
		hubApi.replaceNamespacedConfigMap("desired-one", hub.name(), desired("desired-one", "3")).execute();
		awaitCopy(memberA, "desired-one", "3");
		// disengaged: nothing writes to b any more
		new CoreV1Api(memberB.adminClient()).deleteNamespacedConfigMap("desired-one", MEMBER_NAMESPACE).execute();
		hubApi.createNamespacedConfigMap(hub.name(), desired("desired-two", "1")).execute();
		awaitCopy(memberA, "desired-two", "1");
		assertThat(copy(memberB, "desired-one")).isEmpty();
		assertThat(copy(memberB, "desired-two")).isEmpty();
	}

	@Test
	void aMemberWhoseApiServerIsDownStopsNoOther(ApiClient admin, TestNamespace hub) throws Exception {
		Manager home = home(admin, hub);
		Fleet fleet = Fleet.builder(home)
			.provider(StaticClusters.of(Map.of("a", memberA.adminClient(), "b", memberB.adminClient())))
			.build();
		copyController(fleet, home, hub);
		start(home);
		CoreV1Api hubApi = new CoreV1Api(admin);
		hubApi.createNamespacedConfigMap(hub.name(), desired("desired-down", "1")).execute();
		awaitCopy(memberA, "desired-down", "1");
		awaitCopy(memberB, "desired-down", "1");
		memberB.killApiServer();
		try {
			hubApi.replaceNamespacedConfigMap("desired-down", hub.name(), desired("desired-down", "2")).execute();
			awaitCopy(memberA, "desired-down", "2");
			hubApi.createNamespacedConfigMap(hub.name(), desired("desired-while-down", "1")).execute();
			awaitCopy(memberA, "desired-while-down", "1");
		}
		finally {
			memberB.startApiServer();
		}
		// the requests queued while it was down are retried once it is back
		awaitCopy(memberB, "desired-down", "2");
		awaitCopy(memberB, "desired-while-down", "1");
	}

	@Test
	void badAndUnreachableKubeconfigSecretsAreReportedAndStopNoOther(ApiClient admin, TestNamespace hub)
			throws Exception {
		Manager home = home(admin, hub);
		Fleet fleet = Fleet.builder(home)
			.provider(StaticClusters.of(Map.of("a", memberA.adminClient())))
			.provider(KubeconfigSecrets.in(home, hub.name()))
			.build();
		copyController(fleet, home, hub);
		CoreV1Api hubApi = new CoreV1Api(admin);
		String good = kubeconfigOf(memberB);
		String exec = good.replaceFirst("token: .*",
				"exec: {apiVersion: client.authentication.k8s.io/v1, command: " + "/bin/sh, args: [-c, 'echo {}']}");
		hubApi.createNamespacedSecret(hub.name(), kubeconfigSecret("runs-a-command", exec)).execute();
		hubApi.createNamespacedSecret(hub.name(), kubeconfigSecret("not-yaml", "{{{")).execute();
		String unreachable = good.replaceFirst("server: .*", "server: https://127.0.0.1:" + freePort());
		hubApi.createNamespacedSecret(hub.name(), kubeconfigSecret("unreachable", unreachable)).execute();
		start(home);
		hubApi.createNamespacedConfigMap(hub.name(), desired("desired-bad", "1")).execute();
		awaitCopy(memberA, "desired-bad", "1");
		await().atMost(WAIT).untilAsserted(() -> {
			assertThat(status(fleet, "runs-a-command")).satisfies((status) -> {
				assertThat(status.state()).isEqualTo(State.REFUSED);
				assertThat(status.error()).contains("users[admin].exec");
			});
			assertThat(status(fleet, "not-yaml").state()).isEqualTo(State.REFUSED);
			assertThat(status(fleet, "unreachable")).satisfies((status) -> {
				assertThat(status.state()).isEqualTo(State.STARTING);
				assertThat(status.error()).isNotNull();
			});
		});
		assertThat(status(fleet, "a").state()).isEqualTo(State.RUNNING);

		// a cluster still trying to start leaves at once
		hubApi.deleteNamespacedSecret("unreachable", hub.name()).execute();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> fleet.statuses().stream().noneMatch((status) -> status.name().equals("unreachable")));
		// a refused Secret that is mended is engaged
		hubApi.replaceNamespacedSecret("runs-a-command", hub.name(), kubeconfigSecret("runs-a-command", good))
			.execute();
		awaitCopy(memberB, "desired-bad", "1");
		assertThat(status(fleet, "runs-a-command").state()).isEqualTo(State.RUNNING);
	}

	/**
	 * A member's controllers write under the home Lease's fence: once the leader's
	 * renewals hang past the renew deadline, a member reconcile that ignores its stop has
	 * its writes refused, though its member's API server still answers.
	 */
	@Test
	void aMembersWritesStopWithTheHomeLeadership(ControlPlane hubPlane, TestNamespace hub) throws Exception {
		TcpProxy proxy = this.resources.closeable(TcpProxy.to(hubPlane.apiServerUrl()));
		ApiClient throughProxy = hubPlane.adminClient();
		throughProxy.setBasePath(proxy.url("https"));
		Manager home = this.resources
			.manager(Manager.builder(throughProxy)
				.namespace(hub.name())
				.gracefulShutdownTimeout(Duration.ofSeconds(20))
				.leaderElection(new LeaderElectionConfig(hub.name(), "fleet", "home-" + System.nanoTime(),
						Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(500), true,
						LostLeasePolicy.RE_ELECT))
				.onLostLeaseExit(() -> {
				})
				.build());
		Fleet fleet = Fleet.builder(home).provider(StaticClusters.of(Map.of("a", memberA.adminClient()))).build();
		new CoreV1Api(memberA.adminClient())
			.createNamespacedConfigMap(MEMBER_NAMESPACE, new V1ConfigMap().metadata(new V1ObjectMeta().name("fenced")))
			.execute();
		AtomicInteger written = new AtomicInteger();
		AtomicReference<String> refusal = new AtomicReference<>();
		fleet.controller(V1ConfigMap.class)
			.named("fenced")
			.configure((builder) -> builder.namespace(MEMBER_NAMESPACE)
				.withEventFilter(EventFilters.matching("fenced",
						(configMap) -> "fenced".equals(configMap.getMetadata().getName()))))
			.complete((cluster, request) -> {
				// writes until refused, ignoring its stop and interruption
				while (refusal.get() == null) {
					try {
						cluster.client()
							.patch(new V1ConfigMap()
								.metadata(new V1ObjectMeta().namespace(MEMBER_NAMESPACE).name("fenced")),
									Patch.merge(
											Map.of("data", Map.of("n", Integer.toString(written.incrementAndGet())))));
					}
					catch (RuntimeException ex) {
						if (String.valueOf(ex.getMessage()).startsWith("This replica no longer leads")) {
							refusal.set(ex.getMessage());
						}
						Thread.interrupted();
					}
					try {
						Thread.sleep(100);
					}
					catch (InterruptedException ex) {
						// keeps writing: the fence, not the stop, must end its writes
					}
				}
				return Result.done();
			});
		home.start();
		await().atMost(WAIT).until(() -> written.get() >= 3);
		proxy.hang();
		await().atMost(WAIT).until(() -> refusal.get() != null);
		proxy.restore();
	}

	/**
	 * A cluster engaged again while a reconcile of its old engagement runs, directly or
	 * after its provider disengaged it: the provider is not held up, another cluster
	 * engages meanwhile, and the new engagement reconciles nothing before the old one's
	 * reconcile ended.
	 */
	@ParameterizedTest(name = "disengaged first: {0}")
	@ValueSource(booleans = { false, true })
	void aClusterEngagedAgainWaitsForItsOldReconcilesAndDelaysNoOther(boolean disengagedFirst, ApiClient admin,
			TestNamespace hub) throws Exception {
		String slow = "slow-" + disengagedFirst;
		// the old reconcile waits for the test, never for the graceful shutdown timeout
		Manager home = this.resources
			.manager(homeBuilder(admin, hub).gracefulShutdownTimeout(Duration.ofSeconds(60)).build());
		AtomicReference<ClusterProvider.Clusters> provider = new AtomicReference<>();
		Fleet fleet = Fleet.builder(home).provider((clusters, stop) -> {
			provider.set(clusters);
			stop.await();
		}).build();
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<String> journal = new CopyOnWriteArrayList<>();
		fleet.controller(V1ConfigMap.class)
			.named("slow")
			.configure(
					(builder) -> builder.namespace(MEMBER_NAMESPACE)
						.withEventFilter(EventFilters.matching("slow",
								(configMap) -> slow.equals(configMap.getMetadata().getName()))))
			.complete((cluster, request) -> {
				String engagement = cluster.name() + "#" + System.identityHashCode(cluster);
				journal.add("start " + engagement);
				if (cluster.name().equals("a") && entered.getCount() > 0) {
					entered.countDown();
					// ignores the graceful stop's wait, not an interrupt
					release.await();
				}
				journal.add("end " + engagement);
				return Result.done();
			});
		new CoreV1Api(memberA.adminClient())
			.createNamespacedConfigMap(MEMBER_NAMESPACE, new V1ConfigMap().metadata(new V1ObjectMeta().name(slow)))
			.execute();
		String old = null;
		try {
			start(home);
			await().atMost(WAIT).until(() -> provider.get() != null);
			provider.get().engage("a", memberA.adminClient());
			assertThat(entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
			old = journal.get(0).substring("start ".length());

			if (disengagedFirst) {
				provider.get().disengage("a");
			}
			provider.get().engage("a", memberA.adminClient());
			provider.get().engage("b", memberB.adminClient());
			await().atMost(WAIT).until(() -> fleet.cluster("b").isPresent());
			assertThat(journal).containsExactly("start " + old);
		}
		finally {
			release.countDown();
		}
		await().atMost(WAIT).until(() -> journal.size() >= 3);
		assertThat(journal.get(1)).isEqualTo("end " + old);
		assertThat(journal.get(2)).startsWith("start a#").isNotEqualTo("start " + old);
	}

	/**
	 * A member reconcile that ignores its stop and its interruption keeps the fleet's
	 * runnable alive: the home manager reports it stuck, as its own leader-only work,
	 * until the reconcile ends.
	 */
	@Test
	void aMemberReconcileThatIgnoresItsStopKeepsTheFleetStuck(ApiClient admin, TestNamespace hub) throws Exception {
		Manager home = this.resources
			.manager(homeBuilder(admin, hub).gracefulShutdownTimeout(Duration.ofSeconds(1)).build());
		Fleet fleet = Fleet.builder(home).provider(StaticClusters.of(Map.of("a", memberA.adminClient()))).build();
		CountDownLatch entered = new CountDownLatch(1);
		AtomicBoolean release = new AtomicBoolean();
		fleet.controller(V1ConfigMap.class)
			.named("stubborn")
			.configure((builder) -> builder.namespace(MEMBER_NAMESPACE)
				.withEventFilter(EventFilters.matching("stubborn",
						(configMap) -> "stubborn".equals(configMap.getMetadata().getName()))))
			.complete((cluster, request) -> {
				entered.countDown();
				while (!release.get()) {
					try {
						Thread.sleep(50);
					}
					catch (InterruptedException ex) {
						// ignored
					}
				}
				return Result.done();
			});
		new CoreV1Api(memberA.adminClient())
			.createNamespacedConfigMap(MEMBER_NAMESPACE,
					new V1ConfigMap().metadata(new V1ObjectMeta().name("stubborn")))
			.execute();
		try {
			start(home);
			assertThat(entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
			home.stop();
			assertThat(home.stuckRunnables()).containsExactly(Fleet.RUNNABLE_NAME);
			assertThat(home.isLeaderWorkRunning()).isTrue();
		}
		finally {
			release.set(true);
		}
		await().atMost(WAIT).until(() -> !home.isLeaderWorkRunning());
	}

	private Manager home(ApiClient admin, TestNamespace hub) {
		return this.resources.manager(homeBuilder(admin, hub).build());
	}

	private static ManagerBuilder homeBuilder(ApiClient admin, TestNamespace hub) {
		return Manager.builder(admin)
			.namespace(hub.name())
			.cacheSyncTimeout(Duration.ofSeconds(5))
			.gracefulShutdownTimeout(Duration.ofSeconds(10));
	}

	private void start(Manager home) throws InterruptedException {
		home.start();
	}

	/**
	 * Copies each home ConfigMap named {@code desired-*} into every member, deleting the
	 * copy when it is deleted.
	 */
	private static void copyController(Fleet fleet, Manager home, TestNamespace hub) {
		fleet.controller(V1ConfigMap.class)
			.named("copy")
			.configure((builder) -> builder.namespace(MEMBER_NAMESPACE))
			.watchesHome(V1ConfigMap.class,
					(desired) -> desired.getMetadata().getName().startsWith("desired-")
							? List.of(Request.of(MEMBER_NAMESPACE, desired.getMetadata().getName())) : List.of())
			.complete((cluster, request) -> {
				Optional<V1ConfigMap> desired = home.cache()
					.get(V1ConfigMap.class, Request.of(hub.name(), request.name()));
				if (desired.isEmpty()) {
					cluster.client()
						.uncached()
						.get(V1ConfigMap.class, request)
						.ifPresent((copy) -> cluster.client().delete(copy));
					return Result.done();
				}
				cluster.client()
					.createOrUpdate(
							new V1ConfigMap()
								.metadata(new V1ObjectMeta().namespace(MEMBER_NAMESPACE).name(request.name())),
							(copy) -> copy.data(desired.get().getData()));
				return Result.done();
			});
	}

	private static ClusterStatus status(Fleet fleet, String name) {
		return fleet.statuses()
			.stream()
			.filter((status) -> status.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no status of " + name + " in " + fleet.statuses()));
	}

	private static V1ConfigMap desired(String name, String value) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("value", value));
	}

	private static V1Secret kubeconfigSecret(String name, String kubeconfig) {
		return new V1Secret()
			.metadata(new V1ObjectMeta().name(name).labels(Map.of("cluster.kubeboot.io/kubeconfig", "true")))
			.data(Map.of("kubeconfig", kubeconfig.getBytes(StandardCharsets.UTF_8)));
	}

	private static String kubeconfigOf(ControlPlane member) throws Exception {
		return Files.readString(member.kubeconfig());
	}

	private static void awaitCopy(ControlPlane member, String name, String value) {
		await().atMost(WAIT)
			.until(() -> copy(member, name).map((copy) -> copy.getData().get("value")),
					(copied) -> copied.equals(Optional.of(value)));
	}

	private static Optional<V1ConfigMap> copy(ControlPlane member, String name) throws ApiException {
		return FleetMembers.configMap(member, MEMBER_NAMESPACE, name);
	}

	private static int freePort() throws Exception {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
