package io.kubeboot.sample;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubeboot.operator.model.Condition;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample as it ships, in a JVM of its own against the real API server: what it
 * refuses to probe, what it never repeats of an endpoint, which controllers it runs and
 * where Actuator answers.
 */
@WithControlPlane
class StorageBucketSecureDefaultsIntegrationTests {

	private static final Duration START = Duration.ofSeconds(60);

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final List<OperatorProcess> processes = new ArrayList<>();

	@AfterEach
	void killProcesses() throws Exception {
		for (OperatorProcess process : this.processes) {
			process.close();
		}
	}

	@Test
	void withItsDefaultsTheSampleProbesNoMetadataOrLocalEndpointRunsNoPodLoggerAndKeepsActuatorApart(
			ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		StorageBuckets buckets = new StorageBuckets(controlPlane.adminClient(), namespace.name());
		Manifests.create(controlPlane.adminClient(), Manifests.parse("""
				{"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "%s", "name": "app"},
				 "spec": {"containers": [{"name": "app", "image": "app:1"}]}}
				""".formatted(namespace.name())));
		try (BucketEndpoint endpoint = BucketEndpoint.start()) {
			// no webhook here: the API server stores what the validator would refuse
			buckets.create("metadata", "http://169.254.169.254/latest/meta-data/iam/security-credentials/");
			buckets.create("gce", "http://metadata.google.internal/computeMetadata/v1/?recursive=true");
			buckets.create("local", endpoint.url());
			// the sample's defaults, bar the namespace, leader election and probe timing
			OperatorProcess operator = start(controlPlane, SampleArguments.secureReplica(namespace, "replica-a"));

			await().atMost(START).until(() -> notAllowed(buckets, "metadata"));
			await().atMost(WAIT).until(() -> notAllowed(buckets, "gce") && notAllowed(buckets, "local"));
			assertThat(buckets.available("metadata").orElseThrow().getMessage())
				.isEqualTo("GET http://169.254.169.254/latest/meta-data/iam/security-credentials/ not sent: "
						+ "169.254.169.254 is a cloud metadata address");
			assertThat(buckets.available("gce").orElseThrow().getMessage())
				.isEqualTo("GET http://metadata.google.internal/computeMetadata/v1/ not sent: "
						+ "metadata.google.internal is a cloud metadata service");
			assertThat(buckets.available("local").orElseThrow().getMessage()).isEqualTo("GET " + endpoint.url()
					+ " not sent: 127.0.0.1 is a loopback address (sample.buckets.allow-private-endpoints is false)");
			for (String bucket : List.of("metadata", "gce", "local")) {
				await().atMost(WAIT).until(() -> buckets.eventCount(bucket, "Warning", "EndpointNotAllowed") == 1);
			}
			// probed every second, three buckets, a few rounds: not one request sent
			await().atMost(WAIT)
				.until(() -> StorageBucketEndToEndIntegrationTests.metric(operator.get("/actuator/prometheus"),
						"storagebucket_probes_total{result=\"unavailable\"}") >= 9);
			assertThat(endpoint.probes()).isZero();

			// the demo Pod logger does not run: one controller, and the pod is not
			// reconciled
			JsonObject manager = Manifests.parse(operator.get("/actuator/operator"));
			List<String> controllers = new ArrayList<>();
			for (JsonElement controller : manager.getAsJsonArray("controllers")) {
				controllers.add(controller.getAsJsonObject().get("name").getAsString());
			}
			assertThat(controllers).containsExactly("storagebucket");
			assertThat(operator.logged("Reconciled pod")).isFalse();

			// Actuator answers on the management port only, the kubelet's probes on the
			// application's port, at the paths and ports deploy/deployment.yaml names
			assertThat(operator.get(operator.port(), "/actuator/prometheus").statusCode()).isEqualTo(404);
			assertThat(operator.get(operator.port(), "/actuator/health").statusCode()).isEqualTo(404);
			JsonObject container = DeployManifestTests.container();
			for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
				JsonObject get = container.getAsJsonObject(probe).getAsJsonObject("httpGet");
				HttpResponse<String> answer = operator.get(
						runtimePort(operator, DeployManifestTests.containerPorts().get(get.get("port").getAsString())),
						get.get("path").getAsString());
				assertThat(answer.statusCode()).as(probe).isEqualTo(200);
				assertThat(answer.body()).as(probe).isEqualTo("ok");
			}
			// Prometheus scrapes what the ServiceMonitor names: the metrics Service's
			// port
			JsonObject scraped = Manifests.load("servicemonitor.yaml")
				.get(0)
				.getAsJsonObject("spec")
				.getAsJsonArray("endpoints")
				.get(0)
				.getAsJsonObject();
			HttpResponse<String> scrape = operator.get(
					runtimePort(operator,
							DeployManifestTests.containerPorts()
								.get(metricsTargetPort(scraped.get("port").getAsString()))),
					scraped.get("path").getAsString());
			assertThat(scrape.statusCode()).isEqualTo(200);
			assertThat(scrape.body()).contains("storagebucket_buckets 3.0");
			// the health of the operator without its details, the probe groups open
			for (String path : List.of("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness")) {
				HttpResponse<String> health = operator.get(operator.managementPort(), path);
				assertThat(health.statusCode()).as(path).isEqualTo(200);
				// no checks, controllers, caches or leader: /actuator/health lists the
				// names of its groups only
				assertThat(Manifests.parse(health.body()).keySet()).as(path)
					.doesNotContain("components", "details")
					.isSubsetOf("status", "groups");
				assertThat(health.body()).as(path).contains("\"status\":\"UP\"");
			}
		}
	}

	@Test
	void signedQueryStringsAndCredentialsInEndpointsReachTheEndpointOnly(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		StorageBuckets buckets = new StorageBuckets(controlPlane.adminClient(), namespace.name());
		try (BucketEndpoint endpoint = BucketEndpoint.start()) {
			endpoint.answer(503);
			String query = "X-Amz-Credential=AKIDS3CR3T&X-Amz-Signature=s3cr3t-signature";
			// no webhook here: the API server stores credentials the validator would
			// refuse
			buckets.create("signed", endpoint.url() + "?" + query);
			buckets.create("credentials",
					endpoint.url().replace("http://", "http://bucket-user:hunter2@") + "?token=s3cr3t-token");
			OperatorProcess operator = start(controlPlane, SampleArguments.replica(namespace, "replica-a"));

			// unavailable, then available: both conditions, both kinds of Event, and
			// the Warning logged with its message
			for (String bucket : List.of("signed", "credentials")) {
				await().atMost(START).until(() -> buckets.availableStatus(bucket).equals("False"));
				assertThat(buckets.available(bucket).orElseThrow().getMessage())
					.isEqualTo("GET " + endpoint.url() + " answered HTTP 503, expected 2xx or 3xx");
				await().atMost(WAIT).until(() -> buckets.eventCount(bucket, "Warning", "EndpointError") == 1);
				await().atMost(WAIT)
					.until(() -> operator.logged("Bucket became unavailable: bucket=" + namespace + "/" + bucket));
			}
			endpoint.answer(200);
			for (String bucket : List.of("signed", "credentials")) {
				await().atMost(WAIT).until(() -> buckets.availableStatus(bucket).equals("True"));
				assertThat(buckets.available(bucket).orElseThrow().getMessage())
					.isEqualTo("GET " + endpoint.url() + " answered HTTP 200");
				await().atMost(WAIT).until(() -> buckets.eventCount(bucket, "Normal", "EndpointReachable") == 1);
				await().atMost(WAIT)
					.until(() -> operator.logged("Bucket became available: bucket=" + namespace + "/" + bucket));
			}

			// the object store still gets the signed URL
			assertThat(endpoint.targets()).contains("/bucket?" + query, "/bucket?token=s3cr3t-token");
			// and nothing else shows it
			List<String> shown = new ArrayList<>(operator.output());
			for (String bucket : List.of("signed", "credentials")) {
				for (Condition condition : buckets.get(bucket).getStatus().getConditions()) {
					shown.add(condition.getReason() + " " + condition.getMessage());
				}
				for (CoreV1Event event : buckets.events(bucket)) {
					shown.add(event.getReason() + " " + event.getMessage());
				}
			}
			for (String secret : List.of("AKIDS3CR3T", "s3cr3t-signature", "bucket-user", "hunter2", "s3cr3t-token")) {
				assertThat(shown).as(secret).noneMatch((line) -> line.contains(secret));
			}
		}
	}

	private static boolean notAllowed(StorageBuckets buckets, String name) throws Exception {
		return buckets.available(name)
			.filter((condition) -> "False".equals(condition.getStatus())
					&& "EndpointNotAllowed".equals(condition.getReason()))
			.isPresent();
	}

	/**
	 * The port of the running operator that stands for a port of the container:
	 * {@code server.port} or {@code management.server.port} of {@code application.yaml}.
	 */
	private static int runtimePort(OperatorProcess operator, int containerPort) throws IOException {
		if (containerPort == DeployManifestTests.applicationPort()) {
			return operator.port();
		}
		if (containerPort == DeployManifestTests.managementPort()) {
			return operator.managementPort();
		}
		throw new AssertionError("Port " + containerPort + " is neither server.port nor management.server.port");
	}

	private OperatorProcess start(ControlPlane controlPlane, String... args) throws Exception {
		OperatorProcess process = OperatorProcess.start(controlPlane.kubeconfig(), args);
		this.processes.add(process);
		return process;
	}

	/**
	 * The container port the metrics Service sends the named port of the ServiceMonitor
	 * to.
	 */
	private static String metricsTargetPort(String name) throws IOException {
		for (JsonObject service : Manifests.load("service.yaml")) {
			if (service.getAsJsonObject("metadata").get("name").getAsString().endsWith("-metrics")) {
				for (JsonElement port : service.getAsJsonObject("spec").getAsJsonArray("ports")) {
					if (port.getAsJsonObject().get("name").getAsString().equals(name)) {
						return port.getAsJsonObject().get("targetPort").getAsString();
					}
				}
			}
		}
		throw new AssertionError("No port " + name + " on the metrics Service of service.yaml");
	}

}
