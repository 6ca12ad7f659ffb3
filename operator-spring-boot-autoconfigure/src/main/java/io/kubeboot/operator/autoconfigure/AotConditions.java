package io.kubeboot.operator.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * The {@code operator.*} properties whose value decides which of the starter's beans
 * exist ({@code @ConditionalOnBooleanProperty}), and the check that keeps Spring AOT from
 * ignoring them. AOT processing ({@code spring-boot:process-aot}) evaluates the
 * conditions once, at build time; an application started with
 * {@code -Dspring.aot.enabled=true} gets the beans of the build's values whatever its own
 * environment says. So the processing records each property's value, and the start fails,
 * naming the property, where the two differ: secured metrics that a chart turns on with
 * {@code OPERATOR_METRICS_AUTH_ENABLED} must not be served unsecured instead.
 */
final class AotConditions {

	/** Each property, with its value when it is not set. */
	static final Map<String, Boolean> PROPERTIES = properties();

	private AotConditions() {
	}

	private static Map<String, Boolean> properties() {
		Map<String, Boolean> properties = new LinkedHashMap<>();
		properties.put("operator.enabled", true);
		properties.put("operator.clusters.enabled", false);
		properties.put("operator.events.enabled", true);
		properties.put("operator.health.healthz-enabled", true);
		properties.put("operator.metrics.auth.enabled", false);
		properties.put("operator.sharding.enabled", false);
		properties.put("operator.tracing.observation-timers", false);
		return properties;
	}

	/**
	 * The values an environment gives the properties, as the conditions read them.
	 * @param environment the environment
	 * @return each property's value, as {@code name=value} pairs separated by commas; a
	 * value that is no boolean is left out (binding the properties reports it)
	 */
	static String values(Environment environment) {
		List<String> values = new ArrayList<>();
		PROPERTIES.forEach((name, unset) -> {
			Boolean value = value(environment, name, unset);
			if (value != null) {
				values.add(name + "=" + value);
			}
		});
		return String.join(",", values);
	}

	/**
	 * Fails unless the environment gives each property the value it had when the
	 * application was processed. The AOT-generated code of the application calls it as it
	 * starts.
	 * @param environment the environment the application starts with
	 * @param processed the values at build time, as {@link #values} gave them
	 * @throws InvalidOperatorPropertyException naming each property that differs
	 */
	static void check(Environment environment, String processed) {
		List<Problem> problems = new ArrayList<>();
		for (String pair : processed.split(",")) {
			int equals = pair.indexOf('=');
			if (equals < 0) {
				continue;
			}
			String name = pair.substring(0, equals);
			boolean atBuild = Boolean.parseBoolean(pair.substring(equals + 1));
			Boolean now = value(environment, name, PROPERTIES.getOrDefault(name, atBuild));
			if (now != null && now != atBuild) {
				problems.add(new Problem(name, environment.getProperty(name), origin(environment, name),
						"it is " + now + " here, but was " + atBuild + " when spring-boot:process-aot generated the "
								+ "application's beans, and Spring AOT (-Dspring.aot.enabled=true) keeps the beans of "
								+ "the build: the property would be ignored"));
			}
		}
		if (!problems.isEmpty()) {
			throw new InvalidOperatorPropertyException(OperatorPropertiesFailureAnalyzer.describe(problems), problems,
					"Give these properties the same value when the application is built (application.yaml, or "
							+ "the jvmArguments of spring-boot-maven-plugin's process-aot) as when it runs, or start "
							+ "it without -Dspring.aot.enabled=true.");
		}
	}

	private static @Nullable Boolean value(Environment environment, String name, boolean unset) {
		String text = environment.getProperty(name);
		if (text == null) {
			return unset;
		}
		String trimmed = text.trim();
		if (trimmed.equalsIgnoreCase("true") || trimmed.equalsIgnoreCase("false")) {
			return Boolean.valueOf(trimmed);
		}
		return null;
	}

	private static @Nullable Origin origin(Environment environment, String name) {
		if (!(environment instanceof org.springframework.core.env.ConfigurableEnvironment configurable)) {
			return null;
		}
		ConfigurationPropertyName property = ConfigurationPropertyName.of(name);
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(configurable)) {
			ConfigurationProperty found = source.getConfigurationProperty(property);
			if (found != null) {
				return found.getOrigin();
			}
		}
		return null;
	}

}
