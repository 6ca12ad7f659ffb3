package io.kubeboot.operator.autoconfigure;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Quietens two client-java informer loggers that report every normal informer stop as an
 * ERROR with a stack trace ({@code processLoop get interrupted}, {@code processor
 * interrupted}). Added as the last property source, so any {@code logging.level.*} the
 * application sets wins.
 */
class InformerLoggingEnvironmentPostProcessor implements EnvironmentPostProcessor {

	static final String PROPERTY_SOURCE_NAME = "operatorInformerLogging";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!environment.getPropertySources().contains(PROPERTY_SOURCE_NAME)) {
			environment.getPropertySources()
				.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME,
						Map.of("logging.level.io.kubernetes.client.informer.cache.Controller", "OFF",
								"logging.level.io.kubernetes.client.informer.cache.ProcessorListener", "OFF")));
		}
	}

}
