package io.kubeboot.sample.storage;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketSpec;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The catalogue of buckets outside the cluster that the operator keeps up to date
 * ({@code sample.buckets.registry-url}): {@code PUT <url>/buckets/<namespace>/<name>}
 * with the bucket's name, endpoint and region registers a bucket, {@code DELETE} on the
 * same path deregisters it. Without a URL there is no registry and both do nothing.
 * <p>
 * Deregistering is why StorageBuckets carry a finalizer: the API server keeps a deleted
 * bucket until the operator has deregistered it, so a registry that is down when a bucket
 * is deleted still hears of it once it is back.
 */
@Component
class BucketRegistry {

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final @Nullable URI url;

	private final Duration timeout;

	private final JsonMapper json;

	BucketRegistry(BucketProperties properties, JsonMapper json) {
		this.json = json;
		this.url = properties.registryUrl();
		this.timeout = properties.probeTimeout();
	}

	/**
	 * Registers a bucket, or updates its registration.
	 * @param bucket the bucket
	 * @throws IOException if the registry did not answer with 2xx
	 * @throws InterruptedException if the thread was interrupted (the manager stops)
	 */
	void register(StorageBucket bucket) throws IOException, InterruptedException {
		if (this.url == null) {
			return;
		}
		StorageBucketSpec spec = bucket.getSpec();
		Map<String, @Nullable String> registration = new LinkedHashMap<>();
		registration.put("bucketName", spec.getBucketName());
		registration.put("endpoint", spec.getEndpoint());
		registration.put("region", spec.getRegion());
		String body = this.json.writeValueAsString(registration);
		send(HttpRequest.newBuilder(path(bucket.getMetadata().getNamespace(), bucket.getMetadata().getName()))
			.PUT(HttpRequest.BodyPublishers.ofString(body))
			.header("Content-Type", "application/json"), false);
	}

	/**
	 * Deregisters a bucket; a bucket the registry does not know counts as deregistered.
	 * @param request the bucket's namespace and name
	 * @throws IOException if the registry did not answer with 2xx or 404
	 * @throws InterruptedException if the thread was interrupted (the manager stops)
	 */
	void deregister(Request request) throws IOException, InterruptedException {
		if (this.url == null) {
			return;
		}
		send(HttpRequest.newBuilder(path(request.namespace(), request.name())).DELETE(), true);
	}

	private void send(HttpRequest.Builder builder, boolean notFoundIsDone) throws IOException, InterruptedException {
		HttpRequest request = builder.timeout(this.timeout).build();
		int status = this.http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
		if ((status < 200 || status >= 300) && !(notFoundIsDone && status == 404)) {
			throw new IOException(request.method() + " " + request.uri() + " answered HTTP " + status);
		}
	}

	private URI path(String namespace, String name) {
		String base = this.url.toString().replaceAll("/+$", "");
		return URI.create(base + "/buckets/" + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "/"
				+ URLEncoder.encode(name, StandardCharsets.UTF_8));
	}

}
