package io.kubeboot.sample;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.gson.JsonObject;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the API server refuses by {@code deploy/policy.yaml}, the
 * ValidatingAdmissionPolicy generated from {@code StorageBucket}'s
 * {@code @AdmissionPolicy}, with no operator running: the deletion of a bucket labelled
 * {@code storage.kubeboot.io/protected: "true"}, which no rule of the CRD's schema could
 * refuse. The policy stays on the control plane, which the test JVM shares, and keeps
 * only such buckets, which no other test labels.
 */
@WithControlPlane
class StorageBucketPolicyIntegrationTests {

	private static final String PROTECTED = "storage.kubeboot.io/protected";

	private static final String DENIED = "ValidatingAdmissionPolicy 'protected.storagebuckets.storage.kubeboot.io' "
			+ "with binding 'protected.storagebuckets.storage.kubeboot.io' denied request: "
			+ "the bucket is labelled storage.kubeboot.io/protected=true: remove the label to delete it";

	@Test
	void aProtectedBucketCannotBeDeletedUntilItsLabelIsRemoved(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		assumeTrue(controlPlane.kubernetesVersion().isAtLeast(1, 30),
				"ValidatingAdmissionPolicy is GA since Kubernetes 1.30");
		ApiClient admin = controlPlane.adminClient();
		StorageBuckets.installCrd(admin);
		for (JsonObject manifest : Manifests.load("policy.yaml")) {
			Manifests.create(admin, manifest);
		}
		StorageBuckets buckets = new StorageBuckets(admin, namespace.name());

		// the API server takes a moment to enforce a new binding: until it refuses,
		// each try deletes a protected bucket of its own
		AtomicInteger tries = new AtomicInteger();
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
			String name = "early-" + tries.incrementAndGet();
			create(buckets, name, "true");
			return buckets.tryDelete(name).getHttpStatusCode() == 403;
		});

		create(buckets, "kept", "true");
		KubernetesApiResponse<StorageBucket> refused = buckets.tryDelete("kept");
		assertThat(refused.getHttpStatusCode()).as(String.valueOf(refused.getStatus())).isEqualTo(403);
		assertThat(refused.getStatus().getReason()).isEqualTo("Forbidden");
		assertThat(refused.getStatus().getMessage()).contains(DENIED);
		assertThat(buckets.exists("kept")).isTrue();

		// without the label, or with another value, a bucket is deleted
		create(buckets, "unlabelled", null);
		create(buckets, "unprotected", "false");
		for (String name : new String[] { "unlabelled", "unprotected" }) {
			KubernetesApiResponse<StorageBucket> deleted = buckets.tryDelete(name);
			assertThat(deleted.isSuccess()).as(name + " " + deleted.getStatus()).isTrue();
			assertThat(buckets.exists(name)).as(name).isFalse();
		}

		StorageBucket kept = buckets.get("kept");
		kept.getMetadata().getLabels().remove(PROTECTED);
		KubernetesApiResponse<StorageBucket> unlabelled = buckets.tryUpdate(kept);
		assertThat(unlabelled.isSuccess()).as(String.valueOf(unlabelled.getStatus())).isTrue();
		KubernetesApiResponse<StorageBucket> deleted = buckets.tryDelete("kept");
		assertThat(deleted.isSuccess()).as(String.valueOf(deleted.getStatus())).isTrue();
		assertThat(buckets.exists("kept")).isFalse();
	}

	/**
	 * Creates a bucket, labelled {@value #PROTECTED} with the value unless it is null.
	 */
	private static void create(StorageBuckets buckets, String name, String protection) throws ApiException {
		buckets.create(name, "https://" + name + ".example.com/health");
		if (protection != null) {
			StorageBucket bucket = buckets.get(name);
			bucket.getMetadata().putLabelsItem(PROTECTED, protection);
			buckets.tryUpdate(bucket).throwsApiException();
		}
	}

}
