package io.kubeboot.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample operator as a user runs it: its own JVM, configured only through
 * {@code KUBECONFIG} and properties, stopped with SIGTERM or killed with SIGKILL.
 */
@WithControlPlane
class SampleOperatorProcessTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private final List<OperatorProcess> processes = new ArrayList<>();

	@AfterEach
	void killProcesses() throws Exception {
		for (OperatorProcess process : this.processes) {
			process.close();
		}
	}

	@Test
	void reconcilesEveryConfigMapFromKubeconfigAndStopsGracefullyOnSigterm(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("before")).data(Map.of("a", "1")))
			.execute();
		OperatorProcess operator = start(controlPlane, "--operator.namespace=" + namespace);
		await().atMost(WAIT)
			.until(() -> operator.logged("Reconciled ConfigMap: configMap=" + namespace + "/before keys=1"));
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("after")).data(Map.of("a", "1", "b", "2")))
			.execute();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> operator.logged("Reconciled ConfigMap: configMap=" + namespace + "/after keys=2"));
		// a reconcile's log lines carry its controller, object and reconcile id
		assertThat(operator.output()).anyMatch((line) -> line
			.matches(".*\\[configmap " + namespace + "/after [0-9a-f-]{36}\\] .*Reconciled ConfigMap.*"));
		operator.terminate();
		assertThat(operator.waitForExit(WAIT.toSeconds())).isEqualTo(143);
		assertThat(operator.logged("Manager stopped")).isTrue();
		assertThat(operator.output()).noneMatch((line) -> line.contains("Exception") || line.contains(" ERROR "));
	}

	@Test
	void ofTwoReplicasOnlyTheLeaderReconcilesAndTheStandbyTakesOverAfterKill9(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		OperatorProcess a = start(controlPlane, leaderElection(namespace, "replica-a"));
		await().atMost(WAIT).until(() -> a.logged("Successfully acquired lease"));
		OperatorProcess b = start(controlPlane, leaderElection(namespace, "replica-b"));
		await().atMost(WAIT).until(() -> b.logged("New leader observed") && b.logged("holder=replica-a"));
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		core.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("one")))
			.execute();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> a.logged("Reconciled ConfigMap: configMap=" + namespace + "/one"));
		assertThat(b.logged("Reconciled ConfigMap")).isFalse();
		long killedAt = System.nanoTime();
		a.kill();
		await().atMost(WAIT).until(() -> b.logged("Successfully acquired lease"));
		Duration failover = Duration.ofNanos(System.nanoTime() - killedAt);
		System.out.println("sample operator failover after kill -9: " + failover.toMillis() + " ms");
		// lease-duration + 2 x retry-period, plus scheduling slack
		assertThat(failover).isLessThanOrEqualTo(Duration.ofMillis(3000 + 2 * 500 + 1500));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> b.logged("Reconciled ConfigMap: configMap=" + namespace + "/one"));
	}

	@Test
	void lostLeaseExitsTheProcessNonZeroWithoutGracefulShutdown(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		OperatorProcess a = start(controlPlane, leaderElection(namespace, "replica-a"));
		await().atMost(WAIT).until(() -> a.logged("Successfully acquired lease"));
		CoordinationV1Api leases = new CoordinationV1Api(controlPlane.adminClient());
		V1Lease lease = leases.readNamespacedLease("sample-operator-leader", namespace.name()).execute();
		lease.getSpec().holderIdentity("intruder").leaseDurationSeconds(60);
		leases.replaceNamespacedLease("sample-operator-leader", namespace.name(), lease).execute();
		assertThat(a.waitForExit(WAIT.toSeconds())).isEqualTo(1);
		assertThat(a.logged("Leader election lost, exiting")).isTrue();
		assertThat(a.logged("Manager stopped")).isFalse();
	}

	private OperatorProcess start(ControlPlane controlPlane, String... args) throws Exception {
		OperatorProcess process = OperatorProcess.start(controlPlane.kubeconfig(), args);
		this.processes.add(process);
		return process;
	}

	private static String[] leaderElection(TestNamespace namespace, String identity) {
		return new String[] { "--operator.namespace=" + namespace, "--operator.leader-election.enabled=true",
				"--operator.leader-election.namespace=" + namespace, "--operator.leader-election.identity=" + identity,
				"--operator.leader-election.lease-duration=3s", "--operator.leader-election.renew-deadline=2s",
				"--operator.leader-election.retry-period=500ms" };
	}

}
