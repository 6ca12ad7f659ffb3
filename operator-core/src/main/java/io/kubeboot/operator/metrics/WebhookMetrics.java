package io.kubeboot.operator.metrics;

/**
 * Receives the measurements of the webhook server; they map to controller-runtime's
 * {@code controller_runtime_webhook_*} series, labelled with the webhook's path.
 * Implementations must be thread-safe, fast and must not throw. Every method does nothing
 * by default.
 */
public interface WebhookMetrics {

	/** Metrics that discard every measurement. */
	WebhookMetrics NOOP = new WebhookMetrics() {
	};

	/**
	 * Called when a request arrives
	 * ({@code controller_runtime_webhook_requests_in_flight} goes up).
	 * @param webhook the webhook's path
	 */
	default void started(String webhook) {
	}

	/**
	 * Called when a request was answered
	 * ({@code controller_runtime_webhook_requests_total} and
	 * {@code controller_runtime_webhook_latency_seconds}; in flight goes down).
	 * @param webhook the webhook's path
	 * @param code the HTTP status code of the answer
	 * @param nanos how long the request took
	 */
	default void answered(String webhook, int code, long nanos) {
	}

	/**
	 * Called when user code of a webhook threw something that is not a denial
	 * ({@code controller_runtime_webhook_panics_total}).
	 * @param webhook the webhook's path
	 */
	default void panicked(String webhook) {
	}

}
