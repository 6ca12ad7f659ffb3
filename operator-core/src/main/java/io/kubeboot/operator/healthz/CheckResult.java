package io.kubeboot.operator.healthz;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of one named check.
 *
 * @param name the check's name, such as {@code caches}
 * @param ok whether the check passed
 * @param reason why it failed, for a person to read; {@code null} when it passed
 */
public record CheckResult(String name, boolean ok, @Nullable String reason) {

	/**
	 * Creates a passed outcome.
	 * @param name the check's name
	 * @return the outcome
	 */
	public static CheckResult passed(String name) {
		return new CheckResult(name, true, null);
	}

	/**
	 * Creates a failed outcome.
	 * @param name the check's name
	 * @param reason why it failed
	 * @return the outcome
	 */
	public static CheckResult failed(String name, String reason) {
		return new CheckResult(name, false, reason);
	}

}
