package io.kubeboot.operator.manager;

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
 */
public record ControllerConfig(int maxConcurrentReconciles, boolean priorityQueue) {

	/**
	 * controller-runtime's values: one request at a time, a priority queue.
	 */
	public static final ControllerConfig DEFAULT = new ControllerConfig(1, true);

	/**
	 * Creates the configuration.
	 * @throws InvalidConfigException naming every value that breaks the rules
	 */
	public ControllerConfig {
		ConfigChecks checks = new ConfigChecks();
		checks.atLeast("maxConcurrentReconciles", maxConcurrentReconciles, 1);
		checks.throwIfAny();
	}

}
