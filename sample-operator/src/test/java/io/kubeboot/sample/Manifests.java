package io.kubeboot.sample;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The manifests in {@code deploy/}, read as JSON objects (so a test can adjust them) and
 * created through {@link DynamicKubernetesApi}, as {@code kubectl create -f} would. The
 * typed client-java models are avoided on purpose: the CRD model writes empty collections
 * that kube-apiserver rejected in a schema (1.20 did).
 */
final class Manifests {

	/**
	 * The directory of the manifests; tests run in the module's directory.
	 */
	static final Path DEPLOY = Path.of("deploy");

	/**
	 * The directory of the examples that are not generated.
	 */
	static final Path EXAMPLES = Path.of("examples");

	private static final Map<String, String> PLURALS = Map.of("CustomResourceDefinition", "customresourcedefinitions",
			"ServiceAccount", "serviceaccounts", "ClusterRole", "clusterroles", "ClusterRoleBinding",
			"clusterrolebindings", "Role", "roles", "RoleBinding", "rolebindings", "StorageBucket", "storagebuckets",
			"Pod", "pods", "ValidatingAdmissionPolicy", "validatingadmissionpolicies",
			"ValidatingAdmissionPolicyBinding", "validatingadmissionpolicybindings");

	private Manifests() {
	}

	static JsonObject parse(String json) {
		return JsonParser.parseString(json).getAsJsonObject();
	}

	static List<JsonObject> load(String file) throws IOException {
		return load(DEPLOY.resolve(file));
	}

	static List<JsonObject> load(Path file) throws IOException {
		List<JsonObject> documents = new ArrayList<>();
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(reader)) {
				if (document != null) {
					documents.add(new Gson().toJsonTree(document).getAsJsonObject());
				}
			}
		}
		return documents;
	}

	/**
	 * Creates an object; in its {@code metadata.namespace} if it has one.
	 * @param client the client
	 * @param manifest the object
	 * @return {@code true} if it was created, {@code false} if it existed already
	 * @throws ApiException any other failure
	 */
	static boolean create(ApiClient client, JsonObject manifest) throws ApiException {
		String kind = manifest.get("kind").getAsString();
		String[] apiVersion = manifest.get("apiVersion").getAsString().split("/");
		String group = (apiVersion.length == 2) ? apiVersion[0] : "";
		String version = apiVersion[apiVersion.length - 1];
		String plural = PLURALS.get(kind);
		if (plural == null) {
			throw new IllegalArgumentException("Unknown kind " + kind);
		}
		KubernetesApiResponse<DynamicKubernetesObject> response = new DynamicKubernetesApi(group, version, plural,
				client)
			.create(new DynamicKubernetesObject(manifest));
		if (!response.isSuccess() && response.getHttpStatusCode() != 409) {
			throw new ApiException(response.getHttpStatusCode(), kind + " " + response.getStatus());
		}
		return response.isSuccess();
	}

}
