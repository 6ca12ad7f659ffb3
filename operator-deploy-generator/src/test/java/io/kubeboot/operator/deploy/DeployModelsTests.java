package io.kubeboot.operator.deploy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.health.OperatorHealthAutoConfiguration;
import io.kubeboot.operator.autoconfigure.metrics.OperatorMetricsAuthAutoConfiguration;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.webhook.AdmissionValidator;
import io.kubeboot.operator.webhook.Defaulter;
import io.kubeboot.operator.webhook.Webhook;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * What {@link DeployModels} reads from an application context, built and not started. The
 * sample's {@code GeneratedDeployTests} reads a whole application, Actuator's endpoints
 * included.
 */
class DeployModelsTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
		.withUserConfiguration(ShopOperator.class)
		.withPropertyValues("spring.application.name=shop-operator", "operator.auto-startup=false",
				"operator.webhook.self-signed=true", "operator.webhook.port=9444",
				"operator.webhook.cert-dir=/tmp/certs");

	@Test
	void webhookBeansBecomeTheirRegistrationsWithTheirAnnotations() {
		this.contextRunner.run((context) -> {
			DeployModel model = DeployModels.of(context);
			assertThat(model.name()).isEqualTo("shop-operator");
			assertThat(model.source()).isEqualTo(ShopOperator.class.getName());
			assertThat(model.webhookPort()).isEqualTo(9444);
			assertThat(model.webhookCertDir()).isEqualTo("/tmp/certs");
			assertThat(model.webhooks()).extracting(WebhookRegistration::name)
				.containsExactly("mconfigmap.core.kubeboot.io", "vconfigmap.core.kubeboot.io",
						"vsecret.core.kubeboot.io");
			WebhookRegistration configMaps = model.webhooks().get(1);
			assertThat(configMaps.path()).isEqualTo("/validate--v1-configmap");
			assertThat(configMaps.resource()).isEqualTo("configmaps");
			// @Webhook on the @Bean method
			assertThat(configMaps.operations()).containsExactly("DELETE");
			assertThat(configMaps.failurePolicy()).isEqualTo("Ignore");
			// the class overrides validateDelete: called on deletions too
			assertThat(model.webhooks().get(2).operations()).containsExactly("CREATE", "UPDATE", "DELETE");
			assertThat(model.webhooks().get(0).operations()).containsExactly("CREATE", "UPDATE");
		});
	}

	@Test
	void propertiesBecomeTheModelsSettings() {
		this.contextRunner
			.withPropertyValues("operator.namespace=team-a", "operator.leader-election.enabled=true",
					"operator.graceful-shutdown-timeout=50s")
			.run((context) -> {
				DeployModel model = DeployModels.of(context);
				assertThat(model.watchNamespaces()).containsExactly("team-a");
				assertThat(model.namespaceProperty()).isTrue();
				assertThat(model.leaderElection()).isTrue();
				assertThat(model.leaseNamespace()).isNull();
				assertThat(model.gracefulShutdownTimeout()).isEqualTo(Duration.ofSeconds(50));
				assertThat(model.permissions()).isNotEmpty();
				// no web server: no HTTP port, probes or metrics
				assertThat(model.applicationPort()).isNull();
				assertThat(model.livenessPath()).isNull();
				assertThat(model.metricsPath()).isNull();
			});
	}

	@Test
	void aNamespaceSetIsWatched() {
		this.contextRunner.withPropertyValues("operator.namespaces=team-a,team-b").run((context) -> {
			DeployModel model = DeployModels.of(context);
			assertThat(model.watchNamespaces()).containsExactly("team-a", "team-b");
			assertThat(model.namespaceProperty()).isFalse();
		});
	}

	@Test
	void theLeaseRulesAreTheManagersOwn() {
		this.contextRunner
			.withPropertyValues("operator.leader-election.enabled=true",
					"operator.leader-election.lease-name=shop-lease", "operator.leader-election.namespace=ops")
			.run((context) -> {
				List<Permission> manager = context.getBean(Manager.class)
					.requiredPermissions()
					.stream()
					.filter((permission) -> permission.role().equals("leader-election"))
					.toList();
				assertThat(RbacTemplates.leasePermissions(DeployModels.of(context))
					.stream()
					.map((permission) -> permission.inNamespace("ops"))
					.toList()).isEqualTo(manager);
			});
	}

	@Test
	void theMetricsReviewsAreTheManagersOwn() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(OperatorMetricsAuthAutoConfiguration.class))
			.withPropertyValues("operator.metrics.auth.enabled=true")
			.run((context) -> {
				assertThat(DeployModels.of(context).metricsAuth()).isTrue();
				List<Permission> manager = context.getBean(Manager.class)
					.requiredPermissions()
					.stream()
					.filter((permission) -> permission.role().equals("metrics-auth"))
					.toList();
				// what the chart renders while metrics.secure is on, whatever the
				// application's default
				assertThat(OperatorMetricsAuthAutoConfiguration.requiredPermissions()).isEqualTo(manager);
			});
		this.contextRunner.run((context) -> assertThat(DeployModels.of(context).metricsAuth()).isFalse());
	}

	@Test
	void aServletApplicationIsProbedWhereTheStarterServesHealthz() {
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(OperatorAutoConfiguration.class, OperatorHealthAutoConfiguration.class))
			.withUserConfiguration(ShopOperator.class)
			.withPropertyValues("spring.application.name=shop-operator", "operator.auto-startup=false",
					"operator.webhook.self-signed=true", "server.port=8090", "management.server.port=8091")
			.run((context) -> {
				DeployModel model = DeployModels.of(context);
				assertThat(model.applicationPort()).isEqualTo(8090);
				assertThat(model.managementPort()).isEqualTo(8091);
				assertThat(model.livenessPath()).isEqualTo("/healthz");
				assertThat(model.readinessPath()).isEqualTo("/readyz");
				assertThat(model.probesOnManagementPort()).isFalse();
			});
	}

	@Test
	void theCustomKindsTheOperatorUsesAreNamedForTheirCrds() {
		this.contextRunner.withBean("shopValidator", AdmissionValidator.class, ShopValidator::new)
			.run((context) -> assertThat(DeployModels.of(context).customKinds())
				.containsExactly("shops.shop.example.com"));
	}

	@Test
	void validatorsOfTwoVersionsOfOneKindAreRefused() {
		this.contextRunner.withUserConfiguration(TwoVersions.class)
			.run((context) -> assertThatIllegalStateException().isThrownBy(() -> DeployModels.of(context))
				.withMessageStartingWith("Webhook vshop.shop.example.com is served for the versions [v1, v2] of one "
						+ "kind: keep one validator per kind"));
	}

	@Test
	void theBuildingMachinesEnvironmentHasNoSayInTheModel() {
		Map<String, String> leaked = Map.of("operator.namespace", "from-the-machine", "server.port", "9999",
				"spring.profiles.active", "leaked");
		leaked.forEach(System::setProperty);
		try {
			DeployModel model = DeployModels.of(GeneratedOperator.class);
			assertThat(model.name()).isEqualTo("generated-operator");
			assertThat(model.watchNamespaces()).isEmpty();
			assertThat(model.applicationPort()).isEqualTo(8090);
			// built as a servlet application, on a mock servlet context
			assertThat(model.livenessPath()).isEqualTo("/healthz");
		}
		finally {
			leaked.keySet().forEach(System::clearProperty);
		}
	}

	@Test
	void aWebhookTimeoutNotAboveTheHandlersIsRefused() {
		this.contextRunner.withPropertyValues("operator.webhook.handler-timeout=20s")
			.run((context) -> assertThatIllegalStateException().isThrownBy(() -> DeployModels.of(context))
				.withMessageContaining("waits 15s (@Webhook timeoutSeconds), not above "
						+ "operator.webhook.handler-timeout (20s): the API server would give up"));
	}

	@Test
	void theCertificateIsMountedUnderTheNamesTheServerReads() {
		this.contextRunner
			.withPropertyValues("operator.webhook.cert-name=server.pem", "operator.webhook.key-name=key.pem")
			.run((context) -> assertThat(DeployModels.of(context).webhookCertFiles()).containsExactly("server.pem",
					"key.pem"));
	}

	@Test
	void withoutAnApplicationNameTheModelIsRefused() {
		this.contextRunner.withPropertyValues("spring.application.name=")
			.run((context) -> assertThatIllegalStateException().isThrownBy(() -> DeployModels.of(context))
				.withMessage("spring.application.name is not set: the manifests are named after it"));
	}

	/**
	 * An application as a project has it, built by {@link DeployModels#of(Class)} with
	 * the test resources' {@code application.yaml}.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class GeneratedOperator {

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	static class ShopOperator {

		@Bean
		ApiClient apiClient() {
			return new ApiClient().setBasePath("https://127.0.0.1:1");
		}

		@Bean
		@Webhook(operations = Webhook.Operation.DELETE, failurePolicy = Webhook.FailurePolicy.IGNORE)
		AdmissionValidator<V1ConfigMap> configMapValidator() {
			return new AdmissionValidator<>() {
			};
		}

		@Bean
		Defaulter<V1ConfigMap> configMapDefaulter() {
			return (configMap) -> {
			};
		}

		@Bean
		SecretValidator secretValidator() {
			return new SecretValidator();
		}

	}

	@KubernetesKind(group = "shop.example.com", version = "v1", kind = "Shop")
	static class ShopV1 extends CustomResource<Map<String, Object>, Map<String, Object>> {

	}

	@KubernetesKind(group = "shop.example.com", version = "v2", kind = "Shop")
	static class ShopV2 extends CustomResource<Map<String, Object>, Map<String, Object>> {

	}

	static class ShopValidator implements AdmissionValidator<ShopV1> {

	}

	static class TwoVersions {

		@Bean
		AdmissionValidator<ShopV1> shopV1Validator() {
			return new AdmissionValidator<>() {
			};
		}

		@Bean
		AdmissionValidator<ShopV2> shopV2Validator() {
			return new AdmissionValidator<>() {
			};
		}

	}

	static class SecretValidator implements AdmissionValidator<V1Secret> {

		@Override
		public List<String> validateDelete(V1Secret secret) {
			return List.of();
		}

	}

}
