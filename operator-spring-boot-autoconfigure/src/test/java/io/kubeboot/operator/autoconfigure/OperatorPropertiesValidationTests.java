package io.kubeboot.operator.autoconfigure;

import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import io.kubeboot.operator.webhook.AdmissionValidator;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Every invalid {@code operator.*} value fails start-up naming the property as written in
 * {@code application.yaml}, with its value as written and where it was set.
 */
@ExtendWith(OutputCaptureExtension.class)
class OperatorPropertiesValidationTests {

	/**
	 * Kubernetes' rule for a namespace, as the core words it.
	 */
	private static final String DNS_LABEL_RULE = "must be a lowercase RFC 1123 label: at most 63 characters of a-z, "
			+ "0-9 and '-', starting and ending with a letter or digit";

	/**
	 * Kubernetes' rule for the name of a Lease, as the core words it.
	 */
	private static final String DNS_SUBDOMAIN_RULE = "must be a lowercase RFC 1123 subdomain: at most 253 "
			+ "characters of a-z, 0-9, '-' and '.', starting and ending with a letter or digit";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false");

	static Stream<Arguments> invalidValues() {
		return Stream.of(invalid("operator.sync-period", "-1s", "must not be negative"),
				invalid("operator.cache-sync-timeout", "0s", "must be positive"),
				invalid("operator.cache-sync-timeout", "-5s", "must be positive"),
				invalid("operator.watch-timeout", "1s", "must be at least 2s"),
				arguments(new String[] { "operator.watch-timeout=5m", "operator.watch-silence-threshold=5m" },
						set("operator.watch-silence-threshold", "5m",
								"must be longer than operator.watch-timeout (5m)")),
				invalid("operator.list-page-size", "0", "must be at least 1"),
				invalid("operator.namespace", "Not_A_Namespace", DNS_LABEL_RULE),
				arguments(new String[] { "operator.namespaces[0]=shop", "operator.namespaces[1]=Not_A_Namespace" },
						set("operator.namespaces[1]", "Not_A_Namespace", DNS_LABEL_RULE)),
				arguments(new String[] { "operator.namespace=shop", "operator.namespaces=ops,shop" },
						set("operator.namespaces", "ops,shop",
								"cannot be set together with operator.namespace (shop): list every namespace to "
										+ "watch in operator.namespaces, and remove operator.namespace")),
				invalid("operator.client.qps", "-1", "must be 0 (no limit) or a positive number"),
				invalid("operator.client.burst", "0", "must be at least 1"),
				invalid("operator.client.timeout", "0s", "must be positive"),
				invalid("operator.controller.max-concurrent-reconciles", "0", "must be at least 1"),
				invalid("operator.controller.rate-limiter.base-delay", "0s", "must be positive"),
				invalid("operator.controller.rate-limiter.max-delay", "0s", "must be positive"),
				arguments(
						new String[] { "operator.controller.rate-limiter.base-delay=1s",
								"operator.controller.rate-limiter.max-delay=10ms" },
						set("operator.controller.rate-limiter.max-delay", "10ms",
								"must not be less than operator.controller.rate-limiter.base-delay (1s)")),
				invalid("operator.controller.rate-limiter.qps", "0", "must be a positive number"),
				invalid("operator.controller.rate-limiter.burst", "0", "must be at least 1"),
				invalid("operator.controllers.configmap.max-concurrent-reconciles", "0", "must be at least 1"),
				invalid("operator.controller.reconcile-timeout", "-1s", "must not be negative"),
				invalid("operator.controllers.configmap.reconcile-timeout", "-5s", "must not be negative"),
				invalid("operator.leader-election.lease-duration", "500ms", "must be at least 1s"),
				invalid("operator.leader-election.renew-deadline", "0s", "must be positive"),
				invalid("operator.leader-election.retry-period", "0s", "must be positive"),
				invalid("operator.leader-election.renew-deadline", "20s",
						"must be less than operator.leader-election.lease-duration (15s)"),
				arguments(new String[] { "operator.leader-election.lease-duration=5s" },
						unset("operator.leader-election.renew-deadline", "10s",
								"must be less than operator.leader-election.lease-duration (5s)")),
				invalid("operator.leader-election.retry-period", "10s",
						"must be less than operator.leader-election.renew-deadline (10s)"),
				invalid("operator.leader-election.namespace", "Team_A", DNS_LABEL_RULE),
				invalid("operator.leader-election.lease-name", "Shop_Leader", DNS_SUBDOMAIN_RULE),
				invalid("operator.health.probe-interval", "0s", "must be positive"),
				invalid("operator.health.watch-failure-threshold", "-1s", "must not be negative"),
				invalid("operator.events.queue-capacity", "0", "must be at least 1"),
				invalid("operator.events.aggregation-interval", "2d", "must be between 0 and 1 day"),
				invalid("operator.events.qps", "0", "must be positive"),
				invalid("operator.events.burst", "0", "must be at least 1"),
				invalid("operator.events.flush-timeout", "-1s", "must not be negative"),
				invalid("operator.events.component", "Shop Operator",
						"must be a Kubernetes qualified name, such as shop-operator or example.com/shop-operator: it is "
								+ "the reportingController of events.k8s.io/v1 Events (or record core/v1 Events only)"),
				invalid("operator.metrics.auth.allowed-cache-ttl", "-1s", "must not be negative"),
				invalid("operator.metrics.auth.denied-cache-ttl", "-1s", "must not be negative"),
				invalid("operator.metrics.auth.cache-size", "0", "must be at least 1"),
				arguments(new String[] { "operator.metrics.auth.enabled=true", "operator.metrics.auth.endpoints=" },
						set("operator.metrics.auth.endpoints", "",
								"must name at least one Actuator endpoint to guard, such as prometheus, while "
										+ "operator.metrics.auth.enabled is true")),
				invalid("operator.webhook.port", "70000", "must be between 0 and 65535"),
				invalid("operator.webhook.handler-timeout", "0s", "must be positive"),
				invalid("operator.cache.object-budget", "-1", "must be at least 0"),
				invalid("operator.cache.object-budgets.secret", "-10", "must be at least 0"),
				arguments(
						new String[] { "operator.clusters.enabled=true",
								"operator.clusters.kubeconfigs.eu=/no/such/kubeconfig" },
						set("operator.clusters.kubeconfigs.eu", "/no/such/kubeconfig",
								"must be a kubeconfig file this process can read")),
				arguments(
						new String[] { "operator.clusters.enabled=true",
								"operator.clusters.secrets.namespace=Fleet_Config" },
						set("operator.clusters.secrets.namespace", "Fleet_Config", DNS_LABEL_RULE)),
				arguments(new String[] { "operator.clusters.secrets.namespace=fleet" }, set(
						"operator.clusters.secrets.namespace", "fleet",
						"is set while operator.clusters.enabled is false, which engages no cluster: set it to true")),
				arguments(new String[] { "operator.clusters.connection-details.eu=euDetails" }, unset(
						"operator.clusters.connection-details", "eu",
						"names clusters while operator.clusters.enabled is false, which engages none: set it to true")),
				arguments(new String[] { "operator.clusters.enabled=true", "operator.clusters.connection-details.eu=" },
						set("operator.clusters.connection-details.eu", "",
								"must name a KubernetesConnectionDetails bean")),
				arguments(
						new String[] { "operator.clusters.enabled=true", "operator.clusters.secrets.namespace=fleet",
								"operator.clusters.secrets.key=" },
						set("operator.clusters.secrets.key", "", "must name a key of the Secrets' data")),
				invalid("operator.cache.acknowledged-unscoped-kinds", "Deployment",
						"must be one of the kinds warned of: Secret, ConfigMap, Pod, Event, Event.events.k8s.io"));
	}

	@ParameterizedTest(name = "{1}")
	@MethodSource("invalidValues")
	void invalidValueShouldFailNamingThePropertyAsWritten(String[] properties, String problem) {
		assertThat(failure(properties)).startsWith("Invalid operator properties:\n").contains(problem);
	}

	@Test
	void blankLeaseNameShouldFailNamingTheProperty() {
		assertThat(failure("operator.leader-election.lease-name=")).contains(
				"    Property: operator.leader-election.lease-name\n    Value: \"\"\n    Origin: \"operator.leader-election.lease-name\" "
						+ "from property source \"test\"\n    Reason: must not be blank\n");
	}

	@Test
	void blankEventsComponentShouldFailNamingTheProperty() {
		assertThat(failure("operator.events.component=")).contains("    Property: operator.events.component\n")
			.contains("    Reason: must not be blank\n");
	}

	// the certificate checks its own settings when it is made, in an application with
	// webhooks

	@Test
	void selfSignedCertificateWithoutHostsShouldFailNamingTheProperty() {
		assertThat(failure(Webhooks.class, "operator.webhook.self-signed=true", "operator.webhook.self-signed-hosts="))
			.contains("    Property: operator.webhook.self-signed-hosts\n")
			.contains("    Reason: must name at least one host\n");
	}

	@Test
	void selfSignedCertificateWithBlankHostShouldFailNamingTheProperty() {
		assertThat(failure(Webhooks.class, "operator.webhook.self-signed=true",
				"operator.webhook.self-signed-hosts[0]=localhost", "operator.webhook.self-signed-hosts[1]="))
			.contains("    Property: operator.webhook.self-signed-hosts\n")
			.contains("    Reason: must not contain a blank host\n");
	}

	@Test
	void certificateCheckIntervalThatIsNotPositiveShouldFailNamingTheProperty() {
		assertThat(failure(Webhooks.class, "operator.webhook.cert-check-interval=0s"))
			.contains(set("operator.webhook.cert-check-interval", "0s", "must be positive"));
	}

	@Test
	void everyInvalidValueShouldBeReportedAtOnce() {
		assertThat(failure("operator.cache-sync-timeout=0s", "operator.leader-election.renew-deadline=20s",
				"operator.controllers.configmap.max-concurrent-reconciles=0"))
			.contains("Property: operator.cache-sync-timeout\n")
			.contains("Property: operator.leader-election.renew-deadline\n")
			.contains("Property: operator.controllers.configmap.max-concurrent-reconciles\n");
	}

	@Test
	void exceptionShouldNameThePropertyAsWritten() {
		this.contextRunner.withPropertyValues("operator.leader-election.renew-deadline=20s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidOperatorPropertyException.class)
				.hasMessage("operator.leader-election.renew-deadline (20s) must be less than "
						+ "operator.leader-election.lease-duration (15s)"));
	}

	@Test
	void unknownKeyShouldFailNamingIt() {
		assertThat(failure("operator.sync-perod=1m", "operator.leader-election.enabled=false"))
			.contains(set("operator.sync-perod", "1m", "is not an operator property"))
			.doesNotContain("operator.leader-election");
	}

	@Test
	void controllerNameWithADotShouldBeNamedInBrackets() {
		assertThat(failure("operator.controllers[shop.buckets].max-concurrent-reconciles=0"))
			.contains("    Property: operator.controllers[shop.buckets].max-concurrent-reconciles\n    Value: \"0\"\n");
	}

	@Test
	void startUpShouldPrintTheAnalysisOfTheOperatorsProperties(CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> new SpringApplicationBuilder(MinimalApplication.class).web(WebApplicationType.NONE)
				.properties("operator.auto-startup=false", "operator.leader-election.renew-deadline=20s")
				.run()
				.close());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Invalid operator properties:\n\n    Property: operator.leader-election.renew-deadline\n"
					+ "    Value: \"20s\"\n    Origin: \"operator.leader-election.renew-deadline\" from property "
					+ "source \"defaultProperties\"\n    Reason: must be less than operator.leader-election.lease-duration "
					+ "(15s)\n")
			.contains(OperatorPropertiesFailureAnalyzer.ACTION)
			.doesNotContain("leaderElection.renewDeadline");
	}

	private String failure(String... properties) {
		return failure(this.contextRunner, properties);
	}

	private String failure(Class<?> configuration, String... properties) {
		return failure(this.contextRunner.withUserConfiguration(configuration), properties);
	}

	private static String failure(ApplicationContextRunner contextRunner, String... properties) {
		AtomicReference<String> description = new AtomicReference<>();
		contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new OperatorPropertiesFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			description.set(analysis.getDescription());
		});
		return description.get();
	}

	private static Arguments invalid(String property, String value, String reason) {
		return arguments(new String[] { property + "=" + value }, set(property, value, reason));
	}

	/**
	 * The report of a property the application set.
	 */
	private static String set(String property, String value, String reason) {
		return "    Property: " + property + "\n    Value: \"" + value + "\"\n    Origin: \"" + property
				+ "\" from property source \"test\"\n    Reason: " + reason + "\n";
	}

	/**
	 * The report of a property the application left at its default.
	 */
	private static String unset(String property, String value, String reason) {
		return "    Property: " + property + "\n    Value: \"" + value + "\"\n    Reason: " + reason + "\n";
	}

	@Configuration(proxyBeanMethods = false)
	static class Webhooks {

		@Bean
		AdmissionValidator<V1ConfigMap> configMapValidator() {
			return new AdmissionValidator<>() {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(OperatorAutoConfiguration.class)
	static class MinimalApplication {

		@Bean
		ApiClient apiClient() {
			return new ApiClient().setBasePath("https://127.0.0.1:1");
		}

	}

}
