package io.kubeboot.operator.client;

import java.time.Duration;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;

/**
 * How a manager's client and caches send their requests to the API server: client-go's
 * client-side token bucket, off by default as in controller-runtime (the API server's
 * priority and fairness throttles with 429 answers, which are retried after their
 * {@code Retry-After}), and the longest one call may take. The constructor names every
 * value at fault.
 *
 * @param qps requests per second on average, {@code 0} for no client-side limit
 * @param burst requests sent at once above that rate; at least 1
 * @param timeout the longest one call of the client may take, retries of throttled calls
 * included; positive
 */
public record ClientConfig(double qps, int burst, Duration timeout) {

	/**
	 * The defaults: no client-side limit (a burst of 10 once a rate is set), calls of at
	 * most 30s.
	 */
	public static final ClientConfig DEFAULT = new ClientConfig(0, 10, Duration.ofSeconds(30));

	/**
	 * Creates the configuration.
	 * @throws InvalidConfigException naming every value that breaks the rules
	 */
	public ClientConfig {
		ConfigChecks checks = new ConfigChecks();
		checks.check(qps >= 0 && !Double.isInfinite(qps), "qps", qps, "must be 0 (no limit) or a positive number");
		checks.atLeast("burst", burst, 1);
		checks.positive("timeout", timeout);
		checks.throwIfAny();
	}

}
