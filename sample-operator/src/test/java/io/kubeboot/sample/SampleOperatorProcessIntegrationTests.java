package io.kubeboot.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample operator as a user runs it: its own JVM, configured only through
 * {@code KUBECONFIG} and properties, stopped with SIGTERM or killed with SIGKILL.
 */
@WithControlPlane
class SampleOperatorProcessIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private final List<OperatorProcess> processes = new ArrayList<>();

	@AfterEach
	void killProcesses() throws Exception {
		for (OperatorProcess process : this.processes) {
			process.close();
		}
	}

	@Test
	void reconcilesEveryPodFromKubeconfigAndStopsGracefullyOnSigterm(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		createPod(controlPlane, namespace, "before");
		// the demo Pod logger is off unless asked for
		OperatorProcess operator = start(controlPlane, "--operator.namespace=" + namespace,
				"--sample.pod-logger.enabled=true");
		await().atMost(WAIT).until(() -> operator.logged("Reconciled pod: pod=" + namespace + "/before phase="));
		createPod(controlPlane, namespace, "after");
		await().atMost(Duration.ofSeconds(10))
			.until(() -> operator.logged("Reconciled pod: pod=" + namespace + "/after phase="));
		// a reconcile's log lines carry its controller, object and reconcile id
		assertThat(operator.output())
			.anyMatch((line) -> line.matches(".*\\[pod " + namespace + "/after [0-9a-f-]{36}\\] .*Reconciled pod.*"));
		operator.terminate();
		assertThat(operator.waitForExit(WAIT.toSeconds())).isEqualTo(143);
		assertThat(operator.logged("Manager stopped")).isTrue();
		assertThat(operator.output()).noneMatch((line) -> line.contains("Exception") || line.contains(" ERROR "));
	}

	/**
	 * The acceptance of what the cache costs: the sample run with a watch of every Secret
	 * of the cluster ({@link UnselectedSecretWatch}) warns of it at start-up, naming its
	 * controller and what narrows it, and reports what it holds in
	 * {@code /actuator/prometheus} and {@code /actuator/operator}; past the budget the
	 * test gives Secrets, one WARN and one crossing counted, and every Secret kept.
	 */
	@Test
	void anUnselectedSecretWatchIsWarnedOfAndWhatItCostsIsExported(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		for (int i = 0; i < 2; i++) {
			core.createNamespacedSecret(namespace.name(),
					new V1Secret().metadata(new V1ObjectMeta().name("bucket-" + i + "-credentials"))
						.putStringDataItem("key", "x".repeat(1000)))
				.execute();
		}
		OperatorProcess operator = start(controlPlane, "--operator.leader-election.enabled=false",
				"--sample.test.unselected-secret-watch=true", "--operator.cache.object-budgets.Secret=1");
		await().atMost(WAIT).until(() -> operator.logged("Manager started"));
		assertThat(operator.output())
			.filteredOn((line) -> line.contains(" WARN ")
					&& line.contains("Informer caches every object of a kind that is often numerous and large"))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("informer=V1Secret[namespace=*] kind=Secret (core/v1) "
					+ "readBy=[controller-bucket-credentials] narrowWith=\"@Watches(V1Secret.class) on "
					+ "UnselectedSecretWatch.bucketOfCredentials: set its fieldSelector = \"type!=helm.sh/release.v1\", "
					+ "labelSelector or namespace, or metadataOnly = true;")
				.contains("operator.cache.acknowledged-unscoped-kinds=Secret"));
		assertThat(operator.output()).filteredOn((line) -> line.contains(" WARN ") && line.contains(
				"Informer holds more objects than its budget, and keeps them all: " + "informer=V1Secret[namespace=*]"))
			.hasSize(1);
		String secrets = "{cluster=\"\",field_selector=\"\",kind=\"Secret\",metadata_only=\"false\",namespace=\"\","
				+ "selector=\"\"}";
		await().atMost(WAIT).untilAsserted(() -> {
			String scrape = operator.get("/actuator/prometheus");
			assertThat(value(scrape, "operator_informer_objects" + secrets)).isGreaterThanOrEqualTo(2);
			assertThat(value(scrape, "operator_informer_estimated_heap_bytes" + secrets)).isGreaterThan(2 * 1000);
			assertThat(value(scrape, "operator_informer_object_budget" + secrets)).isEqualTo(1);
			assertThat(value(scrape, "operator_informer_object_budget_exceeded_total" + secrets)).isEqualTo(1);
		});
		JsonObject cache = everySecret(operator.get("/actuator/operator"));
		assertThat(cache.get("objects").getAsInt()).isGreaterThanOrEqualTo(2);
		assertThat(cache.get("estimatedBytes").getAsLong()).isGreaterThan(2 * 1000);
		assertThat(cache.get("objectBudget").getAsInt()).isOne();
		assertThat(cache.get("overBudget").getAsBoolean()).isTrue();
	}

	/** The cache of every Secret in {@code /actuator/operator}'s answer. */
	private static JsonObject everySecret(String body) {
		for (JsonElement element : JsonParser.parseString(body).getAsJsonObject().getAsJsonArray("caches")) {
			JsonObject cache = element.getAsJsonObject();
			if (cache.get("kind").getAsString().equals("V1Secret")
					&& (!cache.has("namespace") || cache.get("namespace").isJsonNull())) {
				return cache;
			}
		}
		throw new AssertionError("No cache of every Secret in " + body);
	}

	@Test
	void ofTwoReplicasOnlyTheLeaderReconcilesAndTheStandbyTakesOverAfterKill9(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		LeaderAndStandby replicas = leaderAndStandby(controlPlane, namespace);
		OperatorProcess a = replicas.leader();
		OperatorProcess b = replicas.standby();
		assertThat(b.logged("Reconciled pod")).isFalse();
		long killedAt = System.nanoTime();
		a.kill();
		await().atMost(WAIT).until(() -> b.logged("Successfully acquired lease"));
		Duration failover = Duration.ofNanos(System.nanoTime() - killedAt);
		System.out.println("sample operator failover after kill -9: " + failover.toMillis() + " ms");
		// lease-duration + 2 x retry-period, plus scheduling slack
		assertThat(failover).isLessThanOrEqualTo(Duration.ofMillis(3000 + 2 * 500 + 1500));
		await().atMost(Duration.ofSeconds(10)).until(() -> b.logged("Reconciled pod: pod=" + namespace + "/one"));
	}

	/**
	 * A leader paused (SIGSTOP) for longer than lease duration minus renew deadline, then
	 * resumed: the standby leads meanwhile, and the old leader, once it runs again,
	 * reconciles nothing (its workers wait behind its lapsed Lease) and exits as its
	 * lost-lease policy says, rather than reconcile alongside the new leader.
	 */
	@Test
	void aLeaderPausedPastItsLeaseReconcilesNothingOnceResumedAndExits(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		LeaderAndStandby replicas = leaderAndStandby(controlPlane, namespace);
		OperatorProcess a = replicas.leader();
		OperatorProcess b = replicas.standby();
		a.pause();
		try {
			await().atMost(WAIT).until(() -> b.logged("Successfully acquired lease"));
			// a change that the paused leader's watch holds for when it runs again
			createPod(controlPlane, namespace, "two");
			await().atMost(Duration.ofSeconds(10)).until(() -> b.logged("Reconciled pod: pod=" + namespace + "/two"));
		}
		finally {
			a.resume();
		}
		assertThat(a.waitForExit(WAIT.toSeconds())).isEqualTo(1);
		assertThat(a.logged("Leader election lost, exiting")).isTrue();
		assertThat(a.logged("Reconciled pod: pod=" + namespace + "/two")).isFalse();
	}

	/**
	 * A shard member paused (SIGSTOP) for longer than its Lease: the other member takes
	 * its Pods over, and the paused one, once resumed, reconciles nothing until it holds
	 * its shard Lease again (its gate is closed behind the lapsed Lease, then suspended
	 * once it noticed the loss), rather than reconcile the Pods the other took over.
	 */
	@Test
	void aShardMemberPausedPastItsLeaseReconcilesNothingOnceResumedUntilItRejoins(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		OperatorProcess a = start(controlPlane, shardMember(namespace, "shard-a"));
		OperatorProcess b = start(controlPlane, shardMember(namespace, "shard-b"));
		String bothMembers = "members=[shard-a, shard-b]";
		await().atMost(WAIT).until(() -> a.logged(bothMembers) && b.logged(bothMembers));
		List<String> pods = new ArrayList<>();
		// sixteen, so that the ring gives each member some (all to one: about 1 in
		// 65,000)
		for (int i = 0; i < 16; i++) {
			pods.add("pod-" + i);
			createPod(controlPlane, namespace, "pod-" + i);
		}
		await().atMost(WAIT)
			.until(() -> pods.stream()
				.allMatch((pod) -> a.logged(reconciled(namespace, pod)) || b.logged(reconciled(namespace, pod))));
		String ofA = pods.stream()
			.filter((pod) -> a.logged(reconciled(namespace, pod)))
			.findFirst()
			.orElseThrow(() -> new AssertionError("the ring gave shard-a none of sixteen Pods"));
		a.pause();
		int resumedAt;
		try {
			// b takes a's Pods over once a's Lease expired
			await().atMost(WAIT).until(() -> b.logged(reconciled(namespace, ofA)));
			// a change that the paused member's watch holds for when it runs again
			createPod(controlPlane, namespace, "during-pause");
			await().atMost(Duration.ofSeconds(10)).until(() -> b.logged(reconciled(namespace, "during-pause")));
			resumedAt = a.output().size();
		}
		finally {
			a.resume();
		}
		await().atMost(WAIT)
			.until(() -> sinceResumed(a, resumedAt).stream()
				.anyMatch((line) -> line.contains("Successfully acquired shard lease")));
		List<String> sinceResumed = sinceResumed(a, resumedAt);
		int rejoined = indexOf(sinceResumed, "Successfully acquired shard lease");
		assertThat(sinceResumed.subList(0, rejoined)).as("shard-a's log from its resumption until it rejoined")
			.noneMatch((line) -> line.contains("Reconciled pod"));
		assertThat(sinceResumed).anyMatch((line) -> line.contains("shard membership lost"));
	}

	@Test
	void lostLeaseExitsTheProcessNonZeroWithoutGracefulShutdown(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		OperatorProcess a = start(controlPlane, SampleArguments.replica(namespace, "replica-a"));
		await().atMost(WAIT).until(() -> a.logged("Successfully acquired lease"));
		CoordinationV1Api leases = new CoordinationV1Api(controlPlane.adminClient());
		// read and replaced again when a renewal lands in between (409)
		await().atMost(WAIT).ignoreException(ApiException.class).until(() -> {
			V1Lease lease = leases.readNamespacedLease("sample-operator-leader", namespace.name()).execute();
			lease.getSpec().holderIdentity("intruder").leaseDurationSeconds(60);
			leases.replaceNamespacedLease("sample-operator-leader", namespace.name(), lease).execute();
			return true;
		});
		assertThat(a.waitForExit(WAIT.toSeconds())).isEqualTo(1);
		assertThat(a.logged("Leader election lost, exiting")).isTrue();
		assertThat(a.logged("Manager stopped")).isFalse();
	}

	/**
	 * Starts replica-a, which leads, then replica-b, which observes it, and waits until
	 * the leader reconciled the Pod {@code one}.
	 */
	private LeaderAndStandby leaderAndStandby(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		OperatorProcess a = start(controlPlane, withPodLogger(SampleArguments.replica(namespace, "replica-a")));
		await().atMost(WAIT).until(() -> a.logged("Successfully acquired lease"));
		OperatorProcess b = start(controlPlane, withPodLogger(SampleArguments.replica(namespace, "replica-b")));
		await().atMost(WAIT).until(() -> b.logged("New leader observed") && b.logged("holder=replica-a"));
		createPod(controlPlane, namespace, "one");
		await().atMost(Duration.ofSeconds(10)).until(() -> a.logged("Reconciled pod: pod=" + namespace + "/one"));
		return new LeaderAndStandby(a, b);
	}

	private record LeaderAndStandby(OperatorProcess leader, OperatorProcess standby) {

	}

	private OperatorProcess start(ControlPlane controlPlane, String... args) throws Exception {
		OperatorProcess process = OperatorProcess.start(controlPlane.kubeconfig(), args);
		this.processes.add(process);
		return process;
	}

	private static String[] shardMember(TestNamespace namespace, String identity) {
		return new String[] { "--operator.namespace=" + namespace, "--sample.pod-logger.enabled=true",
				"--operator.sharding.enabled=true", "--operator.sharding.controllers=pod",
				"--operator.sharding.namespace=" + namespace, "--operator.sharding.identity=" + identity,
				"--operator.sharding.lease-duration=3s", "--operator.sharding.renew-deadline=2s",
				"--operator.sharding.retry-period=500ms" };
	}

	private static String reconciled(TestNamespace namespace, String pod) {
		return "Reconciled pod: pod=" + namespace + "/" + pod + " ";
	}

	private static List<String> sinceResumed(OperatorProcess process, int resumedAt) {
		List<String> output = process.output();
		return output.subList(resumedAt, output.size());
	}

	private static int indexOf(List<String> lines, String text) {
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).contains(text)) {
				return i;
			}
		}
		throw new AssertionError("not logged: " + text);
	}

	private static double value(String scrape, String series) {
		Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
		if (!matcher.find()) {
			throw new AssertionError("No series " + series + " in:\n" + scrape);
		}
		return Double.parseDouble(matcher.group(1));
	}

	private static String[] withPodLogger(String[] arguments) {
		List<String> withPodLogger = new ArrayList<>(List.of(arguments));
		withPodLogger.add("--sample.pod-logger.enabled=true");
		return withPodLogger.toArray(String[]::new);
	}

	/**
	 * Creates a pod that never runs (the control plane has no scheduler): enough to
	 * reconcile.
	 */
	private static void createPod(ControlPlane controlPlane, TestNamespace namespace, String name) throws Exception {
		Manifests.create(controlPlane.adminClient(), Manifests.parse("""
				{"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "%s", "name": "%s"},
				 "spec": {"containers": [{"name": "app", "image": "app:1"}]}}
				""".formatted(namespace.name(), name)));
	}

}
