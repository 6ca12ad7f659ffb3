package io.kubeboot.sample;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

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
 * The sample's validating webhook called by the real API server, as {@code kubectl apply}
 * meets it, beside the rules of its CRD that the API server checks itself: the operator
 * process serves the webhook with a self-signed certificate, and the test registers it as
 * {@code deploy/webhook.yaml} does (its match condition included), in the test's
 * namespace only.
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
	void theApiServerAndTheValidatorEachRefuseWhatTheyCheck(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		StorageBuckets buckets = new StorageBuckets(controlPlane.adminClient(), namespace.name());
		this.operator = OperatorProcess.start(controlPlane.kubeconfig(), "--operator.namespace=" + namespace,
				"--sample.buckets.regions=eu-west-1,us-east-1");
		await().atMost(START).until(() -> this.operator.logged("Webhook server started"));
		JsonObject condition = matchCondition();
		this.webhooks = TestWebhooks
			.builder(controlPlane.adminClient(), "https://127.0.0.1:" + this.operator.webhookPort(),
					this.operator.webhookCaBundle())
			.validating("/validate-storage-kubeboot-io-v1alpha1-storagebucket", StorageBucket.GROUP,
					StorageBucket.VERSION, StorageBucket.PLURAL)
			.matchCondition(condition.get("name").getAsString(), condition.get("expression").getAsString())
			.onlyIn(namespace)
			.install();

		// refused with the validator's message, as kubectl apply prints it (once the API
		// server applies the webhook configuration, within about a second)
		AtomicReference<KubernetesApiResponse<StorageBucket>> withCredentials = new AtomicReference<>();
		await().atMost(Duration.ofSeconds(20)).until(() -> {
			withCredentials.set(buckets.tryCreate(
					bucket("secret-" + System.nanoTime(), "https://user:hunter2@photos.example.com/health", null)));
			return !withCredentials.get().isSuccess();
		});
		assertThat(refusal(withCredentials.get()))
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

		// the CRD's default is written by the API server, with no webhook
		KubernetesApiResponse<StorageBucket> photos = buckets
			.tryCreate(bucket("photos", "https://photos.example.com/health", "us-east-1"));
		assertThat(photos.isSuccess()).isTrue();
		assertThat(photos.getObject().getSpec().getProbeTimeoutSeconds()).isEqualTo(5);

		// the CRD's transition rule refuses a new bucket name, with the rule's message
		KubernetesApiResponse<StorageBucket> renamed = update(buckets, "photos",
				(bucket) -> bucket.getSpec().bucketName("other"));
		assertThat(renamed.isSuccess()).as("the API server accepted the new bucket name").isFalse();
		assertThat(renamed.getHttpStatusCode()).isEqualTo(422);
		assertThat(renamed.getStatus().getMessage()).contains("spec.bucketName: Invalid value")
			.contains("cannot change: create another StorageBucket for another bucket");

		// with the operator gone, only a write that changes the endpoint (or the region)
		// needs its webhook: the match condition keeps the API server from calling it for
		// the others, such as a label or a finalizer
		this.operator.close();
		this.operator = null;
		assertThat(
				update(buckets, "photos", (bucket) -> bucket.getMetadata().putLabelsItem("team", "media")).isSuccess())
			.isTrue();
		KubernetesApiResponse<StorageBucket> moved = update(buckets, "photos",
				(bucket) -> bucket.getSpec().endpoint("https://photos.example.org/health"));
		assertThat(moved.isSuccess()).as("the API server accepted a new endpoint with its webhook down").isFalse();
		assertThat(moved.getStatus().getMessage()).contains("failed calling webhook");
	}

	/**
	 * Updates a bucket, again on a conflict: the operator writes the bucket meanwhile, as
	 * it would under {@code kubectl edit}.
	 */
	private static KubernetesApiResponse<StorageBucket> update(StorageBuckets buckets, String name,
			Consumer<StorageBucket> change) {
		AtomicReference<KubernetesApiResponse<StorageBucket>> answer = new AtomicReference<>();
		await().atMost(Duration.ofSeconds(20)).until(() -> {
			StorageBucket bucket = buckets.get(name);
			change.accept(bucket);
			answer.set(buckets.tryUpdate(bucket));
			return answer.get().getHttpStatusCode() != 409;
		});
		return answer.get();
	}

	/**
	 * The match condition of the validating webhook in {@code deploy/webhook.yaml}, so
	 * that the test registers the webhook as a cluster does.
	 */
	private static JsonObject matchCondition() throws Exception {
		JsonObject configuration = Manifests.load("webhook.yaml")
			.stream()
			.filter((manifest) -> "ValidatingWebhookConfiguration".equals(manifest.get("kind").getAsString()))
			.findFirst()
			.orElseThrow();
		JsonArray conditions = configuration.getAsJsonArray("webhooks")
			.get(0)
			.getAsJsonObject()
			.getAsJsonArray("matchConditions");
		assertThat(conditions).hasSize(1);
		return conditions.get(0).getAsJsonObject();
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
