package io.kubeboot.operator.autoconfigure.observation;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.micrometer.DefaultClientRequestObservationConvention;
import io.kubeboot.operator.micrometer.DefaultLeaderElectionObservationConvention;
import io.kubeboot.operator.micrometer.DefaultReconcileObservationConvention;
import io.kubeboot.operator.micrometer.DefaultWebhookObservationConvention;
import io.kubeboot.operator.micrometer.ObservationTracing;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configures the operator's observations: the auto-configured {@link Manager} and
 * its webhook server report every reconcile, client call, webhook request and leader
 * transition to the application's {@link ObservationRegistry} through an
 * {@link ObservationTracing}, when Micrometer Tracing is set up with a bridge
 * ({@code spring-boot-starter-opentelemetry}, or the Brave bridge: a {@code Propagator}
 * bean), so that they are exported as spans with no code, or when
 * {@code operator.tracing.observation-timers} is on. Otherwise the manager reports
 * nothing and a reconcile costs one {@link OperatorTracing#isNoop()} check.
 * <p>
 * The observations make no meters of their own unless
 * {@code operator.tracing.observation-timers} is on: controller-runtime's
 * {@code controller_runtime_*} and {@code workqueue_*} series stay the reconcile's
 * timers, and a {@link MeterFilter} denies the timers a meter handler would make of the
 * observations. Spring Boot's {@code management.observations.enable.operator=false} turns
 * the observations off.
 */
@AutoConfiguration(before = OperatorAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration" })
@ConditionalOnClass({ ObservationRegistry.class, Manager.class })
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
public final class OperatorObservationAutoConfiguration {

	static final String TIMERS_PROPERTY = "operator.tracing.observation-timers";

	@Bean
	@ConditionalOnMissingBean(OperatorTracing.class)
	@Conditional(TracedOrTimed.class)
	ObservationTracing operatorTracing(ObservationRegistry registry) {
		return new ObservationTracing(registry);
	}

	/**
	 * Keeps a meter handler from making timers of the operator's observations.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterFilter.class)
	@ConditionalOnBooleanProperty(name = TIMERS_PROPERTY, havingValue = false, matchIfMissing = true)
	static class WithoutTimers {

		@Bean
		MeterFilter operatorObservationTimersFilter() {
			Set<String> denied = new HashSet<>();
			for (String name : List.of(DefaultReconcileObservationConvention.INSTANCE.getName(),
					DefaultClientRequestObservationConvention.INSTANCE.getName(),
					DefaultWebhookObservationConvention.INSTANCE.getName(),
					DefaultLeaderElectionObservationConvention.INSTANCE.getName())) {
				// the timer a meter handler names after the observation, and its long
				// task timer; not operator.reconcile.triggers, the controller's counters
				denied.add(name);
				denied.add(name + ".active");
			}
			// and the counters it makes of a leadership's events, one per transition
			for (String transition : List.of("acquired", "lost", "stopped")) {
				denied.add(DefaultLeaderElectionObservationConvention.INSTANCE.getName() + "." + transition);
			}
			return MeterFilter.deny((id) -> denied.contains(id.getName()));
		}

	}

	/**
	 * Matches when a tracing bridge is set up or the observations' timers are asked for.
	 */
	static final class TracedOrTimed extends AnyNestedCondition {

		TracedOrTimed() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnBean(type = "io.micrometer.tracing.propagation.Propagator")
		static final class Traced {

		}

		@ConditionalOnBooleanProperty(TIMERS_PROPERTY)
		static final class Timed {

		}

	}

}
