package io.kubeboot.operator.health;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of one named check.
 *
 * @param name the check's name, such as {@code caches}
 * @param ok whether the check passed
 * @param reason why it failed, for a person to read; {@code null} when it passed
 */
public record HealthCheck(String name, boolean ok, @Nullable String reason) {

	static HealthCheck passed(String name) {
		return new HealthCheck(name, true, null);
	}

	static HealthCheck failed(String name, String reason) {
		return new HealthCheck(name, false, reason);
	}

}
