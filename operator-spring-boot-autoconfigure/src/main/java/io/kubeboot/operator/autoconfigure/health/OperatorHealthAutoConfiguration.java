package io.kubeboot.operator.autoconfigure.health;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.OperatorHealthProperties;
import io.kubeboot.operator.healthz.CheckResult;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerHealth;
import jakarta.servlet.http.HttpServlet;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configures the manager's health: its liveness and readiness mapped onto Spring
 * Boot's availability states (and so onto Actuator's {@code liveness} and
 * {@code readiness} probe groups), an {@code operator} health indicator with details, and
 * controller-runtime's {@code /healthz} and {@code /readyz} on the application's port.
 */
@AutoConfiguration(after = { OperatorAutoConfiguration.class, ApplicationAvailabilityAutoConfiguration.class })
@ConditionalOnBean(Manager.class)
public final class OperatorHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ManagerHealth operatorManagerHealth(Manager manager, OperatorHealthProperties properties) {
		// the property also for a manager the application built itself
		return new ManagerHealth(manager, properties.getWatchFailureThreshold(), properties.isNamespacesInReadiness());
	}

	@Bean
	@ConditionalOnBean(ApplicationAvailability.class)
	ManagerAvailabilityPublisher operatorAvailabilityPublisher(ManagerHealth health,
			ApplicationAvailability availability, ApplicationEventPublisher publisher,
			OperatorHealthProperties properties) {
		return new ManagerAvailabilityPublisher(health, availability, publisher, properties.getProbeInterval());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthIndicator.class)
	static class OperatorHealthIndicatorConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "operatorHealthIndicator")
		@ConditionalOnEnabledHealthIndicator("operator")
		HealthIndicator operatorHealthIndicator(Manager manager, ManagerHealth health) {
			return new OperatorHealthIndicator(manager, health);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass({ HttpServlet.class, ServletRegistrationBean.class })
	@ConditionalOnBooleanProperty(name = "operator.health.healthz-enabled", matchIfMissing = true)
	static class HealthzConfiguration {

		// The servlets get the manager's health when first asked: the web server
		// creates its servlets before the other beans, and a manager that cannot be
		// created (no Kubernetes configuration) would fail inside the web server's
		// start, under an unrelated "Error starting Tomcat context"

		@Bean
		ServletRegistrationBean<HealthzServlet> operatorHealthzServlet(ObjectProvider<ManagerHealth> health,
				ObjectProvider<ApplicationAvailability> availability) {
			return registration("operatorHealthz", "/healthz", () -> {
				List<CheckResult> checks = withPing(health.getObject().liveness());
				ApplicationAvailability states = availability.getIfAvailable();
				if (states != null) {
					checks.add((states.getLivenessState() == LivenessState.CORRECT)
							? new CheckResult("liveness", true, null)
							: new CheckResult("liveness", false, "liveness state is " + states.getLivenessState()));
				}
				return checks;
			});
		}

		@Bean
		ServletRegistrationBean<HealthzServlet> operatorReadyzServlet(ObjectProvider<ManagerHealth> health,
				ObjectProvider<ApplicationAvailability> availability) {
			return registration("operatorReadyz", "/readyz", () -> {
				List<CheckResult> checks = withPing(health.getObject().readiness());
				ApplicationAvailability states = availability.getIfAvailable();
				if (states != null) {
					checks.add((states.getReadinessState() == ReadinessState.ACCEPTING_TRAFFIC)
							? new CheckResult("readiness", true, null)
							: new CheckResult("readiness", false, "readiness state is " + states.getReadinessState()));
				}
				return checks;
			});
		}

		private static List<CheckResult> withPing(List<CheckResult> checks) {
			List<CheckResult> all = new ArrayList<>();
			all.add(new CheckResult("ping", true, null));
			all.addAll(checks);
			return all;
		}

		private static ServletRegistrationBean<HealthzServlet> registration(String name, String path,
				Supplier<List<CheckResult>> checks) {
			ServletRegistrationBean<HealthzServlet> registration = new ServletRegistrationBean<>(
					new HealthzServlet(checks), path, path + "/*");
			registration.setName(name);
			return registration;
		}

	}

}
