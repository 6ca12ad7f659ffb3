package io.kubeboot.operator.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.InvalidConfigException.Violation;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.origin.Origin;

/**
 * Collects the {@code operator.*} properties at fault, each named as written in
 * {@code application.yaml} with its value as written and where it was set. The rules are
 * the core's: a property's value is handed to the core's configuration record, and each
 * setting the record rejects ({@code renewDeadline}) is named as the property it came
 * from ({@code operator.leader-election.renew-deadline}).
 */
final class PropertyProblems {

	private final Iterable<ConfigurationPropertySource> sources;

	private final List<Problem> problems = new ArrayList<>();

	/**
	 * Creates an empty collection.
	 * @param sources where the properties are set, to tell their values and origins
	 */
	PropertyProblems(Iterable<ConfigurationPropertySource> sources) {
		this.sources = sources;
	}

	/**
	 * Creates a configuration record of the core from properties, adding every value it
	 * rejects.
	 * @param prefix the prefix of the properties, such as
	 * {@code operator.leader-election}
	 * @param properties the property below the prefix of each setting whose name is not
	 * the property's in camel case, such as {@code name} to {@code lease-name}
	 * @param config creates the record
	 */
	void check(String prefix, Map<String, String> properties, Runnable config) {
		try {
			config.run();
		}
		catch (InvalidConfigException ex) {
			add(prefix, properties, ex);
		}
	}

	/**
	 * Adds every value a configuration record of the core rejected.
	 * @param prefix the prefix of the properties, such as
	 * {@code operator.leader-election}
	 * @param properties the property below the prefix of each setting whose name is not
	 * the property's in camel case
	 * @param rejected what the record threw
	 */
	void add(String prefix, Map<String, String> properties, InvalidConfigException rejected) {
		for (Violation violation : rejected.violations()) {
			String reason = violation.reason((setting) -> property(prefix, properties, setting), this::shown);
			add(property(prefix, properties, violation.setting()), violation.value(), reason);
		}
	}

	/**
	 * Adds a property at fault.
	 * @param property the property, as written in {@code application.yaml}
	 * @param value its value, shown unless the application set the property
	 * @param reason what is wrong with it
	 */
	void add(String property, @Nullable Object value, String reason) {
		ConfigurationProperty set = find(property);
		if (set != null) {
			this.problems.add(new Problem(property, set.getValue(), Origin.from(set), reason));
		}
		else {
			this.problems.add(new Problem(property, (value != null) ? shown(value) : null, null, reason));
		}
	}

	/**
	 * Returns the property as the application set it, if it did.
	 * @param property the property
	 * @return the property, or {@code null}
	 */
	@Nullable ConfigurationProperty find(String property) {
		if (!ConfigurationPropertyName.isValid(property)) {
			return null;
		}
		ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
		for (ConfigurationPropertySource source : this.sources) {
			ConfigurationProperty found = source.getConfigurationProperty(name);
			if (found != null) {
				return found;
			}
		}
		return null;
	}

	/**
	 * Whether no property is at fault.
	 * @return {@code true} if none was added
	 */
	boolean isEmpty() {
		return this.problems.isEmpty();
	}

	/**
	 * Fails if any property is at fault.
	 * @param action what to do about it
	 * @throws InvalidOperatorPropertyException naming every property at fault
	 */
	void throwIfAny(String action) {
		if (!this.problems.isEmpty()) {
			throw exception(action);
		}
	}

	/**
	 * Returns the failure that names every property at fault.
	 * @param action what to do about it
	 * @return the exception
	 */
	InvalidOperatorPropertyException exception(String action) {
		String message = this.problems.stream()
			.map((problem) -> problem.property() + ((problem.value() != null) ? " (" + problem.value() + ")" : "") + " "
					+ problem.reason())
			.collect(Collectors.joining("\n"));
		return new InvalidOperatorPropertyException(message, this.problems, action);
	}

	private static String property(String prefix, Map<String, String> properties, String setting) {
		return prefix + "." + properties.getOrDefault(setting, DataObjectPropertyName.toDashedForm(setting));
	}

	private String shown(@Nullable Object value) {
		return (value instanceof Duration duration) ? format(duration) : String.valueOf(value);
	}

	/**
	 * Formats a duration the way it is written in {@code application.yaml}: {@code 15s},
	 * {@code 2m}, {@code 1500ms}.
	 * @param duration the duration
	 * @return the duration in the largest unit that holds it exactly
	 */
	static String format(Duration duration) {
		long millis = duration.toMillis();
		if (!Duration.ofMillis(millis).equals(duration)) {
			return duration.toString();
		}
		if (millis == 0) {
			return "0s";
		}
		long[] units = { 86_400_000, 3_600_000, 60_000, 1000 };
		String[] suffixes = { "d", "h", "m", "s" };
		for (int i = 0; i < units.length; i++) {
			if (millis % units[i] == 0) {
				return (millis / units[i]) + suffixes[i];
			}
		}
		return millis + "ms";
	}

}
