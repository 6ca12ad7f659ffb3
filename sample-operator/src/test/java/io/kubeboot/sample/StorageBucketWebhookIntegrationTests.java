package io.kubeboot.sample;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.TestWebhooks;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's admission webhooks called by the real API server, as {@code kubectl apply}
 * meets them: the operator process serves them with a self-signed certificate, and the
 * test registers them as {@code deploy/webhook.yaml} does, in the test's namespace only.
 */
@WithControlPlane
class StorageBucketWebhookIntegrationTests {

	private static final Duration START = Duration.ofSeconds(60);

	private OperatorProcess operator;

	private TestWebhooks webhooks;

	@AfterEach
	void stop() throws Exception {
		if (this.webhooks != null) {
			this.webhooks.close();
		}
		if (this.operator != null) {
			this.operator.close();
		}
	}

	@Test
	void invalidBucketsAreRefusedWithTheValidatorsMessageAndDefaultsAreWritten(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		StorageBuckets buckets = new StorageBuckets(controlPlane.adminClient(), namespace.name());
		this.operator = OperatorProcess.start(controlPlane.kubeconfig(), "--operator.namespace=" + namespace,
				"--sample.buckets.probe-timeout=7s", "--sample.buckets.regions=eu-west-1,us-east-1");
		await().atMost(START).until(() -> this.operator.logged("Webhook server started"));
		this.webhooks = TestWebhooks
			.builder(controlPlane.adminClient(), "https://127.0.0.1:" + this.operator.webhookPort(),
					this.operator.webhookCaBundle())
			.validating("/validate-storage-kubeboot-io-v1alpha1-storagebucket", StorageBucket.GROUP,
					StorageBucket.VERSION, StorageBucket.PLURAL)
			.mutating("/mutate-storage-kubeboot-io-v1alpha1-storagebucket", StorageBucket.GROUP, StorageBucket.VERSION,
					StorageBucket.PLURAL)
			.onlyIn(namespace)
			.install();

		// the defaulter writes the operator's probe timeout (once the API server applies
		// the webhook configuration, within about a second)
		await().atMost(Duration.ofSeconds(20)).until(() -> {
			KubernetesApiResponse<StorageBucket> created = buckets
				.tryCreate(bucket("probe-" + System.nanoTime(), "https://photos.example.com/health", "eu-west-1"));
			return created.isSuccess()
					&& Integer.valueOf(7).equals(created.getObject().getSpec().getProbeTimeoutSeconds());
		});

		// refused with the validator's message, as kubectl apply prints it
		assertThat(refusal(buckets.tryCreate(bucket("secret", "https://user:hunter2@photos.example.com/health", null))))
			.contains("denied the request: spec.endpoint must not carry credentials (user:password@)")
			.doesNotContain("hunter2");
		// (the CRD's schema refuses other schemes already, with 422, before any webhook)
		assertThat(refusal(buckets.tryCreate(bucket("nohost", "http://:8080/health", null))))
			.contains("denied the request: spec.endpoint has no host");
		// addresses the operator does not probe, as far as the URL tells without a lookup
		assertThat(refusal(buckets.tryCreate(bucket("imds", "http://169.254.169.254/latest/meta-data/", null))))
			.contains("denied the request: spec.endpoint must not name a cloud metadata address (169.254.169.254)");
		assertThat(
				refusal(buckets.tryCreate(bucket("gce", "http://metadata.google.internal/computeMetadata/v1/", null))))
			.contains("denied the request: spec.endpoint must not name a cloud metadata service "
					+ "(metadata.google.internal)");
		assertThat(refusal(buckets.tryCreate(bucket("linklocal", "http://[fe80::1]:8080/health", null))))
			.contains("denied the request: spec.endpoint must not name a link-local address ([fe80::1])");
		assertThat(refusal(buckets.tryCreate(bucket("kubelet", "https://10.0.0.1:10250/pods", null))))
			.contains("denied the request: spec.endpoint must not name a private address (10.0.0.1): the operator "
					+ "does not probe it unless sample.buckets.allow-private-endpoints is true");
		assertThat(refusal(buckets.tryCreate(bucket("far", "https://photos.example.com/health", "mars-1"))))
			.contains("denied the request: spec.region 'mars-1' is not one of the regions this operator serves: "
					+ "eu-west-1, us-east-1");

		// an update is validated against the old object
		assertThat(buckets.tryCreate(bucket("photos", "https://photos.example.com/health", "us-east-1")).isSuccess())
			.isTrue();
		// the operator writes the bucket meanwhile (finalizer, status): retried on a
		// conflict, as kubectl edit would be
		AtomicReference<KubernetesApiResponse<StorageBucket>> renamed = new AtomicReference<>();
		await().atMost(Duration.ofSeconds(20)).until(() -> {
			StorageBucket photos = buckets.get("photos");
			photos.getSpec().bucketName("other");
			renamed.set(buckets.tryUpdate(photos));
			return renamed.get().getHttpStatusCode() != 409;
		});
		assertThat(refusal(renamed.get()))
			.contains("denied the request: spec.bucketName cannot change (was 'photos', now 'other')");
	}

	private static String refusal(KubernetesApiResponse<StorageBucket> response) {
		assertThat(response.isSuccess()).as("the API server accepted the bucket").isFalse();
		assertThat(response.getHttpStatusCode()).isEqualTo(403);
		return response.getStatus().getMessage();
	}

	private static StorageBucket bucket(String name, String endpoint, String region) {
		return new StorageBucket().metadata(new V1ObjectMeta().name(name))
			.spec(new StorageBucketSpec().bucketName(name).endpoint(endpoint).region(region));
	}

}
