package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import io.kubeboot.operator.cache.CacheTransform;
import io.kubeboot.operator.cache.internal.InformerCache;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import org.jspecify.annotations.Nullable;

/**
 * The settings a {@link ManagerBuilder} collects, copied into each manager it builds.
 */
final class ManagerSettings {

	Duration syncPeriod = Duration.ofHours(10);

	Duration gracefulShutdownTimeout = Duration.ofSeconds(30);

	Duration cacheSyncTimeout = Duration.ofMinutes(2);

	Duration watchTimeout = InformerCache.DEFAULT_WATCH_TIMEOUT;

	Duration watchSilenceThreshold = InformerCache.DEFAULT_SILENCE_THRESHOLD;

	int listPageSize = InformerCache.DEFAULT_LIST_PAGE_SIZE;

	boolean streamingLists = true;

	@Nullable String namespace;

	int maxConcurrentReconciles = 1;

	boolean priorityQueue = true;

	Supplier<RateLimiter<Request>> rateLimiter = RateLimiters::defaultControllerRateLimiter;

	boolean stripManagedFields = true;

	/**
	 * By the class objects are cached as; the default transform under KubernetesObject.
	 */
	Map<Class<?>, CacheTransform<?>> cacheTransforms = new LinkedHashMap<>();

	Function<String, WorkQueueMetrics> queueMetrics = (name) -> WorkQueueMetrics.NOOP;

	Function<String, ControllerMetrics> controllerMetrics = (name) -> ControllerMetrics.NOOP;

	@Nullable LeaderElectionConfig leaderElection;

	LeaderElectionListener leaderElectionListener = new LeaderElectionListener() {
	};

	List<Check> checks = new ArrayList<>();

	String fieldManager = "operator";

	Duration clientTimeout = Duration.ofSeconds(30);

	/** Requests per second of the client and the caches; {@code 0}: no limit. */
	double clientQps;

	int clientBurst = 10;

	java.lang.Runnable lostLeaseExit = () -> Runtime.getRuntime().halt(1);

	@Nullable WebhookServer webhookServer;

	ManagerSettings copy() {
		ManagerSettings copy = new ManagerSettings();
		copy.syncPeriod = this.syncPeriod;
		copy.gracefulShutdownTimeout = this.gracefulShutdownTimeout;
		copy.cacheSyncTimeout = this.cacheSyncTimeout;
		copy.watchTimeout = this.watchTimeout;
		copy.watchSilenceThreshold = this.watchSilenceThreshold;
		copy.listPageSize = this.listPageSize;
		copy.streamingLists = this.streamingLists;
		copy.namespace = this.namespace;
		copy.maxConcurrentReconciles = this.maxConcurrentReconciles;
		copy.priorityQueue = this.priorityQueue;
		copy.rateLimiter = this.rateLimiter;
		copy.stripManagedFields = this.stripManagedFields;
		copy.cacheTransforms = new LinkedHashMap<>(this.cacheTransforms);
		copy.queueMetrics = this.queueMetrics;
		copy.controllerMetrics = this.controllerMetrics;
		copy.leaderElection = this.leaderElection;
		copy.leaderElectionListener = this.leaderElectionListener;
		copy.lostLeaseExit = this.lostLeaseExit;
		copy.checks = List.copyOf(this.checks);
		copy.fieldManager = this.fieldManager;
		copy.clientTimeout = this.clientTimeout;
		copy.clientQps = this.clientQps;
		copy.clientBurst = this.clientBurst;
		copy.webhookServer = this.webhookServer;
		return copy;
	}

	ControllerDefaults controllerDefaults() {
		return new ControllerDefaults(this.namespace, this.maxConcurrentReconciles, this.priorityQueue,
				this.rateLimiter, this.queueMetrics, this.controllerMetrics, this.cacheSyncTimeout);
	}

}
