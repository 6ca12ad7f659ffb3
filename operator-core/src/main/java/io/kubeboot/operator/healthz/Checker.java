package io.kubeboot.operator.healthz;

/**
 * One health check of an operator's own, the counterpart of controller-runtime's
 * {@code healthz.Checker}: it passes by returning and fails by throwing, with the
 * exception's message as the reason a person reads in {@code /healthz?verbose},
 * {@code /readyz?verbose} and the Actuator health groups.
 * <p>
 * Probes call checks often and concurrently: a check must be cheap, thread-safe and must
 * not block on the network (read state that something else keeps up to date).
 */
@FunctionalInterface
public interface Checker {

	/**
	 * Runs the check.
	 * @throws Exception if the check fails; its message says why
	 */
	void check() throws Exception;

}
