package io.kubeboot.operator.autoconfigure.test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.ControlPlaneExtension;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.operator.webhook.Conversion;
import io.kubeboot.operator.webhook.ConversionException;
import io.kubeboot.operator.webhook.Convertible;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.models.ApiextensionsV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The CRD of a {@link Conversion} bean, applied to the local control plane as the
 * manifests have it (its conversion webhook behind a Service), is pointed at the webhook
 * server of the test's application: an object created as the hub reads as the spoke and
 * the other way round, through the API server. The application context started last owns
 * the CRD; when it closes, the newest one still running gets it back. The development
 * loop ({@link LocalControlPlaneConfiguration}) points the CRD of its own control plane
 * at its server.
 */
@SpringBootTest(classes = LocalControlPlaneConversionsIntegrationTests.ThermostatApplication.class,
		properties = { "spring.main.web-application-type=none",
				"operator.local-control-plane.crd-locations="
						+ LocalControlPlaneConversionsIntegrationTests.CRD_LOCATION })
@WithControlPlane
class LocalControlPlaneConversionsIntegrationTests {

	static final String CRD_LOCATION = "classpath:localconversions/thermostats-crd.yaml";

	private static final String GROUP = "localconversion.test.kubeboot.io";

	private static final String CRD = "thermostats." + GROUP;

	private static final Duration WAIT = Duration.ofSeconds(30);

	@Autowired
	Client client;

	@Autowired
	WebhookServer server;

	@Test
	void theCrdCallsTheWebhookServerOfTheTestWithItsCaBundle(ApiClient admin) throws Exception {
		ApiextensionsV1WebhookClientConfig clientConfig = clientConfig(admin);
		assertThat(clientConfig.getService()).isNull();
		assertThat(clientConfig.getUrl()).isEqualTo(url(this.server));
		assertThat(new String(clientConfig.getCaBundle(), StandardCharsets.US_ASCII))
			.isEqualTo(this.server.certificate().caBundlePem().orElseThrow());
	}

	@Test
	void objectCreatedAsTheHubReadsAsTheSpoke(TestNamespace namespace) {
		createdAsTheHubReadsAsTheSpoke(this.client, namespace, "hub");
	}

	@Test
	void objectCreatedAsTheSpokeReadsAsTheHub(TestNamespace namespace) {
		createdAsTheSpokeReadsAsTheHub(this.client, namespace, "spoke");
	}

	@Test
	void theContextStartedLastOwnsTheCrdAndHandsItBackWhenItCloses(ApiClient admin, TestNamespace namespace)
			throws Exception {
		try (ConfigurableApplicationContext second = start()) {
			assertThat(clientConfig(admin).getUrl()).isEqualTo(url(second.getBean(WebhookServer.class)));
			createdAsTheSpokeReadsAsTheHub(second.getBean(Client.class), namespace, "second");
			try (ConfigurableApplicationContext third = start()) {
				assertThat(clientConfig(admin).getUrl()).isEqualTo(url(third.getBean(WebhookServer.class)));
				createdAsTheHubReadsAsTheSpoke(third.getBean(Client.class), namespace, "third");
			}
			// the third's server is gone: the second, still running, converts
			assertThat(clientConfig(admin).getUrl()).isEqualTo(url(second.getBean(WebhookServer.class)));
			createdAsTheHubReadsAsTheSpoke(second.getBean(Client.class), namespace, "second-again");
		}
		try (ConfigurableApplicationContext fourth = start()) {
			assertThat(clientConfig(admin).getUrl()).isEqualTo(url(fourth.getBean(WebhookServer.class)));
			createdAsTheSpokeReadsAsTheHub(fourth.getBean(Client.class), namespace, "fourth");
		}
		// back to this test's application, the only one left
		assertThat(clientConfig(admin).getUrl()).isEqualTo(url(this.server));
		createdAsTheSpokeReadsAsTheHub(this.client, namespace, "first-again");
	}

	@Test
	void theDevelopmentLoopPointsTheCrdOfItsOwnControlPlaneAtItsServer() throws Exception {
		// as spring-boot:test-run runs a test application: a control plane of its own
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ThermostatApplication.class,
				LocalControlPlaneConfiguration.class)
			.properties("spring.main.web-application-type=none",
					"operator.local-control-plane.crd-locations=" + CRD_LOCATION)
			.run()) {
			WebhookServer server = context.getBean(WebhookServer.class);
			assertThat(server.port()).isNotEqualTo(WebhookServer.DEFAULT_PORT);
			ApiClient admin = context.getBean(ControlPlane.class).adminClient();
			assertThat(clientConfig(admin).getUrl()).isEqualTo(url(server));
			Client client = context.getBean(Client.class);
			Thermostat hub = new Thermostat();
			hub.metadata(new V1ObjectMeta().namespace("default").name("kitchen")).spec(new Spec(23));
			client.create(hub);
			assertThat(client.uncached().list(ThermostatV1alpha1.class, "default"))
				.extracting(ThermostatV1alpha1::getSpec)
				.containsExactly(new SpecV1alpha1("23C"));
		}
	}

	/**
	 * Starts another application context as a test class with another configuration would
	 * get it.
	 */
	private ConfigurableApplicationContext start() {
		ControlPlaneContextCustomizer customizer = new ControlPlaneContextCustomizer(
				ControlPlaneExtension.kubernetesVersion(getClass()));
		return new SpringApplicationBuilder(ThermostatApplication.class)
			.properties("spring.main.web-application-type=none",
					"operator.local-control-plane.crd-locations=" + CRD_LOCATION)
			.initializers((context) -> customizer.customizeContext(context, null))
			.run();
	}

	private static void createdAsTheHubReadsAsTheSpoke(Client client, TestNamespace namespace, String name) {
		Thermostat hub = new Thermostat();
		hub.metadata(new V1ObjectMeta().namespace(namespace.name()).name(name)).spec(new Spec(21));
		client.create(hub);
		// the API server serves a CRD's new conversion webhook within moments
		ThermostatV1alpha1 spoke = await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> client.uncached().get(ThermostatV1alpha1.class, Request.of(namespace.name(), name)),
					(read) -> read.isPresent())
			.orElseThrow();
		assertThat(spoke.getApiVersion()).isEqualTo(GROUP + "/v1alpha1");
		assertThat(spoke.getSpec()).isEqualTo(new SpecV1alpha1("21C"));
	}

	private static void createdAsTheSpokeReadsAsTheHub(Client client, TestNamespace namespace, String name) {
		ThermostatV1alpha1 spoke = new ThermostatV1alpha1();
		spoke.metadata(new V1ObjectMeta().namespace(namespace.name()).name(name)).spec(new SpecV1alpha1("19C"));
		// stored as the hub: converted on the way in and on the way back
		ThermostatV1alpha1 created = await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> client.create(spoke), (answer) -> answer != null);
		assertThat(created.getSpec()).isEqualTo(new SpecV1alpha1("19C"));
		Thermostat hub = client.uncached().get(Thermostat.class, Request.of(created)).orElseThrow();
		assertThat(hub.getApiVersion()).isEqualTo(GROUP + "/v1");
		assertThat(hub.getSpec()).isEqualTo(new Spec(19));
	}

	private static ApiextensionsV1WebhookClientConfig clientConfig(ApiClient admin) throws Exception {
		return new ApiextensionsV1Api(admin).readCustomResourceDefinition(CRD)
			.execute()
			.getSpec()
			.getConversion()
			.getWebhook()
			.getClientConfig();
	}

	private static String url(WebhookServer server) {
		return "https://127.0.0.1:" + server.port() + "/convert";
	}

	record Spec(int celsius) {
	}

	record SpecV1alpha1(String setting) {
	}

	/** The hub: v1, the storage version. */
	@KubernetesKind(group = GROUP, version = "v1", kind = "Thermostat")
	static class Thermostat extends CustomResource<Spec, Void> {

	}

	/** A spoke: v1alpha1, with the unit in the value. */
	@KubernetesKind(group = GROUP, version = "v1alpha1", kind = "Thermostat", storage = false)
	static class ThermostatV1alpha1 extends CustomResource<SpecV1alpha1, Void> implements Convertible<Thermostat> {

		@Override
		public void convertTo(Thermostat hub) throws ConversionException {
			String setting = getSpec().setting();
			if (setting == null || !setting.matches("-?[0-9]+C")) {
				throw new ConversionException("spec.setting " + setting + " is not whole degrees Celsius");
			}
			hub.setSpec(new Spec(Integer.parseInt(setting.substring(0, setting.length() - 1))));
		}

		@Override
		public void convertFrom(Thermostat hub) {
			setSpec(new SpecV1alpha1(hub.getSpec().celsius() + "C"));
		}

	}

	/**
	 * An application that converts thermostats, and has no certificate property.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ThermostatApplication {

		@Bean
		Conversion<Thermostat> thermostatConversion() {
			return Conversion.hub(Thermostat.class).spokes(ThermostatV1alpha1.class);
		}

	}

}
