package io.kubeboot.operator.it;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.ManagerBuilderCustomizer;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Liveness and readiness of a real operator application (web server, Actuator) against a
 * real kube-apiserver: Actuator's probe groups, controller-runtime's {@code /healthz} and
 * {@code /readyz}, and {@code /actuator/operator}.
 */
@WithControlPlane
@ExtendWith(OutputCaptureExtension.class)
class OperatorProbesIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final HttpClient http = HttpClient.newHttpClient();

	private ConfigurableApplicationContext context;

	private Thread starter;

	@AfterEach
	void close() throws Exception {
		if (this.starter != null) {
			this.starter.join(WAIT.toMillis());
		}
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void readinessIsDownUntilTheCachesSyncAndUpAfter(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		int port = freePort();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		// user3 may not list ConfigMaps yet: the cache cannot sync until RBAC is granted
		// below
		start(port, controlPlane.clientFor("user3"), failure, "--operator.namespace=" + namespace,
				"--operator.cache-sync-timeout=60s");
		await().atMost(WAIT).until(() -> status(port, "/readyz") == 500);
		assertThat(get(port, "/readyz").body()).contains("[-]manager failed: reason withheld")
			.contains("[-]caches failed: reason withheld")
			.endsWith("healthz check failed\n");
		assertThat(status(port, "/actuator/health/readiness")).isEqualTo(503);
		assertThat(get(port, "/healthz?verbose").body()).contains("[+]ping ok");
		grantConfigMapAccess(controlPlane, namespace, "user3");
		await().atMost(WAIT).until(() -> status(port, "/readyz") == 200);
		assertThat(get(port, "/readyz").body()).isEqualTo("ok");
		assertThat(status(port, "/actuator/health/readiness")).isEqualTo(200);
		assertThat(status(port, "/healthz")).isEqualTo(200);
		assertThat(failure.get()).isNull();
	}

	@Test
	void leaderWorkThatOutlivesItsLeaseTakesLivenessDownAndExitsInsteadOfCampaigning(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		int port = freePort();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		start(port, controlPlane.adminClient(), failure, "--operator.namespace=" + namespace,
				"--operator.leader-election.enabled=true", "--operator.leader-election.namespace=" + namespace,
				"--operator.leader-election.lease-duration=3s", "--operator.leader-election.renew-deadline=2s",
				"--operator.leader-election.retry-period=500ms",
				"--operator.leader-election.lost-lease-policy=re-elect", "--operator.health.probe-interval=200ms",
				"--test.stubborn-runnable=true");
		await().atMost(WAIT).until(() -> this.context != null && this.context.getBean(Manager.class).isLeader());
		assertThat(status(port, "/healthz")).isEqualTo(200);
		assertThat(status(port, "/actuator/health/liveness")).isEqualTo(200);
		controlPlane.stopApiServer();
		try {
			await().atMost(WAIT).until(() -> status(port, "/healthz") == 500);
			await().atMost(WAIT)
				.until(() -> get(port, "/healthz?verbose").body()
					.contains("[-]leader-work-stopped failed: reason withheld"));
			await().atMost(WAIT).until(() -> status(port, "/actuator/health/liveness") == 503);
			// losing leadership is no reason to be unready: only the outage is
			assertThat(get(port, "/readyz?verbose").body().lines().filter((line) -> line.startsWith("[-]")))
				.allMatch((line) -> line.startsWith("[-]watches ") || line.startsWith("[-]readiness "));
			// under re-elect, work that may still write makes the replica exit rather
			// than campaign again (the exit is recorded here instead of halting the JVM)
			await().atMost(WAIT).until(() -> this.context.getBean(StubbornRunnable.class).exits.get() == 1);
			assertThat(this.context.getBean(Manager.class).stuckRunnables()).containsExactly("stubbornRunnable");
			this.context.getBean(StubbornRunnable.class).release.countDown();
			await().atMost(WAIT).until(() -> this.context.getBean(Manager.class).stuckRunnables().isEmpty());
			assertThat(this.context.getBean(Manager.class).isLeader()).isFalse();
		}
		finally {
			controlPlane.startApiServer();
		}
	}

	@Test
	void readinessGoesDownWithinSecondsOfAnApiServerOutageOnTheDefaultsAndReturns(ControlPlane controlPlane,
			TestNamespace namespace, CapturedOutput output) throws Exception {
		assertReadinessFollowsAnOutage(controlPlane, namespace, output, controlPlane::killApiServer);
	}

	/**
	 * A graceful stop (SIGTERM, as a control-plane upgrade stops the API server) closes
	 * the watches cleanly before connections are refused: readiness must see it as it
	 * sees a crash.
	 */
	@Test
	void readinessGoesDownWithinSecondsOfAGracefulApiServerStopAndReturns(ControlPlane controlPlane,
			TestNamespace namespace, CapturedOutput output) throws Exception {
		assertReadinessFollowsAnOutage(controlPlane, namespace, output, controlPlane::stopApiServer);
	}

	private void assertReadinessFollowsAnOutage(ControlPlane controlPlane, TestNamespace namespace,
			CapturedOutput output, java.lang.Runnable outage) throws Exception {
		int port = freePort();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		start(port, controlPlane.adminClient(), failure, "--operator.namespace=" + namespace);
		await().atMost(WAIT).until(() -> status(port, "/readyz") == 200);
		long killed = System.nanoTime();
		outage.run();
		try {
			// the default watch-failure-threshold (10s) plus a probe interval (1s), and
			// slack for a loaded machine
			await().atMost(WAIT).until(() -> status(port, "/readyz") == 500);
			assertThat(Duration.ofNanos(System.nanoTime() - killed)).isLessThan(Duration.ofSeconds(16));
			assertThat(get(port, "/readyz?verbose").body()).contains("[-]watches failed: reason withheld");
			// Actuator's group follows at the next evaluation of the manager's health
			await().atMost(Duration.ofSeconds(5)).until(() -> status(port, "/actuator/health/readiness") == 503);
			// not a reason to restart
			assertThat(status(port, "/healthz")).isEqualTo(200);
		}
		finally {
			controlPlane.startApiServer();
		}
		await().atMost(WAIT).until(() -> status(port, "/readyz") == 200);
		await().atMost(WAIT).until(() -> output.getOut().contains("Operator is ready again"));
		assertThat(output.getOut().split("Operator is not ready: ", -1)).hasSize(2); // said
																						// once
	}

	@Test
	void operatorEndpointAndHealthDetailsDescribeTheManager(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		int port = freePort();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		start(port, controlPlane.adminClient(), failure, "--operator.namespace=" + namespace);
		await().atMost(WAIT).until(() -> status(port, "/readyz") == 200);
		assertThat(get(port, "/healthz?verbose").body())
			.isEqualTo("[+]ping ok\n[+]manager ok\n[+]leader-work-stopped ok\n[+]workers ok\n[+]liveness ok\n"
					+ "healthz check passed\n");
		assertThat(status(port, "/healthz/manager")).isEqualTo(200);
		assertThat(status(port, "/healthz/nonexistent")).isEqualTo(404);
		String operator = get(port, "/actuator/operator").body();
		assertThat(operator).contains("\"state\":\"RUNNING\"")
			.contains("\"name\":\"configmap\"")
			.contains("\"kind\":\"V1ConfigMap\"")
			.contains("\"namespace\":\"" + namespace + "\"")
			.contains("\"synced\":true");
		String health = get(port, "/actuator/health").body();
		assertThat(health).contains("\"operator\"").contains("\"queueDepth\"").contains("\"cacheSynced\":true");
	}

	private void start(int port, ApiClient client, AtomicReference<Throwable> failure, String... args) {
		List<String> all = new java.util.ArrayList<>(
				List.of("--server.port=" + port, "--management.endpoints.web.exposure.include=health,operator",
						"--management.endpoint.health.show-details=always", "--spring.main.banner-mode=off"));
		all.addAll(List.of(args));
		this.starter = new Thread(() -> {
			try {
				this.context = new SpringApplicationBuilder(ProbesApplication.class)
					.initializers(
							(context) -> context.getBeanFactory().registerSingleton("kubernetesApiClient", client))
					.run(all.toArray(String[]::new));
			}
			catch (Throwable ex) {
				failure.set(ex);
			}
		}, "probes-application");
		this.starter.start();
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private int status(int port, String path) {
		try {
			return get(port, path).statusCode();
		}
		catch (Exception ex) {
			return -1; // not listening yet
		}
	}

	private static int freePort() throws Exception {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static void grantConfigMapAccess(ControlPlane controlPlane, TestNamespace namespace, String user)
			throws Exception {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(controlPlane.adminClient());
		rbac.createNamespacedRole(namespace.name(),
				new V1Role().metadata(new V1ObjectMeta().name("configmaps"))
					.rules(List.of(new V1PolicyRule().apiGroups(List.of(""))
						.resources(List.of("configmaps"))
						.verbs(List.of("get", "list", "watch")))))
			.execute();
		rbac.createNamespacedRoleBinding(namespace.name(),
				new V1RoleBinding().metadata(new V1ObjectMeta().name("configmaps"))
					.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("configmaps"))
					.subjects(
							List.of(new RbacV1Subject().kind("User").name(user).apiGroup("rbac.authorization.k8s.io"))))
			.execute();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ProbesApplication {

		@Bean
		ConfigMapReconciler configMapReconciler() {
			return new ConfigMapReconciler();
		}

		@Bean
		@ConditionalOnBooleanProperty("test.stubborn-runnable")
		StubbornRunnable stubbornRunnable() {
			return new StubbornRunnable();
		}

		@Bean
		@ConditionalOnBooleanProperty("test.stubborn-runnable")
		ManagerBuilderCustomizer recordExits(StubbornRunnable stubborn) {
			return (builder) -> builder.onLostLeaseExit(stubborn.exits::incrementAndGet);
		}

	}

	@Reconciles(V1ConfigMap.class)
	static class ConfigMapReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

	/**
	 * Leader-only work that ignores stop signals and interrupts until the test releases
	 * it.
	 */
	static class StubbornRunnable implements ManagerRunnable {

		final CountDownLatch release = new CountDownLatch(1);

		final AtomicInteger exits = new AtomicInteger();

		@Override
		public void start(io.kubeboot.operator.manager.StopSignal stop) {
			while (this.release.getCount() > 0) {
				try {
					this.release.await();
				}
				catch (InterruptedException ex) {
					// ignored on purpose: this is the misbehaving work liveness must
					// catch
				}
			}
		}

	}

}
