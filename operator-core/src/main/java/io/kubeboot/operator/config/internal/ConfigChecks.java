package io.kubeboot.operator.config.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.InvalidConfigException.Violation;
import org.jspecify.annotations.Nullable;

/**
 * Collects the violations of a configuration record's values, so that its constructor
 * reports every one at once. Each check returns whether the value passed, for the checks
 * that compare it with another value.
 */
public final class ConfigChecks {

	/**
	 * Kubernetes' rule for a namespace, an RFC 1123 label.
	 */
	public static final String DNS_LABEL_RULE = "must be a lowercase RFC 1123 label: at most 63 characters of a-z, "
			+ "0-9 and '-', starting and ending with a letter or digit";

	/**
	 * Kubernetes' rule for the name of most objects (such as a Lease), an RFC 1123
	 * subdomain.
	 */
	public static final String DNS_SUBDOMAIN_RULE = "must be a lowercase RFC 1123 subdomain: at most 253 characters "
			+ "of a-z, 0-9, '-' and '.', starting and ending with a letter or digit";

	private static final Pattern QUALIFIED_NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

	private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	private static final Pattern DNS_SUBDOMAIN = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	private final List<Violation> violations = new ArrayList<>();

	/**
	 * Records a violation unless the value is valid.
	 * @param valid whether the value keeps the rule
	 * @param setting the setting
	 * @param value its value
	 * @param rule what it must be
	 * @return {@code valid}
	 */
	public boolean check(boolean valid, String setting, @Nullable Object value, String rule) {
		if (!valid) {
			this.violations.add(new Violation(setting, value, rule));
		}
		return valid;
	}

	/**
	 * Records a violation of a rule that compares two settings unless the value is valid.
	 * @param valid whether the value keeps the rule
	 * @param setting the setting at fault
	 * @param value its value
	 * @param rule what it must be, such as {@code must be less than}
	 * @param other the setting it is compared with
	 * @param otherValue that setting's value
	 * @return {@code valid}
	 */
	public boolean compare(boolean valid, String setting, @Nullable Object value, String rule, String other,
			@Nullable Object otherValue) {
		if (!valid) {
			this.violations.add(new Violation(setting, value, rule, other, otherValue));
		}
		return valid;
	}

	/**
	 * Checks that a value is set.
	 * @param setting the setting
	 * @param value its value
	 * @return whether it is
	 */
	public boolean notNull(String setting, @Nullable Object value) {
		return check(value != null, setting, null, "must be set");
	}

	/**
	 * Checks that a duration is set and longer than zero.
	 * @param setting the setting
	 * @param value its value
	 * @return whether it is
	 */
	public boolean positive(String setting, @Nullable Duration value) {
		return notNull(setting, value)
				&& check(!value.isNegative() && !value.isZero(), setting, value, "must be positive");
	}

	/**
	 * Checks that a duration is set and not negative.
	 * @param setting the setting
	 * @param value its value
	 * @return whether it is
	 */
	public boolean notNegative(String setting, @Nullable Duration value) {
		return notNull(setting, value) && check(!value.isNegative(), setting, value, "must not be negative");
	}

	/**
	 * Checks that a number is at least a minimum.
	 * @param setting the setting
	 * @param value its value
	 * @param minimum the smallest value allowed
	 * @return whether it is
	 */
	public boolean atLeast(String setting, int value, int minimum) {
		return check(value >= minimum, setting, value, "must be at least " + minimum);
	}

	/**
	 * Checks that a text is set and not blank.
	 * @param setting the setting
	 * @param value its value
	 * @return whether it is
	 */
	public boolean notBlank(String setting, @Nullable String value) {
		return check(value != null && !value.isBlank(), setting, value, "must not be blank");
	}

	/**
	 * Checks that a text is an RFC 1123 label, such as a namespace.
	 * @param setting the setting
	 * @param value its value
	 * @return whether it is
	 */
	public boolean dnsLabel(String setting, @Nullable String value) {
		return notBlank(setting, value) && check(isDnsLabel(value), setting, value, DNS_LABEL_RULE);
	}

	/**
	 * Checks that a text is an RFC 1123 subdomain, such as the name of a Lease.
	 * @param setting the setting
	 * @param value its value
	 * @return whether it is
	 */
	public boolean dnsSubdomain(String setting, @Nullable String value) {
		return notBlank(setting, value) && check(isDnsSubdomain(value), setting, value, DNS_SUBDOMAIN_RULE);
	}

	/**
	 * Creates another configuration record, adding its violations to these.
	 * @param construction creates the record
	 * @return whether it had none
	 */
	public boolean include(Runnable construction) {
		try {
			construction.run();
			return true;
		}
		catch (InvalidConfigException ex) {
			this.violations.addAll(ex.violations());
			return false;
		}
	}

	/**
	 * Throws if any check failed.
	 * @throws InvalidConfigException naming every value at fault
	 */
	public void throwIfAny() {
		if (!this.violations.isEmpty()) {
			throw new InvalidConfigException(this.violations);
		}
	}

	/**
	 * Whether a text is an RFC 1123 label: at most 63 characters of a-z, 0-9 and '-',
	 * starting and ending with a letter or digit.
	 * @param value the text
	 * @return {@code true} if it is
	 */
	public static boolean isDnsLabel(String value) {
		return DNS_LABEL.matcher(value).matches();
	}

	/**
	 * Whether a text is an RFC 1123 subdomain: at most 253 characters, labels separated
	 * by dots.
	 * @param value the text
	 * @return {@code true} if it is
	 */
	public static boolean isDnsSubdomain(String value) {
		return value.length() <= 253 && DNS_SUBDOMAIN.matcher(value).matches();
	}

	/**
	 * Whether a text is a Kubernetes qualified name (a label key, a
	 * {@code reportingController}): a name of at most 63 characters of letters, digits,
	 * '-', '_' and '.', starting and ending with a letter or digit, optionally after a
	 * DNS subdomain and a '/'.
	 * @param value the text
	 * @return {@code true} if it is
	 */
	public static boolean isQualifiedName(String value) {
		int slash = value.indexOf('/');
		if (slash >= 0 && !isDnsSubdomain(value.substring(0, slash))) {
			return false;
		}
		return QUALIFIED_NAME.matcher(value.substring(slash + 1)).matches();
	}

}
