package io.kubeboot.operator.autoconfigure.test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.autoconfigure.OperatorWebhookProperties;
import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.test.TestCertificateAuthority;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.TestWebhooks;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.operator.webhook.AdmissionDeniedException;
import io.kubeboot.operator.webhook.AdmissionValidator;
import io.kubeboot.operator.webhook.AdmissionWebhook;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The webhooks of a {@code @SpringBootTest} annotated with {@code @WithControlPlane} are
 * served self-signed on a free port of 127.0.0.1 without a certificate property: an
 * application with a validator starts, and the API server calls the validator. A port set
 * by the test wins over the default; a {@code cert-dir} set by the test turns the
 * defaults off, so the certificate files are served on the production port.
 */
class WebhookTestDefaultsIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@Nested
	@SpringBootTest(classes = ValidatorApplication.class, properties = "spring.main.web-application-type=none")
	@WithControlPlane
	@DirtiesContext
	class WithoutCertificateProperties {

		@Autowired
		WebhookServer server;

		@Autowired
		OperatorWebhookProperties properties;

		@Autowired
		Client client;

		@Test
		void servesSelfSignedOnAFreeLoopbackPortAndTheApiServerCallsTheValidator(ApiClient admin,
				TestNamespace namespace) throws Exception {
			assertThat(this.server.isServing()).isTrue();
			assertThat(this.server.port()).isPositive().isNotEqualTo(WebhookServer.DEFAULT_PORT);
			assertThat(this.properties.getBindAddress()).isEqualTo("127.0.0.1");
			assertThat(this.properties.isSelfSigned()).isTrue();
			try (TestWebhooks webhooks = TestWebhooks
				.builder(admin, "https://127.0.0.1:" + this.server.port(),
						this.server.certificate().caBundlePem().orElseThrow())
				.validating(AdmissionWebhook.validatingPath(V1ConfigMap.class), "", "v1", "configmaps", "CREATE")
				.onlyIn(namespace)
				.install()) {
				// the API server applies a new webhook configuration within about a
				// second
				await().atMost(WAIT).until(() -> isRefused(namespace, "refused-" + System.nanoTime()));
				V1ConfigMap allowed = this.client.create(configMap(namespace, "allowed", "fine"));
				assertThat(allowed.getMetadata().getUid()).isNotEmpty();
			}
		}

		private boolean isRefused(TestNamespace namespace, String name) {
			try {
				this.client.delete(this.client.create(configMap(namespace, name, "refused")));
				return false;
			}
			catch (ApiServerException ex) {
				assertThat(ex).hasMessageContaining("denied the request: data.verdict 'refused' is not allowed");
				return true;
			}
		}

	}

	@Nested
	@SpringBootTest(classes = ValidatorApplication.class,
			properties = { "spring.main.web-application-type=none", "operator.auto-startup=false",
					"operator.webhook.port=19443" })
	@WithControlPlane
	@DirtiesContext
	class WithAPort {

		@Autowired
		WebhookServer server;

		@Autowired
		OperatorWebhookProperties properties;

		@Test
		void theTestsPortWinsAndTheOtherDefaultsApply() {
			assertThat(this.server.port()).isEqualTo(19443);
			assertThat(this.properties.isSelfSigned()).isTrue();
			assertThat(this.properties.getBindAddress()).isEqualTo("127.0.0.1");
		}

	}

	@Nested
	@SpringBootTest(classes = ValidatorApplication.class,
			properties = { "spring.main.web-application-type=none", "operator.auto-startup=false" })
	@WithControlPlane
	@DirtiesContext
	class WithACertDir {

		@TempDir
		static Path certDir;

		static TestCertificateAuthority ca = TestCertificateAuthority.create();

		@DynamicPropertySource
		static void certDir(DynamicPropertyRegistry registry) {
			ca.issue(certDir);
			registry.add("operator.webhook.cert-dir", certDir::toString);
		}

		@Autowired
		WebhookServer server;

		@Autowired
		OperatorWebhookProperties properties;

		@Autowired
		ConfigurableEnvironment environment;

		@Test
		void theFilesAreServedOnTheProductionPort() throws Exception {
			assertThat(this.properties.isSelfSigned()).isFalse();
			assertThat(this.server.port()).isEqualTo(WebhookServer.DEFAULT_PORT);
			assertThat(this.server.certificate().certificate().getIssuerX500Principal())
				.isEqualTo(ca.certificate().getSubjectX500Principal());
			assertThat(this.environment.getPropertySources().contains(LocalControlPlaneWebhookDefaults.NAME)).isFalse();
		}

	}

	private static V1ConfigMap configMap(TestNamespace namespace, String name, String verdict) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace.name()).name(name))
			.data(Map.of("verdict", verdict));
	}

	/**
	 * An application with a validator of ConfigMaps and no certificate property.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ValidatorApplication {

		@Bean
		AdmissionValidator<V1ConfigMap> verdictValidator() {
			return new AdmissionValidator<>() {

				@Override
				public List<String> validateCreate(V1ConfigMap configMap) throws AdmissionDeniedException {
					String verdict = (configMap.getData() != null) ? configMap.getData().get("verdict") : null;
					if ("refused".equals(verdict)) {
						throw new AdmissionDeniedException("data.verdict 'refused' is not allowed");
					}
					return List.of();
				}

			};
		}

	}

}
