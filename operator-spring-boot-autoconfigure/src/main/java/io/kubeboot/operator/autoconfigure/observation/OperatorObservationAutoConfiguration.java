package io.kubeboot.operator.autoconfigure.observation;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.micrometer.ObservationTracing;
import io.kubeboot.operator.tracing.Tracing;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the operator's observations when the application has a Micrometer
 * {@link ObservationRegistry} (Spring Boot makes one with Actuator): the auto-configured
 * {@link Manager} and its webhook server report every reconcile, client call, webhook
 * request and leader transition to it through an {@link ObservationTracing}. With
 * {@code spring-boot-starter-opentelemetry} (or Micrometer Tracing's Brave bridge) on the
 * class path, they are exported as spans with no code; Spring Boot's
 * {@code management.observations.enable.operator=false} turns them off.
 */
@AutoConfiguration(before = OperatorAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({ ObservationRegistry.class, Manager.class })
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
public final class OperatorObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(Tracing.class)
	ObservationTracing operatorTracing(ObservationRegistry registry) {
		return new ObservationTracing(registry);
	}

}
