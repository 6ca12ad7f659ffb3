package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;

import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import org.jspecify.annotations.Nullable;

/**
 * What a controller of a manager uses unless its builder says otherwise, set through the
 * {@link ManagerBuilder}, the counterpart of controller-runtime's
 * {@code manager.Options.Controller}.
 *
 * @param namespace the namespace to watch, or {@code null} for all
 * @param maxConcurrentReconciles the number of workers
 * @param priorityQueue whether the work queue is a priority queue, which hands out
 * changes before the requests that carry no news
 * @param rateLimiter creates the retry rate limiter, fresh for each controller start
 * @param queueMetrics creates the work queue's metrics from the controller name
 * @param metrics creates the controller's metrics from its name
 * @param cacheSyncTimeout how long a starting controller waits for its caches
 * @param tracing where the controller's reconciles are traced
 */
public record ControllerDefaults(@Nullable String namespace, int maxConcurrentReconciles, boolean priorityQueue,
		Supplier<RateLimiter<Request>> rateLimiter, Function<String, WorkQueueMetrics> queueMetrics,
		Function<String, ControllerMetrics> metrics, Duration cacheSyncTimeout, OperatorTracing tracing) {

	/**
	 * Creates defaults whose reconciles are not traced.
	 * @param namespace the namespace to watch, or {@code null} for all
	 * @param maxConcurrentReconciles the number of workers
	 * @param priorityQueue whether the work queue is a priority queue
	 * @param rateLimiter creates the retry rate limiter
	 * @param queueMetrics creates the work queue's metrics from the controller name
	 * @param metrics creates the controller's metrics from its name
	 * @param cacheSyncTimeout how long a starting controller waits for its caches
	 */
	public ControllerDefaults(@Nullable String namespace, int maxConcurrentReconciles, boolean priorityQueue,
			Supplier<RateLimiter<Request>> rateLimiter, Function<String, WorkQueueMetrics> queueMetrics,
			Function<String, ControllerMetrics> metrics, Duration cacheSyncTimeout) {
		this(namespace, maxConcurrentReconciles, priorityQueue, rateLimiter, queueMetrics, metrics, cacheSyncTimeout,
				OperatorTracing.NOOP);
	}

}
