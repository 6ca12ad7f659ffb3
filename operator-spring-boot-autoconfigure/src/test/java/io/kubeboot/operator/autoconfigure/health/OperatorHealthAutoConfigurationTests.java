package io.kubeboot.operator.autoconfigure.health;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.endpoint.OperatorEndpoint;
import io.kubeboot.operator.autoconfigure.endpoint.OperatorEndpointAutoConfiguration;
import io.kubeboot.operator.manager.ManagerHealth;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.ServletRegistrationBean;

import static org.assertj.core.api.Assertions.assertThat;

class OperatorHealthAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(OperatorAutoConfiguration.class, ApplicationAvailabilityAutoConfiguration.class,
						OperatorHealthAutoConfiguration.class, OperatorEndpointAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false");

	private final WebApplicationContextRunner webContextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class,
				ApplicationAvailabilityAutoConfiguration.class, OperatorHealthAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false");

	@Test
	void runShouldCreateHealthAvailabilityPublisherAndIndicator() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ManagerHealth.class);
			assertThat(context).hasSingleBean(ManagerAvailabilityPublisher.class);
			assertThat(context).hasBean("operatorHealthIndicator");
			assertThat(context.getBean("operatorHealthIndicator")).isInstanceOf(HealthIndicator.class);
		});
	}

	@Test
	void runWhenOperatorHealthIndicatorDisabledShouldNotCreateIt() {
		this.contextRunner.withPropertyValues("management.health.operator.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("operatorHealthIndicator")
				.hasSingleBean(ManagerAvailabilityPublisher.class));
	}

	@Test
	void runWithoutManagerShouldNotCreateHealth() {
		this.contextRunner.withPropertyValues("operator.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ManagerHealth.class)
				.doesNotHaveBean(ManagerAvailabilityPublisher.class));
	}

	@Test
	void runOutsideAWebApplicationShouldNotRegisterHealthz() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(ServletRegistrationBean.class));
	}

	@Test
	void runInAServletApplicationShouldRegisterHealthzAndReadyz() {
		this.webContextRunner.run((context) -> {
			assertThat(context.getBeansOfType(ServletRegistrationBean.class).values())
				.flatExtracting(ServletRegistrationBean::getUrlMappings)
				.containsExactlyInAnyOrder("/healthz", "/healthz/*", "/readyz", "/readyz/*");
		});
	}

	@Test
	void runWithHealthzDisabledShouldNotRegisterIt() {
		this.webContextRunner.withPropertyValues("operator.health.healthz-enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ServletRegistrationBean.class));
	}

	@Test
	void runWithNonPositiveProbeIntervalShouldFailNamingTheProperty() {
		this.contextRunner.withPropertyValues("operator.health.probe-interval=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("health.probe-interval")
				.hasMessageContaining("must be positive"));
	}

	@Test
	void runWithOperatorEndpointExposedShouldCreateIt() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=operator")
			.run((context) -> assertThat(context).hasSingleBean(OperatorEndpoint.class));
	}

	@Test
	void runWithOperatorEndpointNotExposedShouldNotCreateIt() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(OperatorEndpoint.class));
	}

}
