package io.kubeboot.operator.it;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import com.google.gson.JsonParser;
import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.operator.webhook.Conversion;
import io.kubeboot.operator.webhook.ConversionException;
import io.kubeboot.operator.webhook.ConversionWebhook;
import io.kubeboot.operator.webhook.Convertible;
import io.kubeboot.operator.webhook.ServingCertificate;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A custom resource with two versions converted by the webhook server's conversion
 * webhook, called by the real kube-apiserver over TLS: v1, the storage version and the
 * hub, has {@code spec.size: "10Gi"}; v1alpha1, a spoke, has {@code spec.sizeInGi: 10}.
 * An object created in one version is read in the other, and a refused conversion reaches
 * the client with its message. The CRD is cluster-wide: it has a group of its own and is
 * deleted after the tests.
 */
@WithControlPlane
class ConversionWebhookIntegrationTests {

	private static final String GROUP = "conversion.test.kubeboot.io";

	private static final String CRD = "gadgets." + GROUP;

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static ServingCertificate certificate;

	private static Manager manager;

	private static ApiClient admin;

	@BeforeAll
	static void serveConversionsAndInstallTheCrd(ApiClient client) throws Exception {
		admin = client;
		certificate = ServingCertificate.selfSigned(List.of("127.0.0.1", "localhost"));
		WebhookServer server = WebhookServer.builder(certificate).bindAddress("127.0.0.1").port(0).build();
		String path = ConversionWebhook.register(server, Conversion.hub(Gadget.class).spokes(GadgetV1alpha1.class));
		manager = Manager.builder(admin).gracefulShutdownTimeout(Duration.ofMillis(500)).webhookServer(server).build();
		manager.start();
		installCrd("https://127.0.0.1:" + server.port() + path, certificate.caBundlePem().orElseThrow());
	}

	@AfterAll
	static void deleteTheCrd() throws Exception {
		try {
			if (admin != null) {
				ApiextensionsV1Api api = new ApiextensionsV1Api(admin);
				api.deleteCustomResourceDefinition(CRD).execute();
				// its objects are deleted with it, in the storage version: no conversion
				await().atMost(WAIT).until(() -> {
					try {
						api.readCustomResourceDefinition(CRD).execute();
						return false;
					}
					catch (ApiException ex) {
						return ex.getCode() == 404;
					}
				});
			}
		}
		finally {
			if (manager != null) {
				manager.stop();
			}
			if (certificate != null) {
				certificate.close();
			}
		}
	}

	@Test
	void objectCreatedAsTheSpokeIsStoredAsTheHubAndReadBackAsTheSpoke(TestNamespace namespace) {
		Client client = manager.client();
		GadgetV1alpha1 created = client
			.create(new GadgetV1alpha1().metadata(new V1ObjectMeta().namespace(namespace.name()).name("alpha"))
				.spec(new SpecV1alpha1(10, "red")));
		// stored as v1 and answered as v1alpha1: converted both ways
		assertThat(created.getApiVersion()).isEqualTo(GROUP + "/v1alpha1");
		assertThat(created.getSpec()).isEqualTo(new SpecV1alpha1(10, "red"));

		Gadget hub = client.uncached().get(Gadget.class, Request.of(created)).orElseThrow();
		assertThat(hub.getApiVersion()).isEqualTo(GROUP + "/v1");
		assertThat(hub.getSpec()).isEqualTo(new Spec("10Gi", "red"));
		assertThat(hub.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());

		GadgetV1alpha1 again = client.uncached().get(GadgetV1alpha1.class, Request.of(created)).orElseThrow();
		assertThat(again.getSpec()).isEqualTo(new SpecV1alpha1(10, "red"));
		assertThat(again.getMetadata().getResourceVersion()).isEqualTo(hub.getMetadata().getResourceVersion());
	}

	@Test
	void objectsCreatedAsTheHubAreReadAsTheSpoke(TestNamespace namespace) {
		Client client = manager.client();
		for (String name : List.of("one", "two")) {
			client.create(new Gadget().metadata(new V1ObjectMeta().namespace(namespace.name()).name(name))
				.spec(new Spec(name.length() + "Gi", name)));
		}
		GadgetV1alpha1 one = client.uncached()
			.get(GadgetV1alpha1.class, Request.of(namespace.name(), "one"))
			.orElseThrow();
		assertThat(one.getApiVersion()).isEqualTo(GROUP + "/v1alpha1");
		assertThat(one.getSpec()).isEqualTo(new SpecV1alpha1(3, "one"));
		// a list converts its objects in one review
		assertThat(client.uncached().list(GadgetV1alpha1.class, namespace.name())).extracting(CustomResource::getSpec)
			.containsExactlyInAnyOrder(new SpecV1alpha1(3, "one"), new SpecV1alpha1(3, "two"));
	}

	@Test
	void refusedConversionReachesTheClientWithItsMessage(TestNamespace namespace) {
		Client client = manager.client();
		client.create(new Gadget().metadata(new V1ObjectMeta().namespace(namespace.name()).name("fraction"))
			.spec(new Spec("1536Mi", "blue")));
		assertThatExceptionOfType(ApiServerException.class)
			.isThrownBy(() -> client.uncached().get(GadgetV1alpha1.class, Request.of(namespace.name(), "fraction")))
			.withMessageContaining("spec.size 1536Mi is not a whole number of Gi");
		assertThat(client.uncached().get(Gadget.class, Request.of(namespace.name(), "fraction"))).isPresent();
	}

	private static void installCrd(String url, String caBundlePem) throws ApiException {
		// JSON text: the typed CRD model serializes empty collections that
		// kube-apiserver 1.20 rejects in a schema
		String caBundle = Base64.getEncoder().encodeToString(caBundlePem.getBytes(StandardCharsets.US_ASCII));
		String crd = """
				{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
				 "metadata": {"name": "%s"},
				 "spec": {"group": "%s", "scope": "Namespaced",
				  "names": {"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"},
				  "conversion": {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"],
				   "clientConfig": {"url": "%s", "caBundle": "%s"}}},
				  "versions": [
				   {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object",
				    "properties": {"spec": {"type": "object",
				     "properties": {"size": {"type": "string"}, "color": {"type": "string"}}}}}}},
				   {"name": "v1alpha1", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object",
				    "properties": {"spec": {"type": "object",
				     "properties": {"sizeInGi": {"type": "integer"}, "color": {"type": "string"}}}}}}}]}}
				"""
			.formatted(CRD, GROUP, url, caBundle);
		KubernetesApiResponse<DynamicKubernetesObject> created = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
				"customresourcedefinitions", admin)
			.create(new DynamicKubernetesObject(JsonParser.parseString(crd).getAsJsonObject()));
		if (!created.isSuccess()) {
			throw new ApiException(created.getHttpStatusCode(), String.valueOf(created.getStatus()));
		}
		ApiextensionsV1Api api = new ApiextensionsV1Api(admin);
		await().atMost(WAIT).until(() -> {
			V1CustomResourceDefinition current = api.readCustomResourceDefinition(CRD).execute();
			return current.getStatus() != null && current.getStatus().getConditions() != null
					&& current.getStatus()
						.getConditions()
						.stream()
						.anyMatch((condition) -> "Established".equals(condition.getType())
								&& "True".equals(condition.getStatus()));
		});
	}

	record Spec(String size, String color) {
	}

	record SpecV1alpha1(int sizeInGi, String color) {
	}

	/** The hub: v1, the storage version. */
	@KubernetesKind(group = GROUP, version = "v1", kind = "Gadget")
	static class Gadget extends CustomResource<Spec, Void> {

	}

	/** A spoke: v1alpha1, sizes as whole Gi. */
	@KubernetesKind(group = GROUP, version = "v1alpha1", kind = "Gadget")
	static class GadgetV1alpha1 extends CustomResource<SpecV1alpha1, Void> implements Convertible<Gadget> {

		@Override
		public void convertTo(Gadget hub) {
			hub.setSpec(new Spec(getSpec().sizeInGi() + "Gi", getSpec().color()));
		}

		@Override
		public void convertFrom(Gadget hub) throws ConversionException {
			String size = hub.getSpec().size();
			if (size == null || !size.matches("[0-9]+Gi")) {
				throw new ConversionException("spec.size " + size + " is not a whole number of Gi");
			}
			setSpec(new SpecV1alpha1(Integer.parseInt(size.substring(0, size.length() - 2)), hub.getSpec().color()));
		}

	}

}
