package io.kubeboot.operator.autoconfigure.observation;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.micrometer.ObservationTracing;
import io.kubeboot.operator.tracing.Tracing;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OperatorObservationAutoConfiguration}.
 */
class OperatorObservationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(OperatorAutoConfiguration.class, OperatorObservationAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false");

	@Test
	void withObservationRegistryTheManagerReportsToIt() {
		this.contextRunner.withBean(ObservationRegistry.class, ObservationRegistry::create).run((context) -> {
			assertThat(context).hasSingleBean(ObservationTracing.class);
			assertThat(context.getBean(Manager.class).controllerDefaults().tracing())
				.isSameAs(context.getBean(ObservationTracing.class));
		});
	}

	@Test
	void withoutObservationRegistryNothingIsObserved() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(Tracing.class);
			assertThat(context.getBean(Manager.class).controllerDefaults().tracing()).isSameAs(Tracing.NOOP);
		});
	}

	@Test
	void withoutMicrometerObservationNothingIsObserved() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(Manager.class)
				.doesNotHaveBean(Tracing.class));
	}

	@Test
	void aTracingOfTheApplicationsOwnIsUsedInstead() {
		Tracing own = new Tracing() {
		};
		this.contextRunner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.withBean(Tracing.class, () -> own)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ObservationTracing.class);
				assertThat(context.getBean(Manager.class).controllerDefaults().tracing()).isSameAs(own);
			});
	}

	@Test
	void whenOperatorIsDisabledNothingIsObserved() {
		this.contextRunner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.withPropertyValues("operator.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(Tracing.class));
	}

}
