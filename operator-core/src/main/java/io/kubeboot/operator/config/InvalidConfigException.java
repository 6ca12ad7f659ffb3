package io.kubeboot.operator.config;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when configuration values break the rules of what they configure. Names every
 * value at fault by its setting, the record component or parameter it was given as (such
 * as {@code renewDeadline}), so that a caller can name it as its users wrote it.
 */
public class InvalidConfigException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final transient List<Violation> violations;

	/**
	 * Creates the exception.
	 * @param violations the values at fault, at least one
	 */
	public InvalidConfigException(List<Violation> violations) {
		super(violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
		if (violations.isEmpty()) {
			throw new IllegalArgumentException("violations must not be empty");
		}
		this.violations = List.copyOf(violations);
	}

	/**
	 * Returns the values at fault, in the order they were checked.
	 * @return the violations
	 */
	public List<Violation> violations() {
		return this.violations;
	}

	/**
	 * One value at fault.
	 *
	 * @param setting the name of the setting, such as {@code renewDeadline}
	 * @param value its value
	 * @param rule what it must be, such as {@code must be positive}, or, when it is
	 * compared with another setting, {@code must be less than}
	 * @param other the setting it is compared with, or {@code null}
	 * @param otherValue the value of that setting
	 */
	public record Violation(String setting, @Nullable Object value, String rule, @Nullable String other,
			@Nullable Object otherValue) {

		/**
		 * Creates a violation of a rule about one setting.
		 * @param setting the setting
		 * @param value its value
		 * @param rule what it must be
		 */
		public Violation(String setting, @Nullable Object value, String rule) {
			this(setting, value, rule, null, null);
		}

		/**
		 * Describes what is wrong, naming the setting compared with and showing its value
		 * the caller's way: {@code must be less than leaseDuration (PT15S)}, or
		 * {@code must be less than operator.leader-election.lease-duration (15s)}.
		 * @param names the name to show for a setting
		 * @param values the text to show for a value
		 * @return the reason
		 */
		public String reason(Function<String, String> names, Function<@Nullable Object, String> values) {
			return (this.other != null)
					? this.rule + " " + names.apply(this.other) + " (" + values.apply(this.otherValue) + ")"
					: this.rule;
		}

		@Override
		public String toString() {
			return this.setting + " (" + this.value + ") " + reason(Function.identity(), String::valueOf);
		}

	}

}
