package io.kubeboot.sample.storage;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.JsonSerializer;
import io.kubeboot.operator.client.ApiClients;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketStatus;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;
import org.springframework.stereotype.Component;

/**
 * Writes a bucket's status through the status subresource with a JSON merge patch, the
 * way controller-runtime's {@code Status().Patch(ctx, obj, client.MergeFromWithOptions(
 * base, client.MergeFromWithOptimisticLock{}))} does:
 * <ul>
 * <li>the patch carries the cached {@code metadata.resourceVersion}, so the API server
 * refuses it with 409 Conflict if the bucket changed since the cache saw it, instead of
 * overwriting a status computed from an outdated spec;</li>
 * <li>it goes through {@link PatchUtils}, which sends the patch's content type
 * (client-java's generated method alone would send {@code application/json}, which the
 * API server answers with 415).</li>
 * </ul>
 */
@Component
class StatusWriter {

	private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

	/**
	 * Writes times as Kubernetes does: RFC 3339 in UTC with whole seconds
	 * ({@code 2024-05-01T10:00:00Z}); client-java's own Gson would add microseconds.
	 */
	private static final Gson GSON = new GsonBuilder()
		.registerTypeAdapter(OffsetDateTime.class,
				(JsonSerializer<OffsetDateTime>) (time, type,
						context) -> new JsonPrimitive(DateTimeFormatter.ISO_INSTANT.format(time)))
		.create();

	private final ApiClient client;

	private final CustomObjectsApi api;

	StatusWriter(ApiClient client) {
		// the application's client may wait forever for an answer (watches need that); a
		// status write must not block a worker for long
		this.client = ApiClients.withTimeouts(client, CALL_TIMEOUT, CALL_TIMEOUT);
		this.api = new CustomObjectsApi(this.client);
	}

	/**
	 * Replaces the bucket's status.
	 * @param bucket the bucket as cached
	 * @param status the new status
	 * @return the bucket as the API server stored it
	 * @throws ApiException 404 if the bucket was deleted, 409 if it changed since it was
	 * cached, or any other failure
	 */
	StorageBucket writeStatus(StorageBucket bucket, StorageBucketStatus status) throws ApiException {
		JsonObject metadata = new JsonObject();
		metadata.addProperty("resourceVersion", bucket.getMetadata().getResourceVersion());
		JsonObject patch = new JsonObject();
		patch.add("metadata", metadata);
		patch.add("status", GSON.toJsonTree(status));
		String namespace = bucket.getMetadata().getNamespace();
		String name = bucket.getMetadata().getName();
		return PatchUtils.patch(StorageBucket.class,
				() -> this.api
					.patchNamespacedCustomObjectStatus(StorageBucket.GROUP, StorageBucket.VERSION, namespace,
							StorageBucket.PLURAL, name, new V1Patch(patch.toString()))
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
	}

}
