package io.kubeboot.operator.autoconfigure;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Adds the operator's defaults for other libraries' properties, as the last property
 * source so that anything the application sets wins:
 * <ul>
 * <li>Actuator's liveness and readiness probe groups are on
 * ({@code management.endpoint.health.probes.enabled}), also outside Kubernetes;</li>
 * <li>two client-java informer loggers that report every normal informer stop as an ERROR
 * with a stack trace ({@code processLoop get interrupted}, {@code processor interrupted})
 * are off.</li>
 * </ul>
 */
class OperatorDefaultsEnvironmentPostProcessor implements EnvironmentPostProcessor {

	static final String PROPERTY_SOURCE_NAME = "operatorDefaults";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!environment.getPropertySources().contains(PROPERTY_SOURCE_NAME)) {
			environment.getPropertySources()
				.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME,
						Map.of("management.endpoint.health.probes.enabled", "true",
								"logging.level.io.kubernetes.client.informer.cache.Controller", "OFF",
								"logging.level.io.kubernetes.client.informer.cache.ProcessorListener", "OFF")));
		}
	}

}
