package io.kubeboot.operator.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Installs CustomResourceDefinitions from YAML, as {@code kubectl apply -f crd.yaml}
 * followed by {@code kubectl wait --for condition=established} would: each one is
 * created, or replaced if it exists, and {@link #apply(ApiClient, String, String) apply}
 * returns once the API server serves all of them.
 * <p>
 * The YAML is sent as it is, never through client-java's typed CRD model (which writes
 * empty collections that kube-apiserver has rejected in a schema, 1.20 did). Every
 * document must be an {@code apiextensions.k8s.io/v1} {@code CustomResourceDefinition};
 * empty documents are skipped.
 *
 * <pre class="code">
 * CustomResourceDefinitions.apply(controlPlane.adminClient(), Path.of("deploy/crd.yaml"));
 * </pre>
 */
public final class CustomResourceDefinitions {

	/**
	 * How long {@link #apply(ApiClient, String, String)} waits for the API server to
	 * establish a CRD.
	 */
	public static final Duration ESTABLISH_TIMEOUT = Duration.ofSeconds(30);

	private static final String API_VERSION = "apiextensions.k8s.io/v1";

	private static final String KIND = "CustomResourceDefinition";

	private static final int REPLACE_ATTEMPTS = 5;

	private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

	private CustomResourceDefinitions() {
	}

	/**
	 * Applies the CRDs of a YAML file.
	 * @param client a client allowed to write CRDs, such as
	 * {@link ControlPlane#adminClient()}
	 * @param file the YAML file
	 * @return the names of the CRDs applied, such as
	 * {@code storagebuckets.storage.example.com}, in the file's order
	 * @throws ControlPlaneException if the file holds anything but CRDs, or the API
	 * server refuses one or does not establish it in time
	 * @throws UncheckedIOException if the file cannot be read
	 */
	public static List<String> apply(ApiClient client, Path file) {
		String yaml;
		try {
			yaml = Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + file, ex);
		}
		return apply(client, yaml, file.toString());
	}

	/**
	 * Applies the CRDs of a YAML text: creates each one, or replaces it if it exists,
	 * then waits until the API server has established all of them (at most
	 * {@link #ESTABLISH_TIMEOUT} each).
	 * @param client a client allowed to write CRDs, such as
	 * {@link ControlPlane#adminClient()}
	 * @param yaml one or more YAML documents, each a CRD
	 * @param origin where the YAML comes from, for messages (a file name or a URL)
	 * @return the names of the CRDs applied, in the YAML's order
	 * @throws ControlPlaneException if the YAML holds anything but CRDs, or the API
	 * server refuses one or does not establish it in time
	 */
	public static List<String> apply(ApiClient client, String yaml, String origin) {
		List<JsonObject> crds = parse(yaml, origin);
		DynamicKubernetesApi api = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				client);
		List<String> names = new ArrayList<>();
		for (JsonObject crd : crds) {
			names.add(createOrReplace(api, crd, origin));
		}
		for (String name : names) {
			awaitEstablished(api, name, origin);
		}
		return names;
	}

	static List<JsonObject> parse(String yaml, String origin) {
		List<JsonObject> crds = new ArrayList<>();
		Iterable<Object> documents;
		try {
			List<Object> loaded = new ArrayList<>();
			new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml).forEach(loaded::add);
			documents = loaded;
		}
		catch (YAMLException ex) {
			throw new ControlPlaneException(origin + " is no valid YAML: " + ex.getMessage(), ex);
		}
		int index = 0;
		for (Object document : documents) {
			index++;
			if (document == null) {
				continue;
			}
			if (!(document instanceof Map)) {
				throw new ControlPlaneException(origin + ": document " + index + " is no Kubernetes object");
			}
			JsonObject object = new Gson().toJsonTree(document).getAsJsonObject();
			String apiVersion = string(object, "apiVersion");
			String kind = string(object, "kind");
			if (!KIND.equals(kind) || !API_VERSION.equals(apiVersion)) {
				throw new ControlPlaneException(origin + ": document " + index + " is " + describe(kind, apiVersion)
						+ ", not a CustomResourceDefinition (" + API_VERSION + "); only CRDs are applied from it");
			}
			if (name(object) == null) {
				throw new ControlPlaneException(
						origin + ": document " + index + " is a CustomResourceDefinition " + "without metadata.name");
			}
			crds.add(object);
		}
		return crds;
	}

	private static String describe(String kind, String apiVersion) {
		if (kind == null) {
			return "an object without a kind";
		}
		return "a " + kind + ((apiVersion != null) ? " (" + apiVersion + ")" : "");
	}

	private static String createOrReplace(DynamicKubernetesApi api, JsonObject crd, String origin) {
		String name = name(crd);
		KubernetesApiResponse<DynamicKubernetesObject> created = api
			.create(new DynamicKubernetesObject(crd.deepCopy()));
		if (created.isSuccess()) {
			return name;
		}
		if (created.getHttpStatusCode() != 409) {
			throw refused(name, origin, "create", created);
		}
		for (int attempt = 1;; attempt++) {
			KubernetesApiResponse<DynamicKubernetesObject> current = api.get(name);
			if (!current.isSuccess()) {
				throw refused(name, origin, "read", current);
			}
			JsonObject replacement = crd.deepCopy();
			replacement.getAsJsonObject("metadata")
				.addProperty("resourceVersion", current.getObject().getMetadata().getResourceVersion());
			KubernetesApiResponse<DynamicKubernetesObject> replaced = api
				.update(new DynamicKubernetesObject(replacement));
			if (replaced.isSuccess()) {
				return name;
			}
			if (replaced.getHttpStatusCode() != 409 || attempt == REPLACE_ATTEMPTS) {
				throw refused(name, origin, "replace", replaced);
			}
		}
	}

	private static void awaitEstablished(DynamicKubernetesApi api, String name, String origin) {
		long deadline = System.nanoTime() + ESTABLISH_TIMEOUT.toNanos();
		String conditions = "none";
		while (true) {
			KubernetesApiResponse<DynamicKubernetesObject> current = api.get(name);
			if (current.isSuccess()) {
				JsonObject raw = current.getObject().getRaw();
				JsonArray found = conditionsOf(raw);
				if (found != null) {
					conditions = found.toString();
					for (JsonElement condition : found) {
						JsonObject object = condition.getAsJsonObject();
						if ("Established".equals(string(object, "type")) && "True".equals(string(object, "status"))) {
							return;
						}
					}
				}
			}
			if (System.nanoTime() - deadline > 0) {
				throw new ControlPlaneException("The CustomResourceDefinition " + name + " from " + origin
						+ " was not established within " + ESTABLISH_TIMEOUT + "; its conditions: " + conditions);
			}
			try {
				Thread.sleep(POLL_INTERVAL.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new ControlPlaneException(
						"Interrupted while waiting for the CustomResourceDefinition " + name + " to be established",
						ex);
			}
		}
	}

	private static JsonArray conditionsOf(JsonObject crd) {
		JsonElement status = crd.get("status");
		if (status == null || !status.isJsonObject()) {
			return null;
		}
		JsonElement conditions = status.getAsJsonObject().get("conditions");
		return (conditions != null && conditions.isJsonArray()) ? conditions.getAsJsonArray() : null;
	}

	private static ControlPlaneException refused(String name, String origin, String verb,
			KubernetesApiResponse<DynamicKubernetesObject> response) {
		String message = (response.getStatus() != null && response.getStatus().getMessage() != null)
				? response.getStatus().getMessage() : "no message";
		return new ControlPlaneException("Cannot " + verb + " the CustomResourceDefinition " + name + " from " + origin
				+ ": " + response.getHttpStatusCode() + " " + message);
	}

	private static String name(JsonObject object) {
		JsonElement metadata = object.get("metadata");
		return (metadata != null && metadata.isJsonObject()) ? string(metadata.getAsJsonObject(), "name") : null;
	}

	private static String string(JsonObject object, String key) {
		JsonElement value = object.get(key);
		return (value != null && value.isJsonPrimitive()) ? value.getAsString() : null;
	}

}
