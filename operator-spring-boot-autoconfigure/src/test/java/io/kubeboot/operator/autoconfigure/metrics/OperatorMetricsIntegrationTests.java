package io.kubeboot.operator.autoconfigure.metrics;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring Boot application with Actuator's Prometheus endpoint, a {@code @Reconciles}
 * and leader election, against a real kube-apiserver: every series is scraped from
 * {@code /actuator/prometheus} under controller-runtime's name.
 */
@WithControlPlane
class OperatorMetricsIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final int CONFIG_MAPS = 5;

	private static final String QUEUE = "{controller=\"configmap\",name=\"configmap\"}";

	/** The depth of the priority queue's default priority, where changes wait. */
	private static final String DEPTH = "workqueue_depth{controller=\"configmap\",name=\"configmap\",priority=\"0\"}";

	private final HttpClient http = HttpClient.newHttpClient();

	private ConfigurableApplicationContext context;

	@AfterEach
	void close() {
		if (this.context != null) {
			this.context.getBean(SlowReconciler.class).releaseSlow.countDown();
			this.context.close();
		}
	}

	@Test
	void prometheusEndpointServesControllerRuntimeSeries(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient client = controlPlane.adminClient();
		this.context = new SpringApplicationBuilder(MetricsApplication.class)
			.initializers((context) -> ((GenericApplicationContext) context).registerBean("kubernetesApiClient",
					ApiClient.class, () -> client))
			.run("--server.port=0", "--spring.main.banner-mode=off",
					"--management.endpoints.web.exposure.include=prometheus,health",
					"--operator.namespace=" + namespace, "--operator.controller.max-concurrent-reconciles=1",
					"--operator.leader-election.enabled=true", "--operator.leader-election.namespace=" + namespace,
					"--operator.leader-election.lease-duration=3s", "--operator.leader-election.renew-deadline=2s",
					"--operator.leader-election.retry-period=500ms");
		int port = Integer.parseInt(this.context.getEnvironment().getProperty("local.server.port"));
		Manager manager = this.context.getBean(Manager.class);
		SlowReconciler reconciler = this.context.getBean(SlowReconciler.class);
		// series are pre-registered at zero before anything is reconciled
		assertThat(scrape(port)).contains(
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"success\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"error\"} 0.0",
				"controller_runtime_max_concurrent_reconciles{controller=\"configmap\"} 1.0");
		await().atMost(WAIT)
			.until(() -> manager.isLeader() && Controller.of(manager).get(0).isRunning()
					&& scrape(port).contains("leader_election_master_status{name=\"operator-leader\"} 1.0"));

		CoreV1Api core = new CoreV1Api(client);
		createConfigMap(core, namespace, "slow");
		assertThat(reconciler.slowStarted.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		for (int i = 1; i < CONFIG_MAPS; i++) {
			createConfigMap(core, namespace, "fast-" + i);
		}
		// the only worker is busy: the others wait in the queue, created objects at the
		// priority queue's default priority
		await().atMost(WAIT).until(() -> scrape(port).contains(DEPTH + " " + (CONFIG_MAPS - 1) + ".0"));
		List<String> busy = scrape(port);
		assertThat(busy).contains("controller_runtime_active_workers{controller=\"configmap\"} 1.0");
		assertThat(value(busy, "workqueue_unfinished_work_seconds" + QUEUE)).isPositive();
		assertThat(value(busy, "workqueue_longest_running_processor_seconds" + QUEUE)).isPositive();
		reconciler.releaseSlow.countDown();

		await().atMost(WAIT)
			.until(() -> reconciler.reconciled.size() == CONFIG_MAPS && scrape(port).contains(DEPTH + " 0.0"));
		await().atMost(WAIT)
			.until(() -> scrape(port).contains("controller_runtime_active_workers{controller=\"configmap\"} 0.0"));
		List<String> lines = scrape(port);
		assertThat(lines).contains(
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"success\"} " + CONFIG_MAPS + ".0",
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"error\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"requeue\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"requeue_after\"} 0.0",
				"controller_runtime_reconcile_errors_total{controller=\"configmap\"} 0.0",
				"controller_runtime_terminal_reconcile_errors_total{controller=\"configmap\"} 0.0",
				"controller_runtime_reconcile_panics_total{controller=\"configmap\"} 0.0",
				"controller_runtime_reconcile_time_seconds_count{controller=\"configmap\"} " + CONFIG_MAPS,
				"controller_runtime_reconcile_time_seconds_bucket{controller=\"configmap\",le=\"+Inf\"} " + CONFIG_MAPS,
				"workqueue_adds_total" + QUEUE + " " + CONFIG_MAPS + ".0", "workqueue_retries_total" + QUEUE + " 0.0",
				"workqueue_queue_duration_seconds_count" + QUEUE + " " + CONFIG_MAPS,
				"workqueue_work_duration_seconds_count" + QUEUE + " " + CONFIG_MAPS,
				"workqueue_unfinished_work_seconds" + QUEUE + " 0.0",
				"workqueue_longest_running_processor_seconds" + QUEUE + " 0.0",
				"leader_election_master_status{name=\"operator-leader\"} 1.0",
				// the leader reconciles every cached object of the controller's kind
				"operator_controller_assigned_objects{controller=\"configmap\"} " + CONFIG_MAPS + ".0");
		assertThat(lines).anyMatch((line) -> line
			.startsWith("controller_runtime_reconcile_time_seconds_bucket{controller=\"configmap\",le=\"0.005\"} "));
		assertThat(lines).anyMatch((line) -> line
			.startsWith("controller_runtime_reconcile_time_seconds_bucket{controller=\"configmap\",le=\"60.0\"} "));
		URI apiServer = controlPlane.apiServerUrl();
		String host = apiServer.getHost() + ":" + apiServer.getPort();
		assertThat(value(lines, "rest_client_requests_total{code=\"200\",host=\"" + host + "\",method=\"GET\"}"))
			.isPositive();
		// Lease requests go through a client derived from the bean: they are counted too.
		// The Lease was created (a POST, like the Client's creates below); its first
		// renewal, a retry period later, is the write only the Lease makes
		await().atMost(WAIT)
			.until(() -> scrape(port).stream()
				.anyMatch((line) -> line
					.startsWith("rest_client_requests_total{code=\"200\",host=\"" + host + "\",method=\"PUT\"}")
						|| line.startsWith(
								"rest_client_requests_total{code=\"200\",host=\"" + host + "\",method=\"PATCH\"}")));
		// the Client's writes are counted too, by method and code; nothing else deletes
		String deletes = "rest_client_requests_total{code=\"200\",host=\"" + host + "\",method=\"DELETE\"}";
		String missing = "rest_client_requests_total{code=\"404\",host=\"" + host + "\",method=\"DELETE\"}";
		assertThat(lines).noneMatch((line) -> line.startsWith(deletes) || line.startsWith(missing));
		String creates = "rest_client_requests_total{code=\"201\",host=\"" + host + "\",method=\"POST\"}";
		double createdBefore = value(lines, creates);
		Client operatorClient = this.context.getBean(Client.class);
		V1ConfigMap written = operatorClient.create(new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace(namespace.name()).name("written-by-the-client")));
		assertThat(operatorClient.delete(written)).isTrue();
		assertThat(operatorClient.delete(written)).isFalse();
		List<String> afterWrites = scrape(port);
		assertThat(value(afterWrites, creates)).isGreaterThanOrEqualTo(createdBefore + 1);
		assertThat(value(afterWrites, deletes)).isEqualTo(1.0);
		assertThat(value(afterWrites, missing)).isEqualTo(1.0);
		// the informer series: its namespace, never an object's
		assertThat(lines).contains(
				"operator_informer_restarts_total{cluster=\"\",field_selector=\"\",kind=\"ConfigMap\",metadata_only=\"false\",namespace=\""
						+ namespace.name() + "\",selector=\"metrics-test=true\"} 0.0");
		assertThat(lines).anyMatch((line) -> line
			.startsWith("operator_informer_silence_seconds{cluster=\"\",field_selector=\"\",kind=\"ConfigMap\""));
		assertThat(lines).contains(
				"operator_informer_undecodable_objects_total{cluster=\"\",field_selector=\"\",kind=\"ConfigMap\",metadata_only=\"false\","
						+ "namespace=\"" + namespace.name() + "\",selector=\"metrics-test=true\"} 0.0");
		assertThat(lines).filteredOn((line) -> !line.startsWith("#") && !line.startsWith("operator_informer_"))
			.noneMatch((line) -> line.contains("slow") || line.contains("fast-") || line.contains(namespace.name()));
	}

	private static void createConfigMap(CoreV1Api core, TestNamespace namespace, String name) throws Exception {
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("metrics-test", "true"))))
			.execute();
	}

	private List<String> scrape(int port) throws Exception {
		HttpResponse<String> response = this.http
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
				.header("Accept", "text/plain;version=0.0.4")
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body().lines().toList();
	}

	private static double value(List<String> lines, String series) {
		Pattern pattern = Pattern.compile(Pattern.quote(series) + " (\\S+)");
		for (String line : lines) {
			Matcher matcher = pattern.matcher(line);
			if (matcher.matches()) {
				return Double.parseDouble(matcher.group(1));
			}
		}
		throw new AssertionError("No series " + series + " in:\n" + String.join("\n", lines));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class MetricsApplication {

		@Bean
		SlowReconciler slowReconciler() {
			return new SlowReconciler();
		}

	}

	@Reconciles(value = V1ConfigMap.class, labelSelector = "metrics-test=true")
	static class SlowReconciler {

		final Set<String> reconciled = ConcurrentHashMap.newKeySet();

		final CountDownLatch slowStarted = new CountDownLatch(1);

		final CountDownLatch releaseSlow = new CountDownLatch(1);

		Result reconcile(Request request) throws InterruptedException {
			if (request.name().equals("slow")) {
				this.slowStarted.countDown();
				this.releaseSlow.await(30, TimeUnit.SECONDS);
			}
			this.reconciled.add(request.name());
			return Result.done();
		}

	}

}
