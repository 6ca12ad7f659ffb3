package io.kubeboot.operator.manager;

import java.time.Duration;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;

/**
 * How a controller runs, the counterpart of controller-runtime's
 * {@code config.Controller}: a manager's defaults for its controllers, or one
 * controller's own values. The constructor names every value at fault.
 *
 * @param maxConcurrentReconciles how many requests the controller reconciles at once; at
 * least 1
 * @param priorityQueue whether its work queue is a priority queue, which hands out the
 * changes seen on the watches before the requests that carry no news
 * @param reconcileTimeout how long one reconcile may run before it is interrupted and its
 * calls to the API server are refused; zero for no limit, not negative
 */
public record ControllerConfig(int maxConcurrentReconciles, boolean priorityQueue, Duration reconcileTimeout) {

	/**
	 * controller-runtime's values: one request at a time, a priority queue, no reconcile
	 * timeout.
	 */
	public static final ControllerConfig DEFAULT = new ControllerConfig(1, true, Duration.ZERO);

	/**
	 * Creates the configuration.
	 * @throws InvalidConfigException naming every value that breaks the rules
	 */
	public ControllerConfig {
		ConfigChecks checks = new ConfigChecks();
		checks.atLeast("maxConcurrentReconciles", maxConcurrentReconciles, 1);
		checks.notNegative("reconcileTimeout", reconcileTimeout);
		checks.throwIfAny();
	}

}
