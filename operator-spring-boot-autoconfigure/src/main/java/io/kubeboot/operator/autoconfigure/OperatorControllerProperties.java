package io.kubeboot.operator.autoconfigure;

import java.time.Duration;

import io.kubeboot.operator.manager.ControllerConfig;
import io.kubeboot.operator.workqueue.RateLimiters;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Defaults of every controller, under {@code operator.controller}; the settings of one
 * controller are under {@code operator.controllers.<name>} ({@link OperatorProperties}).
 * The values follow the rules of {@link ControllerConfig} and of
 * {@link RateLimiters#controllerRateLimiter}.
 */
@ConfigurationProperties(prefix = "operator.controller", ignoreUnknownFields = false)
public class OperatorControllerProperties {

	/**
	 * How many requests a controller reconciles at once.
	 */
	private int maxConcurrentReconciles = 1;

	/**
	 * Whether a controller's work queue is a priority queue: requests that carry no news
	 * (every object when the controller starts, resyncs, periodic triggers) wait behind
	 * the changes seen on the watches. When false, the queue is first in, first out.
	 */
	private boolean priorityQueue = true;

	/**
	 * How long one reconcile may run before its worker is interrupted and its calls to
	 * the API server are cancelled and refused; it is then counted in
	 * controller_runtime_reconcile_timeouts_total, and retried with backoff if it fails.
	 * 0 for no limit.
	 */
	private Duration reconcileTimeout = Duration.ofSeconds(0);

	/**
	 * Retry rate limiting.
	 */
	private final RateLimiter rateLimiter = new RateLimiter();

	public int getMaxConcurrentReconciles() {
		return this.maxConcurrentReconciles;
	}

	public void setMaxConcurrentReconciles(int maxConcurrentReconciles) {
		this.maxConcurrentReconciles = maxConcurrentReconciles;
	}

	public boolean isPriorityQueue() {
		return this.priorityQueue;
	}

	public void setPriorityQueue(boolean priorityQueue) {
		this.priorityQueue = priorityQueue;
	}

	public Duration getReconcileTimeout() {
		return this.reconcileTimeout;
	}

	public void setReconcileTimeout(Duration reconcileTimeout) {
		this.reconcileTimeout = reconcileTimeout;
	}

	public RateLimiter getRateLimiter() {
		return this.rateLimiter;
	}

	/**
	 * Retry rate limiting: per-request exponential backoff, and an overall token bucket
	 * shared by all requests of a controller; the longer of the two delays applies.
	 */
	public static class RateLimiter {

		/**
		 * Delay before the first retry of a request; it doubles with every failure.
		 */
		private Duration baseDelay = Duration.ofMillis(5);

		/**
		 * Longest delay between retries of a request.
		 */
		private Duration maxDelay = Duration.ofSeconds(1000);

		/**
		 * Retries per second allowed across all requests of a controller.
		 */
		private double qps = 10;

		/**
		 * Retries allowed at once above the steady rate.
		 */
		private int burst = 100;

		public Duration getBaseDelay() {
			return this.baseDelay;
		}

		public void setBaseDelay(Duration baseDelay) {
			this.baseDelay = baseDelay;
		}

		public Duration getMaxDelay() {
			return this.maxDelay;
		}

		public void setMaxDelay(Duration maxDelay) {
			this.maxDelay = maxDelay;
		}

		public double getQps() {
			return this.qps;
		}

		public void setQps(double qps) {
			this.qps = qps;
		}

		public int getBurst() {
			return this.burst;
		}

		public void setBurst(int burst) {
			this.burst = burst;
		}

	}

}
