package io.kubeboot.operator.test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link CustomResourceDefinitions} against the real API server: CRDs from YAML are
 * created, replaced when they exist, and served when {@code apply} returns; anything but
 * a CRD, and a CRD the API server refuses, fail with a message naming the document.
 */
@WithControlPlane
class CustomResourceDefinitionsIntegrationTests {

	@Test
	void appliesEveryCrdOfTheYamlAndReturnsOnceTheyAreServed(ApiClient admin, TestNamespace namespace)
			throws Exception {
		String yaml = crd("gadgets", "Gadget", "crds-a.test.kubeboot.io", "first") + "---\n"
				+ crd("gizmos", "Gizmo", "crds-a.test.kubeboot.io", "first");

		assertThat(CustomResourceDefinitions.apply(admin, yaml, "crds.yaml"))
			.containsExactly("gadgets.crds-a.test.kubeboot.io", "gizmos.crds-a.test.kubeboot.io");

		// served at once: an object of each kind can be created
		for (String plural : new String[] { "gadgets", "gizmos" }) {
			KubernetesApiResponse<DynamicKubernetesObject> created = new DynamicKubernetesApi("crds-a.test.kubeboot.io",
					"v1", plural, admin)
				.create(new DynamicKubernetesObject(JsonParser.parseString("""
						{"apiVersion": "crds-a.test.kubeboot.io/v1", "kind": "%s",
						 "metadata": {"name": "one", "namespace": "%s"}}
						""".formatted(plural.equals("gadgets") ? "Gadget" : "Gizmo", namespace.name()))
					.getAsJsonObject()));
			assertThat(created.isSuccess()).as(String.valueOf(created.getStatus())).isTrue();
		}
	}

	@Test
	void replacesACrdThatExists(ApiClient admin, @TempDir Path directory) throws Exception {
		Path file = directory.resolve("crd.yaml");
		Files.writeString(file, crd("widgets", "Widget", "crds-b.test.kubeboot.io", "first"), StandardCharsets.UTF_8);
		CustomResourceDefinitions.apply(admin, file);
		Files.writeString(file, crd("widgets", "Widget", "crds-b.test.kubeboot.io", "second"), StandardCharsets.UTF_8);

		assertThat(CustomResourceDefinitions.apply(admin, file)).containsExactly("widgets.crds-b.test.kubeboot.io");

		V1CustomResourceDefinition crd = new ApiextensionsV1Api(admin)
			.readCustomResourceDefinition("widgets.crds-b.test.kubeboot.io")
			.execute();
		assertThat(crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getDescription())
			.isEqualTo("second");
	}

	@Test
	void refusesAnythingButCrds(ApiClient admin) {
		String yaml = crd("things", "Thing", "crds-c.test.kubeboot.io", "first") + """
				---
				apiVersion: v1
				kind: ConfigMap
				metadata:
				  name: not-a-crd
				""";

		assertThatExceptionOfType(ControlPlaneException.class)
			.isThrownBy(() -> CustomResourceDefinitions.apply(admin, yaml, "deploy/all.yaml"))
			.withMessage("deploy/all.yaml: document 2 is a ConfigMap (v1), not a CustomResourceDefinition "
					+ "(apiextensions.k8s.io/v1); only CRDs are applied from it");
		// nothing was applied
		assertThat(new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", admin)
			.get("things.crds-c.test.kubeboot.io")
			.getHttpStatusCode()).isEqualTo(404);
	}

	@Test
	void aCrdTheApiServerRefusesFailsWithItsMessage(ApiClient admin) {
		// the name must be <plural>.<group>
		String yaml = crd("parts", "Part", "crds-d.test.kubeboot.io", "first").replace("name: parts.", "name: pieces.");

		assertThatExceptionOfType(ControlPlaneException.class)
			.isThrownBy(() -> CustomResourceDefinitions.apply(admin, yaml, "crd.yaml"))
			.withMessageStartingWith("Cannot create the CustomResourceDefinition pieces.crds-d.test.kubeboot.io "
					+ "from crd.yaml: 422 ")
			.withMessageContaining("must be spec.names.plural+\".\"+spec.group");
	}

	private static String crd(String plural, String kind, String group, String description) {
		return """
				apiVersion: apiextensions.k8s.io/v1
				kind: CustomResourceDefinition
				metadata:
				  name: %1$s.%3$s
				spec:
				  group: %3$s
				  scope: Namespaced
				  names:
				    plural: %1$s
				    singular: %2$s
				    kind: %4$s
				    listKind: %4$sList
				  versions:
				    - name: v1
				      served: true
				      storage: true
				      schema:
				        openAPIV3Schema:
				          description: %5$s
				          type: object
				          x-kubernetes-preserve-unknown-fields: true
				""".formatted(plural, kind.toLowerCase(), group, kind, description);
	}

}
