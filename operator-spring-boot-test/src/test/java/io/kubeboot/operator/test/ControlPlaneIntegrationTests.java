package io.kubeboot.operator.test;

import java.io.Reader;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests against the control plane shared by the test JVM.
 */
@WithControlPlane
class ControlPlaneIntegrationTests {

	private static final String GROUP = "test.kubeboot.io";

	private static final String CRD = """
			{
			  "apiVersion": "apiextensions.k8s.io/v1",
			  "kind": "CustomResourceDefinition",
			  "metadata": { "name": "widgets.test.kubeboot.io" },
			  "spec": {
			    "group": "test.kubeboot.io",
			    "scope": "Namespaced",
			    "names": { "kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "singular": "widget" },
			    "versions": [ {
			      "name": "v1", "served": true, "storage": true,
			      "subresources": { "status": {} },
			      "schema": { "openAPIV3Schema": {
			        "type": "object",
			        "properties": {
			          "spec": { "type": "object", "properties": { "size": { "type": "integer" } } },
			          "status": { "type": "object", "properties": { "ready": { "type": "boolean" } } }
			        }
			      } }
			    } ]
			  }
			}
			""";

	@Test
	void startsAndIsShared(ControlPlane controlPlane) throws Exception {
		assertThat(controlPlane).isSameAs(ControlPlaneExtension.controlPlane());
		assertThat(controlPlane.isApiServerRunning()).isTrue();
		assertThat(controlPlane.apiServerUrl().toString()).matches("https://127\\.0\\.0\\.1:\\d+");
		assertThat(controlPlane.etcdEndpoint()).matches("http://127\\.0\\.0\\.1:\\d+");
		assertThat(controlPlane.users()).containsExactly("admin", "user1", "user2", "user3");
		assertThat(controlPlane.token("user1")).isNotEqualTo(controlPlane.token("user2")).hasSizeGreaterThan(20);
		assertThat(controlPlane.workDir()).isDirectory();
		assertThat(Files.readString(controlPlane.kubeconfig())).contains("certificate-authority-data: ")
			.contains("server: " + controlPlane.apiServerUrl())
			.contains("token: " + controlPlane.token("admin"));
		assertThatIllegalArgumentException().isThrownBy(() -> controlPlane.clientFor("nobody"))
			.withMessageContaining("nobody");
	}

	@Test
	void adminCreatesConfigMap(ApiClient client, TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("settings")).data(Map.of("key", "value")))
			.execute();
		V1ConfigMap read = api.readNamespacedConfigMap("settings", namespace.name()).execute();
		assertThat(read.getData()).containsEntry("key", "value");
	}

	@Test
	void kubeconfigFilesAreUsable(ControlPlane controlPlane) throws Exception {
		for (String user : List.of("admin", "user1")) {
			KubeConfig config;
			try (Reader reader = Files.newBufferedReader(controlPlane.kubeconfigFor(user))) {
				config = KubeConfig.loadKubeConfig(reader);
			}
			ApiClient client = ClientBuilder.kubeconfig(config).build();
			// /version is readable by every authenticated user
			assertThat(new io.kubernetes.client.openapi.apis.VersionApi(client).getCode().execute().getGitVersion())
				.isEqualTo(controlPlane.kubernetesVersion().gitVersion());
		}
	}

	@Test
	void customResourcesWork(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		ApiClient client = controlPlane.adminClient();
		ApiextensionsV1Api extensions = new ApiextensionsV1Api(client);
		// Created from JSON, as an operator applies its CRD manifests: client-java's
		// typed V1JSONSchemaProps always serializes an empty "dependencies" map, which
		// API
		// servers have rejected ("dependencies is not supported", 1.20).
		DynamicKubernetesApi crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				client);
		crds.create(new DynamicKubernetesObject(JsonParser.parseString(CRD).getAsJsonObject())).throwsApiException();
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> established(extensions.readCustomResourceDefinition("widgets." + GROUP).execute()));

		DynamicKubernetesApi widgets = new DynamicKubernetesApi(GROUP, "v1", "widgets", client);
		JsonObject json = JsonParser
			.parseString("{\"apiVersion\":\"" + GROUP + "/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w1\","
					+ "\"namespace\":\"" + namespace + "\"},\"spec\":{\"size\":3}}")
			.getAsJsonObject();
		DynamicKubernetesObject created = widgets.create(new DynamicKubernetesObject(json))
			.throwsApiException()
			.getObject();
		assertThat(created.getMetadata().getUid()).isNotBlank();

		DynamicKubernetesObject read = widgets.get(namespace.name(), "w1").throwsApiException().getObject();
		assertThat(read.getRaw().getAsJsonObject("spec").get("size").getAsInt()).isEqualTo(3);

		read.getRaw().add("status", JsonParser.parseString("{\"ready\":true}"));
		// GenericKubernetesApi.updateStatus sends its PATCH with a content type that API
		// servers reject (415, kubernetes-client/java#3143): replace the status with a
		// PUT
		new CustomObjectsApi(client)
			.replaceNamespacedCustomObjectStatus(GROUP, "v1", namespace.name(), "widgets", "w1", read.getRaw())
			.execute();
		DynamicKubernetesObject updated = widgets.get(namespace.name(), "w1").throwsApiException().getObject();
		assertThat(updated.getRaw().getAsJsonObject("status").get("ready").getAsBoolean()).isTrue();

		DynamicKubernetesListObject list = widgets.list(namespace.name()).throwsApiException().getObject();
		assertThat(list.getItems()).extracting((item) -> item.getMetadata().getName()).containsExactly("w1");
		assertThat(controlPlane.isApiServerRunning()).isTrue();
	}

	@Test
	void unprivilegedUserIsForbiddenWhileAdminIsAllowed(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		assertThat(new CoreV1Api(admin).listNamespacedPod(namespace.name()).execute().getItems()).isEmpty();
		for (String user : ControlPlane.UNPRIVILEGED_USERS) {
			CoreV1Api api = new CoreV1Api(controlPlane.clientFor(user));
			assertThatExceptionOfType(ApiException.class)
				.isThrownBy(() -> api.listNamespacedPod(namespace.name()).execute())
				.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403))
				.satisfies((ex) -> assertThat(ex.getResponseBody()).contains("forbidden").contains(user));
		}
	}

	private static boolean established(V1CustomResourceDefinition crd) {
		return crd.getStatus() != null && crd.getStatus().getConditions() != null && crd.getStatus()
			.getConditions()
			.stream()
			.anyMatch((condition) -> "Established".equals(condition.getType()) && "True".equals(condition.getStatus()));
	}

}
