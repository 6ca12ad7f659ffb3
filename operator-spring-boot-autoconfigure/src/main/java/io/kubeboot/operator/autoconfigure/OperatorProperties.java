package io.kubeboot.operator.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.manager.ControllerConfig;
import io.kubeboot.operator.manager.ManagerConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the operator's manager, under {@code operator}, and of each
 * controller, under {@code operator.controllers.<name>}. The other groups have classes of
 * their own: {@link OperatorClientProperties}, {@link OperatorControllerProperties},
 * {@link OperatorLeaderElectionProperties}, {@link OperatorShardingProperties},
 * {@link OperatorHealthProperties}, {@link OperatorEventsProperties},
 * {@link OperatorWebhookProperties} and {@link OperatorCacheProperties}. The manager's
 * values follow the rules of {@link ManagerConfig}, a controller's those of
 * {@link ControllerConfig}. Unknown keys under {@code operator} and invalid values fail
 * start-up with a message naming the property as written in {@code application.yaml},
 * such as {@code operator.leader-election.renew-deadline}.
 */
@ConfigurationProperties("operator")
public class OperatorProperties {

	// unknown keys are reported by OperatorPropertiesCheck rather than the binder
	// (ignoreUnknownFields = false), which would reject the keys of the other groups

	/**
	 * Whether to create the operator's manager.
	 */
	private boolean enabled = true;

	/**
	 * Whether the manager starts with the application context. When false, start it
	 * yourself through the ManagerLifecycle bean.
	 */
	private boolean autoStartup = true;

	/**
	 * How often every cached object is delivered to the controllers again, as if it had
	 * changed. 0 disables the resync.
	 */
	private Duration syncPeriod = Duration.ofHours(10);

	/**
	 * How long in-flight reconciles and runnables may take to finish on shutdown before
	 * they are interrupted. A negative value waits without bound.
	 */
	private Duration gracefulShutdownTimeout = Duration.ofSeconds(30);

	/**
	 * How long start-up waits for the caches to sync before it fails, naming each cache
	 * that did not sync and its last error.
	 */
	private Duration cacheSyncTimeout = Duration.ofMinutes(2);

	/**
	 * Longest duration of one watch request before it is renewed; quiet but healthy
	 * watches show activity at least this often.
	 */
	private Duration watchTimeout = Duration.ofMinutes(2);

	/**
	 * How long an informer may see nothing from the API server (no event, no renewed
	 * watch) before it is replaced with a fresh list and watch. Must be longer than
	 * watch-timeout.
	 */
	private Duration watchSilenceThreshold = Duration.ofMinutes(3);

	/**
	 * Most objects one list request of the caches asks for. Lists are read in pages of
	 * this size wherever the API server pages them: relists after the watched
	 * resourceVersion expired, and every list of a kind it keeps no watch cache for.
	 */
	private int listPageSize = 500;

	/**
	 * Whether the caches stream their lists (Kubernetes' WatchList, on by default from
	 * 1.34) where the API server can, instead of reading them in pages. An API server
	 * that cannot is asked for pages after its first refusal.
	 */
	private boolean streamingLists = true;

	/**
	 * One namespace every controller watches unless it names its own: the same as
	 * operator.namespaces with this one namespace, which cannot be set too. Empty watches
	 * all namespaces.
	 */
	private @Nullable String namespace;

	/**
	 * Namespaces every controller watches unless it names its own, each with a list and
	 * watch of its own per kind (a cluster-scoped kind is watched once), so RBAC is
	 * needed in these namespaces only. Empty, with operator.namespace unset, watches all
	 * namespaces. The set can change while the operator runs: through the
	 * WatchedNamespaces bean, or a refresh of this property by Spring Cloud. Cannot be
	 * set together with operator.namespace.
	 */
	private List<String> namespaces = new ArrayList<>();

	/**
	 * Whether cached objects drop metadata.managedFields, which reconcilers rarely read,
	 * to save memory. client-java's JSON already leaves them out when it parses, so this
	 * matters only with an ApiClient whose JSON was replaced.
	 */
	private boolean stripManagedFields = true;

	/**
	 * Whether a non-daemon thread keeps the JVM alive while the manager runs, so an idle
	 * operator does not exit when only daemon threads remain.
	 */
	private boolean keepAlive = true;

	/**
	 * Per-controller settings, by controller name; they override the defaults and the
	 * values given in the @Reconciles annotation. A name that is no @Reconciles
	 * controller's fails start-up.
	 */
	private final Map<String, ControllerOverrides> controllers = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public boolean isAutoStartup() {
		return this.autoStartup;
	}

	public void setAutoStartup(boolean autoStartup) {
		this.autoStartup = autoStartup;
	}

	public Duration getSyncPeriod() {
		return this.syncPeriod;
	}

	public void setSyncPeriod(Duration syncPeriod) {
		this.syncPeriod = syncPeriod;
	}

	public Duration getGracefulShutdownTimeout() {
		return this.gracefulShutdownTimeout;
	}

	public void setGracefulShutdownTimeout(Duration gracefulShutdownTimeout) {
		this.gracefulShutdownTimeout = gracefulShutdownTimeout;
	}

	public Duration getCacheSyncTimeout() {
		return this.cacheSyncTimeout;
	}

	public void setCacheSyncTimeout(Duration cacheSyncTimeout) {
		this.cacheSyncTimeout = cacheSyncTimeout;
	}

	public Duration getWatchTimeout() {
		return this.watchTimeout;
	}

	public void setWatchTimeout(Duration watchTimeout) {
		this.watchTimeout = watchTimeout;
	}

	public Duration getWatchSilenceThreshold() {
		return this.watchSilenceThreshold;
	}

	public void setWatchSilenceThreshold(Duration watchSilenceThreshold) {
		this.watchSilenceThreshold = watchSilenceThreshold;
	}

	public int getListPageSize() {
		return this.listPageSize;
	}

	public void setListPageSize(int listPageSize) {
		this.listPageSize = listPageSize;
	}

	public boolean isStreamingLists() {
		return this.streamingLists;
	}

	public void setStreamingLists(boolean streamingLists) {
		this.streamingLists = streamingLists;
	}

	public @Nullable String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(@Nullable String namespace) {
		this.namespace = namespace;
	}

	public List<String> getNamespaces() {
		return this.namespaces;
	}

	public void setNamespaces(List<String> namespaces) {
		this.namespaces = namespaces;
	}

	public boolean isStripManagedFields() {
		return this.stripManagedFields;
	}

	public void setStripManagedFields(boolean stripManagedFields) {
		this.stripManagedFields = stripManagedFields;
	}

	public boolean isKeepAlive() {
		return this.keepAlive;
	}

	public void setKeepAlive(boolean keepAlive) {
		this.keepAlive = keepAlive;
	}

	public Map<String, ControllerOverrides> getControllers() {
		return this.controllers;
	}

	/**
	 * Returns the key of a controller's settings below {@code operator}, as written in
	 * {@code application.yaml}: {@code controllers.storagebucket}, or
	 * {@code controllers[my.controller]} for a name with a dot.
	 * @param name the controller's name
	 * @return the key
	 */
	static String controllerKey(String name) {
		return "controllers" + (name.contains(".") ? "[" + name + "]" : "." + name);
	}

	/**
	 * Settings of one controller.
	 */
	public static class ControllerOverrides {

		/**
		 * How many requests this controller reconciles at once.
		 */
		private @Nullable Integer maxConcurrentReconciles;

		/**
		 * Whether this controller's work queue is a priority queue, overriding
		 * operator.controller.priority-queue.
		 */
		private @Nullable Boolean priorityQueue;

		/**
		 * How long one reconcile of this controller may run, overriding
		 * operator.controller.reconcile-timeout; 0 for no limit.
		 */
		private @Nullable Duration reconcileTimeout;

		public @Nullable Integer getMaxConcurrentReconciles() {
			return this.maxConcurrentReconciles;
		}

		public void setMaxConcurrentReconciles(@Nullable Integer maxConcurrentReconciles) {
			this.maxConcurrentReconciles = maxConcurrentReconciles;
		}

		public @Nullable Boolean getPriorityQueue() {
			return this.priorityQueue;
		}

		public void setPriorityQueue(@Nullable Boolean priorityQueue) {
			this.priorityQueue = priorityQueue;
		}

		public @Nullable Duration getReconcileTimeout() {
			return this.reconcileTimeout;
		}

		public void setReconcileTimeout(@Nullable Duration reconcileTimeout) {
			this.reconcileTimeout = reconcileTimeout;
		}

	}

}
