package io.kubeboot.operator.events;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.google.gson.JsonObject;
import io.kubeboot.operator.client.ApiClients;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.util.PatchUtils;

/**
 * Writes Events through {@link CoreV1Api}. Patches are strategic merge patches sent
 * through {@link PatchUtils}: client-java's generated {@code patchNamespacedEvent} sends
 * {@code Content-Type: application/json}, which the API server rejects with 415. Every
 * call is bounded by a call timeout, so a hung API server cannot stall the recorder's
 * thread for long.
 */
final class ApiEventSink implements EventSink {

	private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

	private final ApiClient client;

	private final CoreV1Api api;

	private final KindResolver kinds;

	private final Map<Class<?>, String> apiVersions = new ConcurrentHashMap<>();

	ApiEventSink(ApiClient client) {
		this.client = ApiClients.withTimeouts(client, CALL_TIMEOUT, CALL_TIMEOUT);
		this.api = new CoreV1Api(this.client);
		this.kinds = new KindResolver(this.client);
	}

	@Override
	public String apiVersionOf(Class<? extends KubernetesObject> type) throws ApiException {
		String cached = this.apiVersions.get(type);
		if (cached != null) {
			return cached;
		}
		KindResolver.DeclaredKind declared = KindResolver.declaredKind(type);
		String group = declared.group();
		String apiVersion;
		if (group != null) {
			apiVersion = group.isEmpty() ? declared.version() : group + "/" + declared.version();
		}
		else {
			// an unprefixed client-java model (V1Deployment): only discovery knows its
			// group
			apiVersion = this.kinds.resolve(type).apiVersion();
		}
		this.apiVersions.put(type, apiVersion);
		return apiVersion;
	}

	@Override
	public CoreV1Event create(String namespace, CoreV1Event event) throws ApiException {
		return this.api.createNamespacedEvent(namespace, event).execute();
	}

	@Override
	public void patch(String namespace, String name, int count, OffsetDateTime lastTimestamp) throws ApiException {
		JsonObject patch = new JsonObject();
		patch.addProperty("count", count);
		patch.addProperty("lastTimestamp", DateTimeFormatter.ISO_INSTANT.format(lastTimestamp));
		PatchUtils.patch(CoreV1Event.class,
				() -> this.api.patchNamespacedEvent(name, namespace, new V1Patch(patch.toString())).buildCall(null),
				V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, this.client);
	}

}
