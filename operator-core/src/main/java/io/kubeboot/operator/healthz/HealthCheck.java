package io.kubeboot.operator.healthz;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of one named check.
 *
 * @param name the check's name, such as {@code caches}
 * @param ok whether the check passed
 * @param reason why it failed, for a person to read; {@code null} when it passed
 */
public record HealthCheck(String name, boolean ok, @Nullable String reason) {

	/**
	 * Creates a passed outcome.
	 * @param name the check's name
	 * @return the outcome
	 */
	public static HealthCheck passed(String name) {
		return new HealthCheck(name, true, null);
	}

	/**
	 * Creates a failed outcome.
	 * @param name the check's name
	 * @param reason why it failed
	 * @return the outcome
	 */
	public static HealthCheck failed(String name, String reason) {
		return new HealthCheck(name, false, reason);
	}

}
