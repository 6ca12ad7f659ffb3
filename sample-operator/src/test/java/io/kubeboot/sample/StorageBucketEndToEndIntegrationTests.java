package io.kubeboot.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.model.Condition;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The StorageBucket controller end to end, as in production: two replicas of the sample
 * in JVMs of their own, the CRD from {@code deploy/crd.yaml}, bucket endpoints served
 * over HTTP by the test.
 */
@WithControlPlane
class StorageBucketEndToEndIntegrationTests {

	/** Start-up of a JVM, cache sync, leader election: generous for a loaded machine. */
	private static final Duration START = Duration.ofSeconds(60);

	/**
	 * A change of the endpoint shows in the status within one probe interval (1s, 10%
	 * jitter) plus the probe timeout (1s); the rest is slack for a loaded machine.
	 */
	private static final Duration NEXT_PROBE = Duration.ofSeconds(20);

	private final List<OperatorProcess> processes = new ArrayList<>();

	@AfterEach
	void killProcesses() throws Exception {
		for (OperatorProcess process : this.processes) {
			process.close();
		}
	}

	@Test
	void theLeaderAloneProbesBucketsAndKeepsTheirStatusEventsAndMetricsUpToDate(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		StorageBuckets buckets = new StorageBuckets(controlPlane.adminClient(), namespace.name());
		try (BucketEndpoint endpoint = BucketEndpoint.start()) {
			buckets.create("photos", endpoint.url());
			buckets.create("refused", "http://127.0.0.1:1/unreachable");
			buckets.create("slow", endpoint.slowUrl());
			OperatorProcess leader = start(controlPlane, namespace, "replica-a");
			await().atMost(START).until(() -> leader.logged("Successfully acquired lease"));
			OperatorProcess standby = start(controlPlane, namespace, "replica-b");

			// every bucket gets its Available condition, whatever its endpoint does
			await().atMost(START).until(() -> buckets.availableStatus("photos").equals("True"));
			Condition photos = buckets.available("photos").orElseThrow();
			assertThat(photos.getReason()).isEqualTo("EndpointReachable");
			assertThat(photos.getMessage()).isEqualTo("GET " + endpoint.url() + " answered HTTP 200");
			assertThat(photos.getObservedGeneration()).isEqualTo(1);
			StorageBucket stored = buckets.get("photos");
			assertThat(stored.getStatus().getObservedGeneration()).isEqualTo(1);
			assertThat(stored.getStatus().getLastProbeTime()).isNotNull();
			await().atMost(NEXT_PROBE).until(() -> buckets.availableStatus("refused").equals("False"));
			assertThat(buckets.available("refused").orElseThrow().getReason()).isEqualTo("EndpointUnreachable");
			assertThat(buckets.available("refused").orElseThrow().getMessage())
				.isEqualTo("GET http://127.0.0.1:1/unreachable failed: connection refused");
			await().atMost(NEXT_PROBE).until(() -> buckets.availableStatus("slow").equals("False"));
			assertThat(buckets.available("slow").orElseThrow().getMessage())
				.isEqualTo("GET " + endpoint.slowUrl() + " did not answer within 1s");
			await().atMost(NEXT_PROBE).until(() -> buckets.eventCount("photos", "Normal", "EndpointReachable") == 1);
			await().atMost(NEXT_PROBE)
				.until(() -> buckets.eventCount("refused", "Warning", "EndpointUnreachable") == 1);

			// from here on the standby is up and knows the leader: it must not probe
			await().atMost(START).until(() -> standby.logged("New leader observed") && standby.logged("replica-a"));
			int probesBefore = endpoint.probes();

			// probes that change nothing write nothing: the bucket keeps its resource
			// version
			String resourceVersion = buckets.get("photos").getMetadata().getResourceVersion();
			await().atMost(NEXT_PROBE).until(() -> endpoint.probes() >= probesBefore + 3);
			assertThat(buckets.get("photos").getMetadata().getResourceVersion()).isEqualTo(resourceVersion);

			// the endpoint fails: unavailable within about one interval, with a Warning
			// Event
			endpoint.answer(503);
			await().atMost(NEXT_PROBE).until(() -> buckets.availableStatus("photos").equals("False"));
			Condition failed = buckets.available("photos").orElseThrow();
			assertThat(failed.getReason()).isEqualTo("EndpointError");
			assertThat(failed.getMessage())
				.isEqualTo("GET " + endpoint.url() + " answered HTTP 503, expected 2xx or 3xx");
			assertThat(failed.getLastTransitionTime()).isAfterOrEqualTo(photos.getLastTransitionTime());
			await().atMost(NEXT_PROBE).until(() -> buckets.eventCount("photos", "Warning", "EndpointError") == 1);

			// it recovers: available again, with a second Normal Event (aggregated into
			// the first)
			endpoint.answer(200);
			await().atMost(NEXT_PROBE).until(() -> buckets.availableStatus("photos").equals("True"));
			await().atMost(NEXT_PROBE).until(() -> buckets.eventCount("photos", "Normal", "EndpointReachable") == 2);

			// metrics: probes by result on the leader, bucket counts from the cache on
			// both
			String leaderMetrics = leader.get("/actuator/prometheus");
			assertThat(metric(leaderMetrics, "storagebucket_probes_total{result=\"available\"}")).isGreaterThan(0);
			assertThat(metric(leaderMetrics, "storagebucket_probes_total{result=\"unavailable\"}")).isGreaterThan(0);
			assertThat(metric(leaderMetrics, "storagebucket_probe_duration_seconds_count")).isGreaterThan(0);
			assertThat(metric(leaderMetrics, "storagebucket_buckets")).isEqualTo(3);
			await().atMost(NEXT_PROBE)
				.until(() -> metric(standby.get("/actuator/prometheus"), "storagebucket_available") == 1);
			String standbyMetrics = standby.get("/actuator/prometheus");
			assertThat(metric(standbyMetrics, "storagebucket_probes_total{result=\"available\"}")).isZero();
			assertThat(metric(standbyMetrics, "storagebucket_buckets")).isEqualTo(3);

			// every probe came from the leader, many of them while the standby was
			// watching
			assertThat(endpoint.probes()).isGreaterThanOrEqualTo(probesBefore + 5);
			assertThat(endpoint.userAgents()).allMatch("sample-operator/replica-a"::equals);
			assertThat(standby.logged("Starting workers")).isFalse();
		}
	}

	private OperatorProcess start(ControlPlane controlPlane, TestNamespace namespace, String identity)
			throws Exception {
		OperatorProcess process = OperatorProcess.start(controlPlane.kubeconfig(),
				SampleArguments.replica(namespace, identity));
		this.processes.add(process);
		return process;
	}

	/**
	 * Reads one series from a Prometheus scrape.
	 */
	static double metric(String scrape, String series) {
		return scrape.lines()
			.filter((line) -> line.startsWith(series + " "))
			.mapToDouble((line) -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No series " + series + " in:\n" + scrape));
	}

}
