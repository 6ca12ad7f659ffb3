package io.kubeboot.operator.autoconfigure;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.webhook.AdmissionValidator;
import io.kubeboot.operator.webhook.Conversion;
import io.kubeboot.operator.webhook.Convertible;
import io.kubeboot.operator.webhook.Defaulter;
import io.kubeboot.operator.webhook.ServingCertificate;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class WebhookAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false", "operator.webhook.self-signed=true",
				"operator.webhook.port=0", "operator.webhook.bind-address=127.0.0.1");

	@Test
	void withoutValidatorsOrDefaultersThereIsNoWebhookServer() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(WebhookServer.class);
			assertThat(context.getBean(Manager.class).webhookServer()).isEmpty();
		});
	}

	@Test
	void validatorAndDefaulterBeansBecomeWebhooksOfTheManagersServer() {
		this.contextRunner.withUserConfiguration(ConfigMapWebhooks.class).run((context) -> {
			WebhookServer server = context.getBean(WebhookServer.class);
			assertThat(context.getBean(Manager.class).webhookServer()).containsSame(server);
			assertThat(server.paths()).containsExactly("/mutate--v1-configmap", "/validate--v1-configmap",
					"/validate--v1-secret");
			assertThat(context.getBean(ServingCertificate.class).caBundlePem()).isPresent();
		});
	}

	@Test
	void conversionBeanAloneYieldsTheManagersServerWithTheConversionPath() {
		this.contextRunner.withUserConfiguration(GadgetConversion.class).run((context) -> {
			WebhookServer server = context.getBean(WebhookServer.class);
			assertThat(context.getBean(Manager.class).webhookServer()).containsSame(server);
			assertThat(server.paths()).containsExactly("/convert");
		});
	}

	@Test
	void conversionsAndAdmissionWebhooksShareTheServer() {
		this.contextRunner.withUserConfiguration(ConfigMapWebhooks.class, GadgetConversion.class)
			.run((context) -> assertThat(context.getBean(WebhookServer.class).paths()).containsExactly("/convert",
					"/mutate--v1-configmap", "/validate--v1-configmap", "/validate--v1-secret"));
	}

	@Test
	void twoConversionsForOneKindFailStartUpNamingTheBean() {
		this.contextRunner.withUserConfiguration(GadgetConversion.class, SecondGadgetConversion.class)
			.run((context) -> assertThat(context).getFailure()
				.hasMessage("Conversion bean 'anotherGadgetConversion': A conversion for Gadget.test.kubeboot.io is "
						+ "already registered at /convert (Conversion[Gadget.test.kubeboot.io, hub v1=Gadget, "
						+ "spokes v1alpha1=GadgetV1alpha1]): a kind has one hub; name all its spokes in one "
						+ "Conversion"));
	}

	@Test
	void twoValidatorsForOneKindFailStartUpNamingBoth() {
		this.contextRunner.withUserConfiguration(ConfigMapWebhooks.class, SecondConfigMapValidator.class)
			.run((context) -> assertThat(context).getFailure()
				.hasMessage(
						"AdmissionValidator beans 'configMapValidator' and 'anotherConfigMapValidator' both validate "
								+ "V1ConfigMap: a kind has one validator; combine them into one"));
	}

	@Test
	void missingCertificateFilesFailStartUpNamingTheProperty(@TempDir Path empty) {
		this.contextRunner.withUserConfiguration(ConfigMapWebhooks.class)
			.withPropertyValues("operator.webhook.self-signed=false", "operator.webhook.cert-dir=" + empty)
			.run((context) -> {
				assertThat(context).getFailure()
					.hasRootCauseInstanceOf(IllegalArgumentException.class)
					.hasStackTraceContaining("WebhookCertificateException: operator.webhook.cert-dir (" + empty
							+ "): Webhook certificate file " + empty.resolve("tls.crt") + " does not exist")
					// one sentence after the other, not run together
					.hasStackTraceContaining(
							"private key. Set operator.webhook.self-signed=true to run locally without a certificate.");
				// Boot's failure analysis, not a stack trace
				FailureAnalysis analysis = new WebhookCertificateFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).startsWith("operator.webhook.cert-dir (" + empty + "): ");
				assertThat(analysis.getAction()).contains("set operator.webhook.self-signed=true");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class ConfigMapWebhooks {

		@Bean
		AdmissionValidator<V1ConfigMap> configMapValidator() {
			return new AdmissionValidator<>() {
			};
		}

		@Bean
		Defaulter<V1ConfigMap> configMapDefaulter() {
			return (configMap) -> configMap.putDataItem("default", "yes");
		}

		@Bean
		SecretValidator secretValidator() {
			return new SecretValidator();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SecondConfigMapValidator {

		@Bean
		AdmissionValidator<V1ConfigMap> anotherConfigMapValidator() {
			return new AdmissionValidator<>() {
				@Override
				public List<String> validateCreate(V1ConfigMap object) {
					return List.of();
				}
			};
		}

	}

	static class SecretValidator implements AdmissionValidator<V1Secret> {

	}

	@Configuration(proxyBeanMethods = false)
	static class GadgetConversion {

		@Bean
		Conversion<Gadget> gadgetConversion() {
			return Conversion.hub(Gadget.class).spokes(GadgetV1alpha1.class);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SecondGadgetConversion {

		@Bean
		Conversion<Gadget> anotherGadgetConversion() {
			return Conversion.hub(Gadget.class).spokes(GadgetV1alpha1.class);
		}

	}

	@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Gadget")
	static class Gadget extends CustomResource<Map<String, Object>, Map<String, Object>> {

	}

	@KubernetesKind(group = "test.kubeboot.io", version = "v1alpha1", kind = "Gadget")
	static class GadgetV1alpha1 extends CustomResource<Map<String, Object>, Map<String, Object>>
			implements Convertible<Gadget> {

		@Override
		public void convertTo(Gadget hub) {
			hub.setSpec(getSpec());
		}

		@Override
		public void convertFrom(Gadget hub) {
			setSpec(hub.getSpec());
		}

	}

}
