package io.kubeboot.sample;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonObject;
import io.kubernetes.client.Discovery;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Any object, applied to the API server as {@code kubectl apply --server-side} does, with
 * or without {@code --dry-run=server}, and with strict field validation, so that a field
 * the schema does not know is refused rather than dropped: a PATCH of
 * {@code application/apply-patch+yaml} to the resource discovery names for the object's
 * kind. The answer keeps the API server's {@code Warning} headers, which is where Pod
 * Security admission says what a workload's pods would break.
 */
final class ServerSideApply {

	private static final String APPLY = "application/apply-patch+yaml";

	private final ApiClient client;

	private final String fieldManager;

	private final Map<String, Discovery.APIResource> resources = new HashMap<>();

	ServerSideApply(ApiClient client, String fieldManager) {
		this.client = client;
		this.fieldManager = fieldManager;
	}

	/**
	 * Applies an object.
	 * @param object the object
	 * @param dryRun whether the API server only checks it (admission and validation
	 * included) without storing it
	 * @return the answer
	 */
	Answer apply(JsonObject object, boolean dryRun) throws ApiException, IOException {
		List<Pair> query = new ArrayList<>();
		query.add(new Pair("fieldManager", this.fieldManager));
		query.add(new Pair("force", "true"));
		query.add(new Pair("fieldValidation", "Strict"));
		if (dryRun) {
			query.add(new Pair("dryRun", "All"));
		}
		return call("PATCH", object, query, object.toString(), APPLY);
	}

	/**
	 * Reads an object back.
	 * @param object the object, by its kind, namespace and name
	 * @return the answer
	 */
	Answer get(JsonObject object) throws ApiException, IOException {
		return call("GET", object, List.of(), null, null);
	}

	/**
	 * Deletes an object.
	 * @param object the object, by its kind, namespace and name
	 * @return the answer
	 */
	Answer delete(JsonObject object) throws ApiException, IOException {
		return call("DELETE", object, List.of(), null, null);
	}

	private Answer call(String method, JsonObject object, List<Pair> query, String body, String contentType)
			throws ApiException, IOException {
		Map<String, String> headers = new HashMap<>();
		headers.put("Accept", "application/json");
		if (contentType != null) {
			headers.put("Content-Type", contentType);
		}
		// the client's call, so that it authenticates as the client does
		Call call = this.client.buildCall(null, path(object), method, query, List.of(), body, headers, Map.of(),
				Map.of(), new String[] { "BearerToken" }, null);
		try (Response response = call.execute()) {
			ResponseBody answer = response.body();
			return new Answer(response.code(), (answer != null) ? answer.string() : "", response.headers("Warning"));
		}
	}

	private String path(JsonObject object) throws ApiException {
		String apiVersion = object.get("apiVersion").getAsString();
		String kind = object.get("kind").getAsString();
		Discovery.APIResource resource = resource(apiVersion, kind);
		JsonObject metadata = object.getAsJsonObject("metadata");
		StringBuilder path = new StringBuilder(apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion);
		if (Boolean.TRUE.equals(resource.getNamespaced())) {
			path.append("/namespaces/").append(metadata.get("namespace").getAsString());
		}
		return path.append('/')
			.append(resource.getResourcePlural())
			.append('/')
			.append(metadata.get("name").getAsString())
			.toString();
	}

	private Discovery.APIResource resource(String apiVersion, String kind) throws ApiException {
		String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
		String key = group + "/" + kind;
		if (!this.resources.containsKey(key)) {
			// again after CRDs were installed
			for (Discovery.APIResource resource : new Discovery(this.client).findAll()) {
				this.resources.put(resource.getGroup() + "/" + resource.getKind(), resource);
			}
		}
		Discovery.APIResource resource = this.resources.get(key);
		if (resource == null) {
			throw new IllegalArgumentException("The API server serves no " + kind + " of " + apiVersion);
		}
		return resource;
	}

	/**
	 * The API server's answer.
	 *
	 * @param code the HTTP status
	 * @param body the body: the object, or a Status
	 * @param warnings the {@code Warning} headers
	 */
	record Answer(int code, String body, List<String> warnings) {

		boolean isSuccess() {
			return this.code >= 200 && this.code < 300;
		}

		String message() {
			return isSuccess() ? "" : Manifests.parse(this.body).get("message").getAsString();
		}

	}

}
