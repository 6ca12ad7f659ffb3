package io.kubeboot.operator.autoconfigure.metrics;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.rbac.PolicyRule;
import io.kubeboot.operator.rbac.PolicyRules;
import io.kubernetes.client.openapi.ApiClient;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OperatorMetricsAuthAutoConfiguration}; the filter and its answers are
 * tested in {@link SecuredMetricsIntegrationTests}.
 */
class OperatorMetricsAuthAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(OperatorAutoConfiguration.class, OperatorMetricsAuthAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false");

	@Test
	void runByDefaultShouldNeitherReviewTokensNorNeedToBeAllowedTo() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(TokenAccessReviews.class);
			assertThat(PolicyRules.of(context.getBean(Manager.class).requiredPermissions()))
				.noneMatch((rule) -> rule.resource().endsWith("reviews"));
		});
	}

	@Test
	void runWhenEnabledShouldReviewTokensAndNeedToCreateTheReviewsInARoleOfTheirOwn() {
		this.contextRunner.withPropertyValues("operator.metrics.auth.enabled=true").run((context) -> {
			assertThat(context).hasSingleBean(TokenAccessReviews.class);
			assertThat(PolicyRules.of(context.getBean(Manager.class).requiredPermissions()))
				.filteredOn((rule) -> rule.resource().endsWith("reviews"))
				.extracting((rule) -> rule.role() + " " + rule.namespace() + " " + rule.apiGroup() + " "
						+ rule.resource() + " " + rule.verbs())
				.containsExactly("metrics-auth null authentication.k8s.io tokenreviews [create]",
						"metrics-auth null authorization.k8s.io subjectaccessreviews [create]");
			assertThat(PolicyRules.of(context.getBean(Manager.class).requiredPermissions()))
				.filteredOn((rule) -> rule.resource().equals("tokenreviews"))
				.flatExtracting(PolicyRule::reasons)
				.containsExactly(
						"the metrics endpoint authenticates the bearer token of each caller with a TokenReview");
		});
	}

	@Test
	void runWhenEnabledInAReactiveApplicationShouldFailRatherThanServeTheMetricsOpen() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(OperatorAutoConfiguration.class, OperatorMetricsAuthAutoConfiguration.class))
			.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
			.withPropertyValues("operator.auto-startup=false", "operator.metrics.auth.enabled=true")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.extracting(NestedExceptionUtils::getMostSpecificCause)
				.asInstanceOf(InstanceOfAssertFactories.THROWABLE)
				.hasMessageStartingWith("operator.metrics.auth.enabled is true, but this is a reactive web application")
				.hasMessageContaining("set operator.metrics.auth.enabled=false"));
	}

	@Test
	void runWhenEnabledInAServletApplicationServedBySpringMvcShouldStart() {
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(OperatorAutoConfiguration.class, OperatorMetricsAuthAutoConfiguration.class))
			.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
			.withPropertyValues("operator.auto-startup=false", "operator.metrics.auth.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(TokenAccessReviews.class));
	}

	@Test
	void runWhenEnabledWithTheOperatorOffShouldDoNothing() {
		this.contextRunner.withPropertyValues("operator.metrics.auth.enabled=true", "operator.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(TokenAccessReviews.class));
	}

}
