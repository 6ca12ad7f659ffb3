package io.kubeboot.sample;

import io.kubeboot.operator.test.TestCertificateAuthority;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.TestWebhooks;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code dashboards/operator.json} against a running operator: the sample in a JVM of its
 * own, leading with leader election, its webhooks served from certificate files and
 * called by the API server, a bucket reconciled with an Event, an object budget set.
 * Every series a panel or a variable queries is in its {@code /actuator/prometheus}, with
 * the labels the queries match on, group by and show; and every series of the framework
 * is on a panel.
 */
@WithControlPlane
class GrafanaDashboardIntegrationTests {

	/** Start-up of a JVM, cache sync, leader election: generous for a loaded machine. */
	private static final Duration START = Duration.ofSeconds(60);

	private static final Duration RECONCILE = Duration.ofSeconds(30);

	/** The name prefixes of the framework's series. */
	private static final List<String> FRAMEWORK_PREFIXES = List.of("controller_runtime_", "workqueue_",
			"leader_election_", "rest_client_", "certwatcher_", "operator_");

	@Test
	void everySeriesTheDashboardQueriesIsExportedWithTheLabelsItUses(ControlPlane controlPlane, TestNamespace namespace,
			@TempDir Path certificates) throws Exception {
		GrafanaDashboard dashboard = GrafanaDashboard.load();
		StorageBuckets.installCrd(controlPlane.adminClient());
		StorageBuckets buckets = new StorageBuckets(controlPlane.adminClient(), namespace.name());
		TestCertificateAuthority ca = TestCertificateAuthority.create();
		ca.issue(certificates);
		String caBundle = ca.caBundle();
		try (BucketEndpoint endpoint = BucketEndpoint.start();
				OperatorProcess operator = OperatorProcess.start(controlPlane.kubeconfig(),
						with(SampleArguments.replica(namespace, "dashboard"),
								"--operator.webhook.cert-dir=" + certificates,
								// an object budget far above what the test caches: its
								// series
								// are exported only for an informer with a budget
								"--operator.cache.object-budget=100000"))) {
			await().atMost(START).until(() -> operator.logged("Successfully acquired lease"));
			await().atMost(START).until(() -> operator.logged("Webhook server started"));
			try (TestWebhooks webhooks = TestWebhooks
				.builder(controlPlane.adminClient(), "https://127.0.0.1:" + operator.webhookPort(), caBundle)
				.validating("/validate-storage-kubeboot-io-v1alpha1-storagebucket", StorageBucket.GROUP,
						StorageBucket.VERSION, StorageBucket.PLURAL)
				.onlyIn(namespace)
				.install()) {
				// the API server calls the validator once it applies its configuration: a
				// bucket it refuses shows it
				await().atMost(RECONCILE).pollInterval(Duration.ofMillis(500)).until(() -> {
					String refused = "refused-" + System.nanoTime();
					return !buckets
						.tryCreate(new StorageBucket().metadata(new V1ObjectMeta().name(refused))
							.spec(new StorageBucketSpec().bucketName(refused)
								.region("test-1")
								.endpoint("https://user:secret@photos.example.com/health")))
						.isSuccess();
				});
				String bucket = "bucket-" + System.nanoTime();
				KubernetesApiResponse<StorageBucket> created = buckets
					.tryCreate(new StorageBucket().metadata(new V1ObjectMeta().name(bucket))
						.spec(new StorageBucketSpec().bucketName(bucket).region("test-1").endpoint(endpoint.url())));
				assertThat(created.isSuccess()).as("the API server accepted the bucket").isTrue();
				// reconciled by the leader, with an Event
				await().atMost(RECONCILE).until(() -> buckets.availableStatus(bucket).equals("True"));
				await().atMost(RECONCILE).until(() -> buckets.eventCount(bucket, "Normal", "EndpointReachable") >= 1);

				await().atMost(RECONCILE).untilAsserted(() -> {
					PrometheusScrape scrape = PrometheusScrape.parse(operator.get("/actuator/prometheus"));
					List<String> problems = dashboard.problems(scrape);
					assertThat(problems)
						.withFailMessage(() -> "Panels and variables of " + GrafanaDashboard.FILE
								+ " that would show no data:\n  " + String.join("\n  ", problems) + "\n")
						.isEmpty();
					Set<String> notShown = dashboard.familiesNotShown(scrape, FRAMEWORK_PREFIXES);
					assertThat(notShown).withFailMessage(
							() -> "Series of the framework on no panel of " + GrafanaDashboard.FILE + ": " + notShown)
						.isEmpty();
				});
			}
		}
	}

	private static String[] with(String[] arguments, String... more) {
		String[] all = Arrays.copyOf(arguments, arguments.length + more.length);
		System.arraycopy(more, 0, all, arguments.length, more.length);
		return all;
	}

}
