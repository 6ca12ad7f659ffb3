package io.kubeboot.operator.autoconfigure.observation;

import java.time.Duration;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.micrometer.ObservationTracing;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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

	/**
	 * Spring Boot's ObservationRegistry always has a meter handler with Actuator: without
	 * a tracing bridge, observing would only add timers beside controller-runtime's.
	 */
	@Test
	void withAnObservationRegistryButNoTracingBridgeNothingIsObserved() {
		this.contextRunner.withBean(ObservationRegistry.class, ObservationRegistry::create).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(OperatorTracing.class);
			assertThat(context.getBean(Manager.class).controllerDefaults().tracing()).isSameAs(OperatorTracing.NOOP);
		});
	}

	@Test
	void withTheObservationTimersOnTheManagerReportsToTheRegistry() {
		this.contextRunner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.withPropertyValues("operator.tracing.observation-timers=true")
			.run((context) -> {
				assertThat(context).hasSingleBean(ObservationTracing.class).doesNotHaveBean(MeterFilter.class);
				assertThat(context.getBean(Manager.class).controllerDefaults().tracing())
					.isSameAs(context.getBean(ObservationTracing.class));
			});
	}

	@Test
	void theObservationsMakeNoTimersByDefault() {
		this.contextRunner.withBean(ObservationRegistry.class, ObservationRegistry::create).run((context) -> {
			MeterRegistry meters = new SimpleMeterRegistry();
			meters.config().meterFilter(context.getBean(MeterFilter.class));
			Timer.builder("operator.reconcile").register(meters).record(Duration.ofMillis(1));
			LongTaskTimer.builder("operator.client.request.active").register(meters);
			Counter.builder("operator.reconcile.triggers").register(meters).increment();
			Timer.builder("controller.runtime.reconcile.time").register(meters).record(Duration.ofMillis(1));

			assertThat(meters.getMeters()).extracting((meter) -> meter.getId().getName())
				.containsExactlyInAnyOrder("operator.reconcile.triggers", "controller.runtime.reconcile.time");
		});
	}

	@Test
	void theObservationsOfALeadershipMakeNoMetersByDefault() {
		this.contextRunner.withBean(ObservationRegistry.class, ObservationRegistry::create).run((context) -> {
			MeterRegistry meters = new SimpleMeterRegistry();
			meters.config().meterFilter(context.getBean(MeterFilter.class));
			ObservationRegistry registry = ObservationRegistry.create();
			registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
			ObservationTracing tracing = new ObservationTracing(registry);
			tracing.leaderTransition("default/operator-leader", "replica-1", "acquired");
			tracing.leaderTransition("default/operator-leader", "replica-1", "lost");

			assertThat(meters.getMeters()).extracting((meter) -> meter.getId().getName()).isEmpty();
		});
	}

	@Test
	void withoutObservationRegistryNothingIsObserved() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(OperatorTracing.class);
			assertThat(context.getBean(Manager.class).controllerDefaults().tracing()).isSameAs(OperatorTracing.NOOP);
		});
	}

	@Test
	void withoutMicrometerObservationNothingIsObserved() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(Manager.class)
				.doesNotHaveBean(OperatorTracing.class));
	}

	@Test
	void aTracingOfTheApplicationsOwnIsUsedInstead() {
		OperatorTracing own = new OperatorTracing() {
		};
		this.contextRunner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.withBean(OperatorTracing.class, () -> own)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ObservationTracing.class);
				assertThat(context.getBean(Manager.class).controllerDefaults().tracing()).isSameAs(own);
			});
	}

	@Test
	void whenOperatorIsDisabledNothingIsObserved() {
		this.contextRunner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.withPropertyValues("operator.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(OperatorTracing.class));
	}

}
