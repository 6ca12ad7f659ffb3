package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;

import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;

/**
 * What a controller of a manager uses unless its builder says otherwise, set through the
 * {@link ManagerBuilder}, the counterpart of controller-runtime's
 * {@code manager.Options.Controller}. A controller that names no namespace watches the
 * manager's ({@code Manager.namespaces()}).
 *
 * @param maxConcurrentReconciles the number of workers
 * @param priorityQueue whether the work queue is a priority queue, which hands out
 * changes before the requests that carry no news
 * @param rateLimiter creates the retry rate limiter, fresh for each controller start
 * @param queueMetrics creates the work queue's metrics from the controller name
 * @param metrics creates the controller's metrics from its name
 * @param cacheSyncTimeout how long a starting controller waits for its caches
 * @param reconcileTimeout how long one reconcile may run, zero for no limit
 * @param tracing where the controller's reconciles are traced
 */
public record ControllerDefaults(int maxConcurrentReconciles, boolean priorityQueue,
		Supplier<RateLimiter<Request>> rateLimiter, Function<String, WorkQueueMetrics> queueMetrics,
		Function<String, ControllerMetrics> metrics, Duration cacheSyncTimeout, Duration reconcileTimeout,
		OperatorTracing tracing) {
}
