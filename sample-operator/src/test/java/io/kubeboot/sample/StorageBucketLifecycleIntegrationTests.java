package io.kubeboot.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the sample writes besides a bucket's status, end to end: the finalizer, the
 * ConfigMap of connection details it owns, and the registration outside the cluster that
 * the finalizer's cleanup undoes before a deleted bucket goes away.
 */
@WithControlPlane
class StorageBucketLifecycleIntegrationTests {

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
	void bucketOwnsItsConnectionDetailsAndIsDeregisteredBeforeItGoes(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		StorageBuckets buckets = new StorageBuckets(controlPlane.adminClient(), namespace.name());
		String path = "/buckets/" + namespace.name() + "/photos";
		try (BucketEndpoint endpoint = BucketEndpoint.start();
				BucketRegistryServer registry = BucketRegistryServer.start()) {
			buckets.create("photos", endpoint.url());
			OperatorProcess operator = OperatorProcess.start(controlPlane.kubeconfig(),
					Stream
						.concat(Stream.of(SampleArguments.replica(namespace, "replica-a")),
								Stream.of("--sample.buckets.registry-url=" + registry.url()))
						.toArray(String[]::new));
			this.processes.add(operator);

			// the finalizer, the ConfigMap controlled by the bucket, the registration
			await().atMost(START).until(() -> buckets.availableStatus("photos").equals("True"));
			StorageBucket bucket = buckets.get("photos");
			assertThat(bucket.getMetadata().getFinalizers()).containsExactly("storage.kubeboot.io/deregister");
			await().atMost(WAIT).until(() -> buckets.connection("photos").isPresent());
			V1ConfigMap connection = buckets.connection("photos").orElseThrow();
			assertThat(connection.getData()).containsExactly(Map.entry("bucketName", "photos"),
					Map.entry("endpoint", endpoint.url()), Map.entry("region", "test-1"));
			assertThat(connection.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by",
					"sample-operator");
			assertThat(connection.getMetadata().getOwnerReferences()).singleElement().satisfies((owner) -> {
				assertThat(owner.getKind()).isEqualTo("StorageBucket");
				assertThat(owner.getUid()).isEqualTo(bucket.getMetadata().getUid());
				assertThat(owner.getController()).isTrue();
			});
			await().atMost(WAIT).until(() -> !registry.calls("PUT", path).isEmpty());
			assertThat(registry.calls("PUT", path).get(0).body()).contains("\"bucketName\":\"photos\"")
				.contains("\"endpoint\":\"" + endpoint.url() + "\"");

			// someone edits the ConfigMap: its owner is reconciled and puts it back
			buckets.tamperWithConnection("photos");
			await().atMost(WAIT)
				.until(() -> endpoint.url()
					.equals(buckets.connection("photos").orElseThrow().getData().get("endpoint")));

			// the spec changes: the ConfigMap follows, and the registration too
			buckets.changeEndpoint("photos", endpoint.url() + "?v=2");
			await().atMost(WAIT)
				.until(() -> (endpoint.url() + "?v=2")
					.equals(buckets.connection("photos").orElseThrow().getData().get("endpoint")));
			await().atMost(WAIT)
				.until(() -> registry.calls("PUT", path).stream().anyMatch((call) -> call.body().contains("?v=2")));

			// deleted while the registry is down: the bucket waits, its finalizer kept
			registry.answer(503);
			buckets.delete("photos");
			await().atMost(WAIT).until(() -> registry.calls("DELETE", path).size() >= 2);
			StorageBucket deleting = buckets.get("photos");
			assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
			assertThat(deleting.getMetadata().getFinalizers()).containsExactly("storage.kubeboot.io/deregister");

			// the registry is back: deregistered, then the bucket is gone
			registry.answer(204);
			await().atMost(Duration.ofSeconds(60)).until(() -> !buckets.exists("photos"));
			assertThat(registry.calls("DELETE", path)).last()
				.satisfies((call) -> assertThat(call.status()).isEqualTo(204));
			assertThat(operator.logged("Bucket deregistered")).isTrue();
			assertThat(operator.output())
				.noneMatch((line) -> line.contains(" ERROR ") && !line.contains("Reconciler error"));
		}
	}

}
