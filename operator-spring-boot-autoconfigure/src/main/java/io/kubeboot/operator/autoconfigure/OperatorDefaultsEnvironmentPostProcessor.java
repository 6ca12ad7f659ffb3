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
 * <li>Actuator exposes {@code health} and {@code prometheus} over HTTP
 * ({@code management.endpoints.web.exposure.include}), so that an operator is scraped
 * like one written with controller-runtime;</li>
 * <li>every log line written during a reconcile shows its controller, object and
 * reconcile id ({@code logging.pattern.correlation}, from the MDC keys
 * {@code controller}, {@code namespace}, {@code name} and {@code reconcileID}); other
 * lines are unchanged;</li>
 * <li>two client-java informer loggers that report every normal informer stop as an ERROR
 * with a stack trace ({@code processLoop get interrupted}, {@code processor interrupted})
 * are off.</li>
 * </ul>
 */
class OperatorDefaultsEnvironmentPostProcessor implements EnvironmentPostProcessor {

	static final String PROPERTY_SOURCE_NAME = "operatorDefaults";

	/**
	 * {@code [controller namespace/name reconcileID] }, or nothing outside a reconcile.
	 */
	static final String RECONCILE_CORRELATION = "%replace([%X{controller} %X{namespace}/%X{name} %X{reconcileID}] )"
			+ "{'^\\[ / \\] $', ''}";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!environment.getPropertySources().contains(PROPERTY_SOURCE_NAME)) {
			environment.getPropertySources()
				.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME,
						Map.of("management.endpoint.health.probes.enabled", "true",
								"management.endpoints.web.exposure.include", "health,prometheus",
								"logging.pattern.correlation", RECONCILE_CORRELATION,
								"logging.level.io.kubernetes.client.informer.cache.Controller", "OFF",
								"logging.level.io.kubernetes.client.informer.cache.ProcessorListener", "OFF")));
		}
	}

}
