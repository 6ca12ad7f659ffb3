package io.kubeboot.operator.it;

import io.kubeboot.operator.model.CustomResourceList;
import java.time.Duration;

import com.google.gson.JsonParser;
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
 * Installs the Widget CRD once per test JVM and gives typed access to widgets.
 */
public final class Widgets {

	private static volatile boolean installed;

	private Widgets() {
	}

	public static synchronized void install(ApiClient admin) throws ApiException {
		if (installed) {
			return;
		}
		ApiextensionsV1Api api = new ApiextensionsV1Api(admin);
		// the typed CRD model serializes empty collections that kube-apiserver 1.20
		// rejects in a schema
		String crd = """
				{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
				 "metadata": {"name": "widgets.test.kubeboot.io"},
				 "spec": {"group": "test.kubeboot.io", "scope": "Namespaced",
				  "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
				  "versions": [{"name": "v1", "served": true, "storage": true, "subresources": {"status": {}},
				   "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}}
				""";
		KubernetesApiResponse<DynamicKubernetesObject> created = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
				"customresourcedefinitions", admin)
			.create(new DynamicKubernetesObject(JsonParser.parseString(crd).getAsJsonObject()));
		if (!created.isSuccess() && created.getHttpStatusCode() != 409) {
			throw new ApiException(created.getHttpStatusCode(), String.valueOf(created.getStatus()));
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			V1CustomResourceDefinition current = api.readCustomResourceDefinition("widgets.test.kubeboot.io").execute();
			return current.getStatus() != null && current.getStatus().getConditions() != null
					&& current.getStatus()
						.getConditions()
						.stream()
						.anyMatch((condition) -> "Established".equals(condition.getType())
								&& "True".equals(condition.getStatus()));
		});
		installed = true;
	}

	public static GenericKubernetesApi<Widget, ?> api(ApiClient client) {
		return new GenericKubernetesApi<>(Widget.class, Listed.class, "test.kubeboot.io", "v1", "widgets", client);
	}

	/**
	 * The list class client-java's {@code GenericKubernetesApi} needs, kept out of the
	 * framework's sight: not named {@code WidgetList}, so the tests exercise the
	 * framework's own list type for custom resources.
	 */
	private static final class Listed extends CustomResourceList<Widget> {

	}

}
