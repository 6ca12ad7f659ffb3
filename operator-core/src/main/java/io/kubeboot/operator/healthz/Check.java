package io.kubeboot.operator.healthz;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A named {@link Checker} and the probe it belongs to: liveness ({@code /healthz}:
 * failing means restart me) or readiness ({@code /readyz}: failing means send me no
 * traffic). Added to a manager with {@code ManagerBuilder.addCheck} or, with the starter,
 * declared as a bean:
 *
 * <pre class="code">
 * &#64;Bean
 * Check bucketStoreReachable(BucketStore store) {
 *     return Check.readiness("bucket-store", store::verifyConnected);
 * }
 * </pre>
 *
 * @param name the check's name, shown beside its outcome; lower-case letters, digits and
 * dashes
 * @param probe the probe it belongs to
 * @param checker the check
 */
public record Check(String name, Probe probe, Checker checker) {

	private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

	/**
	 * Validates the check.
	 * @throws IllegalArgumentException if the name is not lower-case letters, digits and
	 * dashes
	 */
	public Check {
		Objects.requireNonNull(name, "name must not be null");
		Objects.requireNonNull(probe, "probe must not be null");
		Objects.requireNonNull(checker, "checker must not be null");
		if (!NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("Health check name '" + name
					+ "' must consist of lower-case letters, digits and dashes, such as 'bucket-store'");
		}
	}

	/**
	 * Creates a liveness check ({@code /healthz}).
	 * @param name the check's name
	 * @param checker the check
	 * @return the check
	 */
	public static Check liveness(String name, Checker checker) {
		return new Check(name, Probe.LIVENESS, checker);
	}

	/**
	 * Creates a readiness check ({@code /readyz}).
	 * @param name the check's name
	 * @param checker the check
	 * @return the check
	 */
	public static Check readiness(String name, Checker checker) {
		return new Check(name, Probe.READINESS, checker);
	}

	/**
	 * Runs the check, turning an exception into a failed outcome.
	 * @return the outcome
	 */
	public CheckResult run() {
		try {
			this.checker.check();
			return new CheckResult(this.name, true, null);
		}
		catch (Exception ex) {
			String reason = (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
			return new CheckResult(this.name, false, reason);
		}
	}

	/**
	 * The probe a check belongs to.
	 */
	public enum Probe {

		/** {@code /healthz}, the liveness probe: failing means restart me. */
		LIVENESS,

		/** {@code /readyz}, the readiness probe: failing means send me no traffic. */
		READINESS

	}

}
