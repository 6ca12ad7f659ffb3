package io.kubeboot.sample;

import java.io.IOException;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the API server itself refuses with the CRD generated from the model
 * ({@code deploy/crd.yaml}), before any webhook or operator sees the bucket, and the
 * columns {@code kubectl get} shows.
 */
@WithControlPlane
class StorageBucketSchemaIntegrationTests {

	@Test
	void theGeneratedSchemaRefusesInvalidBuckets(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		StorageBuckets buckets = new StorageBuckets(controlPlane.adminClient(), namespace.name());

		assertThat(refusal(buckets.tryCreate(bucket("ftp",
				new StorageBucketSpec().bucketName("photos").endpoint("ftp://photos.example.com/health")))))
			.contains("spec.endpoint in body should match '^https?://[^\\s]+$'");
		assertThat(refusal(buckets.tryCreate(bucket("short",
				new StorageBucketSpec().bucketName("ab").endpoint("https://photos.example.com/health")))))
			.contains("spec.bucketName in body should be at least 3 chars long");
		assertThat(refusal(buckets.tryCreate(bucket("slow",
				new StorageBucketSpec().bucketName("photos")
					.endpoint("https://photos.example.com/health")
					.probeTimeoutSeconds(61)))))
			.contains("spec.probeTimeoutSeconds in body should be less than or equal to 60");
		assertThat(refusal(buckets.tryCreate(bucket("noendpoint", new StorageBucketSpec().bucketName("photos")))))
			.contains("spec.endpoint: Required value");
		assertThat(refusal(buckets.tryCreate(bucket("nospec", null)))).contains("spec: Required value");

		assertThat(buckets
			.tryCreate(bucket("photos",
					new StorageBucketSpec().bucketName("photos").endpoint("https://photos.example.com/health")))
			.isSuccess()).isTrue();
		JsonObject table = table(controlPlane, namespace);
		assertThat(table.getAsJsonArray("columnDefinitions"))
			.extracting((column) -> column.getAsJsonObject().get("name").getAsString())
			.containsExactly("Name", "Bucket", "Available", "Endpoint", "Age", "Reason", "Region", "Last Probe");
		assertThat(table.getAsJsonArray("columnDefinitions"))
			.extracting((column) -> column.getAsJsonObject().get("priority").getAsInt())
			.containsExactly(0, 0, 0, 0, 0, 1, 1, 1);
		JsonArray cells = table.getAsJsonArray("rows").get(0).getAsJsonObject().getAsJsonArray("cells");
		assertThat(cells.get(1).getAsString()).isEqualTo("photos");
		assertThat(cells.get(3).getAsString()).isEqualTo("https://photos.example.com/health");
	}

	private static String refusal(KubernetesApiResponse<StorageBucket> response) {
		assertThat(response.isSuccess()).as("the API server accepted the bucket").isFalse();
		assertThat(response.getHttpStatusCode()).isEqualTo(422);
		return response.getStatus().getMessage();
	}

	private static StorageBucket bucket(String name, StorageBucketSpec spec) {
		return new StorageBucket().metadata(new V1ObjectMeta().name(name)).spec(spec);
	}

	/** The namespace's buckets as {@code kubectl get storagebuckets} asks for them. */
	private static JsonObject table(ControlPlane controlPlane, TestNamespace namespace) throws IOException {
		Request request = new Request.Builder()
			.url(controlPlane.apiServerUrl() + "/apis/" + StorageBucket.GROUP + "/" + StorageBucket.VERSION
					+ "/namespaces/" + namespace.name() + "/" + StorageBucket.PLURAL)
			.header("Authorization", "Bearer " + controlPlane.token(ControlPlane.ADMIN))
			.header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
			.build();
		try (Response response = controlPlane.adminClient().getHttpClient().newCall(request).execute()) {
			String body = response.body().string();
			assertThat(response.code()).as(body).isEqualTo(200);
			return JsonParser.parseString(body).getAsJsonObject();
		}
	}

}
