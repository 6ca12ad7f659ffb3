package io.kubeboot.operator.it;

import java.time.Duration;

import com.google.gson.JsonParser;
import io.kubeboot.operator.model.CustomResourceList;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

import static org.awaitility.Awaitility.await;

/**
 * Installs the Swatch CRD once per test JVM, with {@code .spec.color} declared in its
 * {@code selectableFields} (custom resource field selectors, on by default since
 * Kubernetes 1.31), and gives typed access to swatches.
 */
public final class Swatches {

	private static volatile boolean installed;

	private Swatches() {
	}

	public static synchronized void install(ApiClient admin) throws ApiException {
		if (installed) {
			return;
		}
		// a selectable field must be typed in a structural schema
		String crd = """
				{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
				 "metadata": {"name": "swatches.test.kubeboot.io"},
				 "spec": {"group": "test.kubeboot.io", "scope": "Namespaced",
				  "names": {"plural": "swatches", "singular": "swatch", "kind": "Swatch", "listKind": "SwatchList"},
				  "versions": [{"name": "v1", "served": true, "storage": true,
				   "selectableFields": [{"jsonPath": ".spec.color"}],
				   "schema": {"openAPIV3Schema": {"type": "object", "properties": {
				    "spec": {"type": "object", "properties": {"color": {"type": "string"}, "shape": {"type": "string"}}},
				    "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}]}}
				""";
		KubernetesApiResponse<DynamicKubernetesObject> created = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
				"customresourcedefinitions", admin)
			.create(new DynamicKubernetesObject(JsonParser.parseString(crd).getAsJsonObject()));
		if (!created.isSuccess() && created.getHttpStatusCode() != 409) {
			throw new ApiException(created.getHttpStatusCode(), String.valueOf(created.getStatus()));
		}
		ApiextensionsV1Api api = new ApiextensionsV1Api(admin);
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			V1CustomResourceDefinition current = api.readCustomResourceDefinition("swatches.test.kubeboot.io")
				.execute();
			return current.getStatus() != null && current.getStatus().getConditions() != null
					&& current.getStatus()
						.getConditions()
						.stream()
						.anyMatch((condition) -> "Established".equals(condition.getType())
								&& "True".equals(condition.getStatus()));
		});
		installed = true;
	}

	public static GenericKubernetesApi<Swatch, ?> api(ApiClient client) {
		return new GenericKubernetesApi<>(Swatch.class, Listed.class, "test.kubeboot.io", "v1", "swatches", client);
	}

	/**
	 * The list class client-java's {@code GenericKubernetesApi} needs, kept out of the
	 * framework's sight, as {@link Widgets} keeps its own.
	 */
	private static final class Listed extends CustomResourceList<Swatch> {

	}

}
