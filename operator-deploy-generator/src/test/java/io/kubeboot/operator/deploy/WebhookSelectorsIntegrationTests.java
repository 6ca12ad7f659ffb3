package io.kubeboot.operator.deploy;

import java.time.Duration;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.operator.webhook.AdmissionValidator;
import io.kubeboot.operator.webhook.Webhook;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The generated configuration of a webhook on a kind that is not the operator's own, as
 * the real API server applies it: while no replica answers (here no Service backs the
 * webhook at all), a write in {@code kube-system} is not sent to it, and a write in
 * another namespace is refused. Server-side dry runs: nothing is stored. Only ConfigMaps
 * labelled for this test are sent ({@code objectSelector}), so no other test of the
 * shared control plane meets the webhook.
 */
@WithControlPlane
class WebhookSelectorsIntegrationTests {

	private static final String LABEL = "test.kubeboot.io/webhook-selectors";

	@Test
	void aWebhookThatDoesNotAnswerStopsNoWriteInKubeSystem(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient admin = controlPlane.adminClient();
		DeployModel model = DeployModel.builder("light-operator")
			.webhookServer(9443, "/tmp/k8s-webhook-server/serving-certs")
			.webhook(WebhookRegistration.validating(V1ConfigMap.class, ConfigMapValidator.class,
					ConfigMapValidator.class.getAnnotation(Webhook.class)))
			.build();
		String yaml = DeployManifests.of(model, DeploySettings.of("lights", Map.of("image", Map.of("tag", "1.0.0"))))
			.manifests()
			.get("webhook.yaml");
		JsonObject configuration = new Gson()
			.toJsonTree(new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml).iterator().next())
			.getAsJsonObject();
		DynamicKubernetesApi configurations = new DynamicKubernetesApi("admissionregistration.k8s.io", "v1",
				"validatingwebhookconfigurations", admin);
		assertThat(configurations.create(new DynamicKubernetesObject(configuration)).isSuccess()).isTrue();
		try {
			// the API server takes the configuration up within a moment
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThatExceptionOfType(ApiException.class)
					.isThrownBy(() -> createDryRun(admin, namespace.name()))
					.satisfies((ex) -> assertThat(ex.getResponseBody()).contains("failed calling webhook",
							"vconfigmap.core.kubeboot.io")));
			assertThat(createDryRun(admin, "kube-system").getMetadata().getNamespace()).isEqualTo("kube-system");
		}
		finally {
			configurations.delete("light-operator");
		}
	}

	private static V1ConfigMap createDryRun(ApiClient client, String namespace) throws ApiException {
		V1ConfigMap configMap = new V1ConfigMap()
			.metadata(new V1ObjectMeta().name("checked").namespace(namespace).putLabelsItem(LABEL, "true"));
		return new CoreV1Api(client).createNamespacedConfigMap(namespace, configMap).dryRun("All").execute();
	}

	@Webhook(objectSelector = LABEL)
	static class ConfigMapValidator implements AdmissionValidator<V1ConfigMap> {

	}

}
