package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import io.kubeboot.operator.cache.CacheTransform;
import io.kubeboot.operator.cache.ObjectBudgets;
import io.kubeboot.operator.cache.UnscopedInformerPolicy;
import io.kubeboot.operator.client.ClientConfig;
import io.kubeboot.operator.client.internal.WriteFence;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import org.jspecify.annotations.Nullable;

/**
 * The settings a {@link ManagerBuilder} collects, copied into each manager it builds. The
 * defaults and rules of the plain values are those of {@link ManagerConfig},
 * {@link ClientConfig} and {@link ControllerConfig}.
 */
final class ManagerSettings {

	Duration syncPeriod = ManagerConfig.DEFAULT.syncPeriod();

	Duration gracefulShutdownTimeout = ManagerConfig.DEFAULT.gracefulShutdownTimeout();

	Duration cacheSyncTimeout = ManagerConfig.DEFAULT.cacheSyncTimeout();

	Duration watchTimeout = ManagerConfig.DEFAULT.watchTimeout();

	Duration watchSilenceThreshold = ManagerConfig.DEFAULT.watchSilenceThreshold();

	Duration watchFailureThreshold = ManagerConfig.DEFAULT.watchFailureThreshold();

	int listPageSize = ManagerConfig.DEFAULT.listPageSize();

	boolean streamingLists = ManagerConfig.DEFAULT.streamingLists();

	/** The namespaces the caches watch; empty for all. */
	List<String> namespaces = ManagerConfig.DEFAULT.namespaces();

	int maxConcurrentReconciles = ControllerConfig.DEFAULT.maxConcurrentReconciles();

	boolean priorityQueue = ControllerConfig.DEFAULT.priorityQueue();

	Duration reconcileTimeout = ControllerConfig.DEFAULT.reconcileTimeout();

	Supplier<RateLimiter<Request>> rateLimiter = RateLimiters::defaultControllerRateLimiter;

	boolean stripManagedFields = ManagerConfig.DEFAULT.stripManagedFields();

	/**
	 * By the class objects are cached as; the default transform under KubernetesObject.
	 */
	Map<Class<?>, CacheTransform<?>> cacheTransforms = new LinkedHashMap<>();

	/** How many objects each informer should hold at most. */
	ObjectBudgets objectBudgets = ObjectBudgets.NONE;

	/**
	 * How informers of every Secret, ConfigMap, Pod or Event of the cluster are warned
	 * of.
	 */
	UnscopedInformerPolicy unscopedInformers = UnscopedInformerPolicy.DEFAULT;

	Function<String, WorkQueueMetrics> queueMetrics = (name) -> WorkQueueMetrics.NOOP;

	Function<String, ControllerMetrics> controllerMetrics = (name) -> ControllerMetrics.NOOP;

	@Nullable LeaderElectionConfig leaderElection;

	LeaderElectionListener leaderElectionListener = new LeaderElectionListener() {
	};

	List<Check> checks = new ArrayList<>();

	/**
	 * What runs beside the manager needs, declared with {@link ManagerBuilder#requires}.
	 */
	List<Permission> permissions = new ArrayList<>();

	String fieldManager = "operator";

	Duration clientTimeout = ClientConfig.DEFAULT.timeout();

	/** Requests per second of the client and the caches; {@code 0}: no limit. */
	double clientQps = ClientConfig.DEFAULT.qps();

	int clientBurst = ClientConfig.DEFAULT.burst();

	java.lang.Runnable lostLeaseExit = () -> Runtime.getRuntime().halt(1);

	@Nullable WebhookServer webhookServer;

	OperatorTracing tracing = OperatorTracing.NOOP;

	/**
	 * The fence of the leader-only runnables of a manager without leader election of its
	 * own: a fleet member's, whose writes stop with its home manager's leadership.
	 */
	@Nullable WriteFence leaderFence;

	/**
	 * Whether every kind of a per-kind object budget must be cached: not for a fleet
	 * member's manager, which caches only its fleet controllers' kinds.
	 */
	boolean budgetKindsRequired = true;

	boolean traceContextAnnotation = TraceContextAnnotation.DEFAULT_WRITTEN;

	ManagerSettings copy() {
		ManagerSettings copy = new ManagerSettings();
		copy.syncPeriod = this.syncPeriod;
		copy.gracefulShutdownTimeout = this.gracefulShutdownTimeout;
		copy.cacheSyncTimeout = this.cacheSyncTimeout;
		copy.watchTimeout = this.watchTimeout;
		copy.watchSilenceThreshold = this.watchSilenceThreshold;
		copy.watchFailureThreshold = this.watchFailureThreshold;
		copy.listPageSize = this.listPageSize;
		copy.streamingLists = this.streamingLists;
		copy.namespaces = this.namespaces;
		copy.maxConcurrentReconciles = this.maxConcurrentReconciles;
		copy.priorityQueue = this.priorityQueue;
		copy.reconcileTimeout = this.reconcileTimeout;
		copy.rateLimiter = this.rateLimiter;
		copy.stripManagedFields = this.stripManagedFields;
		copy.cacheTransforms = new LinkedHashMap<>(this.cacheTransforms);
		copy.objectBudgets = this.objectBudgets;
		copy.unscopedInformers = this.unscopedInformers;
		copy.queueMetrics = this.queueMetrics;
		copy.controllerMetrics = this.controllerMetrics;
		copy.leaderElection = this.leaderElection;
		copy.leaderElectionListener = this.leaderElectionListener;
		copy.lostLeaseExit = this.lostLeaseExit;
		copy.checks = List.copyOf(this.checks);
		copy.permissions = List.copyOf(this.permissions);
		copy.fieldManager = this.fieldManager;
		copy.clientTimeout = this.clientTimeout;
		copy.clientQps = this.clientQps;
		copy.clientBurst = this.clientBurst;
		copy.webhookServer = this.webhookServer;
		copy.tracing = this.tracing;
		copy.traceContextAnnotation = this.traceContextAnnotation;
		copy.leaderFence = this.leaderFence;
		copy.budgetKindsRequired = this.budgetKindsRequired;
		return copy;
	}

	/**
	 * Returns these settings for the manager of another cluster: its caches, client and
	 * controllers are set up as this manager's, but it elects no leader, serves no
	 * webhooks, adds none of this manager's checks or declared permissions, and watches
	 * all namespaces (the namespace set is the home cluster's); its leader-only runnables
	 * write under the given fence, the home manager's.
	 */
	ManagerSettings forOtherCluster(@Nullable WriteFence leaderFence) {
		ManagerSettings copy = copy();
		copy.leaderFence = leaderFence;
		copy.budgetKindsRequired = false;
		copy.namespaces = List.of();
		copy.leaderElection = null;
		copy.leaderElectionListener = new LeaderElectionListener() {
		};
		copy.checks = new ArrayList<>();
		copy.permissions = new ArrayList<>();
		copy.webhookServer = null;
		return copy;
	}

	/**
	 * Checks the plain values.
	 * @throws InvalidConfigException naming every value at fault
	 */
	void check() {
		ConfigChecks checks = new ConfigChecks();
		checks.include(() -> new ManagerConfig(this.syncPeriod, this.gracefulShutdownTimeout, this.cacheSyncTimeout,
				this.watchTimeout, this.watchSilenceThreshold, this.watchFailureThreshold, this.listPageSize,
				this.streamingLists, this.namespaces, this.stripManagedFields));
		checks.include(() -> new ClientConfig(this.clientQps, this.clientBurst, this.clientTimeout));
		checks.include(
				() -> new ControllerConfig(this.maxConcurrentReconciles, this.priorityQueue, this.reconcileTimeout));
		checks.throwIfAny();
	}

	ControllerDefaults controllerDefaults() {
		return new ControllerDefaults(this.maxConcurrentReconciles, this.priorityQueue, this.rateLimiter,
				this.queueMetrics, this.controllerMetrics, this.cacheSyncTimeout, this.reconcileTimeout, this.tracing);
	}

}
