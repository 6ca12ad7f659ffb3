package io.kubeboot.operator.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class OperatorDefaultsEnvironmentPostProcessorTests {

	private static final String CONTROLLER_LEVEL = "logging.level.io.kubernetes.client.informer.cache.Controller";

	@Test
	void postProcessShouldTurnOffNoisyInformerLoggers() {
		StandardEnvironment environment = new StandardEnvironment();
		new OperatorDefaultsEnvironmentPostProcessor().postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(CONTROLLER_LEVEL)).isEqualTo("OFF");
		assertThat(environment.getProperty("logging.level.io.kubernetes.client.informer.cache.ProcessorListener"))
			.isEqualTo("OFF");
		assertThat(environment.getProperty("management.endpoint.health.probes.enabled")).isEqualTo("true");
		assertThat(environment.getProperty("management.endpoints.web.exposure.include")).isEqualTo("health,prometheus");
		assertThat(environment.getProperty("logging.pattern.correlation")).contains("%X{reconcileID}");
	}

	@Test
	void postProcessShouldLetTheApplicationsExposureWin() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("app", Map.of("management.endpoints.web.exposure.include", "health")));
		new OperatorDefaultsEnvironmentPostProcessor().postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("management.endpoints.web.exposure.include")).isEqualTo("health");
	}

	@Test
	void postProcessShouldLetTheApplicationsLevelWin() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("app", Map.of(CONTROLLER_LEVEL, "DEBUG")));
		new OperatorDefaultsEnvironmentPostProcessor().postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(CONTROLLER_LEVEL)).isEqualTo("DEBUG");
	}

}
