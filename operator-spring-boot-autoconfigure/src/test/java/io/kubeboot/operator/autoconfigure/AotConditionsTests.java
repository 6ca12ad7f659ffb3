package io.kubeboot.operator.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.AnnotatedElement;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

class AotConditionsTests {

	private static final String DEFAULTS = "operator.enabled=true,operator.clusters.enabled=false,"
			+ "operator.events.enabled=true,"
			+ "operator.health.healthz-enabled=true,operator.metrics.auth.enabled=false,"
			+ "operator.sharding.enabled=false,operator.tracing.observation-timers=false";

	@Test
	void recordsEachPropertysValueOrItsDefault() {
		assertThat(AotConditions.values(new MockEnvironment())).isEqualTo(DEFAULTS);
		assertThat(AotConditions.values(new MockEnvironment().withProperty("operator.sharding.enabled", "TRUE")))
			.contains("operator.sharding.enabled=true");
		// not a boolean: binding reports it, the check leaves it out
		assertThat(AotConditions.values(new MockEnvironment().withProperty("operator.sharding.enabled", "yes")))
			.doesNotContain("operator.sharding.enabled");
	}

	@Test
	void theSameValuesPass() {
		assertThatNoException().isThrownBy(() -> AotConditions.check(new MockEnvironment(), DEFAULTS));
		assertThatNoException().isThrownBy(() -> AotConditions
			.check(new MockEnvironment().withProperty("operator.events.enabled", "true"), DEFAULTS));
	}

	@Test
	void aValueOfTheEnvironmentThatDiffersFromTheBuildsFailsNamingTheProperty() {
		StandardEnvironment environment = new StandardEnvironment();
		String name = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
		environment.getPropertySources()
			.replace(name, new SystemEnvironmentPropertySource(name,
					Map.of("OPERATOR_METRICS_AUTH_ENABLED", "true", "OPERATOR_EVENTS_ENABLED", "false")));
		assertThatExceptionOfType(InvalidOperatorPropertyException.class)
			.isThrownBy(() -> AotConditions.check(environment, DEFAULTS))
			.satisfies((ex) -> {
				assertThat(ex.problems()).extracting(InvalidOperatorPropertyException.Problem::property)
					.containsExactly("operator.events.enabled", "operator.metrics.auth.enabled");
				assertThat(ex.problems().get(1).reason()).isEqualTo("it is true here, but was false when "
						+ "spring-boot:process-aot generated the application's beans, and Spring AOT "
						+ "(-Dspring.aot.enabled=true) keeps the beans of the build: the property would be ignored");
				assertThat(ex.action()).contains("start it without -Dspring.aot.enabled=true");
			});
	}

	@Test
	void everyBooleanPropertyConditionOfTheAutoConfigurationsIsChecked() throws IOException {
		Set<String> conditions = new TreeSet<>();
		for (String imports : List.of("org.springframework.boot.autoconfigure.AutoConfiguration.imports",
				"org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration.imports")) {
			for (String className : lines("META-INF/spring/" + imports)) {
				if (className.startsWith("io.kubeboot.")) {
					collect(load(className), conditions);
				}
			}
		}
		assertThat(conditions).isNotEmpty();
		assertThat(AotConditions.PROPERTIES.keySet()).containsExactlyInAnyOrderElementsOf(conditions);
	}

	private static void collect(Class<?> type, Set<String> conditions) {
		List<AnnotatedElement> elements = new ArrayList<>();
		elements.add(type);
		elements.addAll(List.of(type.getDeclaredMethods()));
		for (AnnotatedElement element : elements) {
			// repeatable: two on one class come in their container
			for (ConditionalOnBooleanProperty condition : element
				.getAnnotationsByType(ConditionalOnBooleanProperty.class)) {
				for (String name : (condition.name().length > 0) ? condition.name() : condition.value()) {
					conditions.add(condition.prefix().isEmpty() ? name : condition.prefix() + "." + name);
				}
			}
		}
		for (Class<?> nested : type.getDeclaredClasses()) {
			collect(nested, conditions);
		}
	}

	private static List<String> lines(String resource) throws IOException {
		List<String> lines = new ArrayList<>();
		for (var url : java.util.Collections.list(AotConditionsTests.class.getClassLoader().getResources(resource))) {
			try (InputStream in = url.openStream()) {
				for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
					if (!line.isBlank() && !line.startsWith("#")) {
						lines.add(line.trim());
					}
				}
			}
		}
		return lines;
	}

	private static Class<?> load(String name) {
		try {
			return Class.forName(name, false, AotConditionsTests.class.getClassLoader());
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
