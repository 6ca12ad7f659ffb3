package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

import io.kubeboot.operator.cache.CacheTransform;
import io.kubeboot.operator.cache.ObjectBudgets;
import io.kubeboot.operator.cache.UnscopedInformerPolicy;
import io.kubeboot.operator.client.ClientConfig;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.leaderelection.internal.SafeLeaderElectionListener;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

/**
 * Configures a {@link Manager}. Every setting has controller-runtime's default. The plain
 * values follow the rules of {@link ManagerConfig}, {@link ClientConfig} and
 * {@link ControllerConfig}, which {@link #build()} checks together. Not thread-safe; use
 * one builder from one thread.
 */
public final class ManagerBuilder {

	private final ApiClient client;

	private final ManagerSettings settings;

	ManagerBuilder(ApiClient client) {
		this(client, new ManagerSettings());
	}

	ManagerBuilder(ApiClient client, ManagerSettings settings) {
		this.client = Objects.requireNonNull(client, "client must not be null");
		this.settings = settings;
	}

	/**
	 * How often every cached object is delivered to the controllers again (default 10h).
	 * @param syncPeriod the period, zero for never
	 * @return this builder
	 */
	public ManagerBuilder syncPeriod(Duration syncPeriod) {
		this.settings.syncPeriod = syncPeriod;
		return this;
	}

	/**
	 * How long in-flight work may take to finish on stop (default 30s); negative waits
	 * forever.
	 * @param timeout the timeout
	 * @return this builder
	 */
	public ManagerBuilder gracefulShutdownTimeout(Duration timeout) {
		this.settings.gracefulShutdownTimeout = timeout;
		return this;
	}

	/**
	 * How long {@link Manager#start()} waits for the caches to sync (default 2m).
	 * @param timeout a positive timeout
	 * @return this builder
	 */
	public ManagerBuilder cacheSyncTimeout(Duration timeout) {
		this.settings.cacheSyncTimeout = timeout;
		return this;
	}

	/**
	 * Restricts every controller that names no namespace to one namespace (default: all),
	 * as {@link #namespaces} with one namespace does: the set may change while the
	 * manager runs.
	 * @param namespace the namespace, or {@code null} (or blank) for all
	 * @return this builder
	 */
	public ManagerBuilder namespace(@Nullable String namespace) {
		this.settings.namespaces = (namespace != null && !namespace.isBlank()) ? List.of(namespace) : List.of();
		return this;
	}

	/**
	 * Restricts the caches to a set of namespaces (default: all): every informer asked
	 * for without a namespace, those of every controller that names none among them,
	 * lists and watches each namespace of the set, and follows the set as it changes
	 * while the manager runs ({@link Manager#namespaces()}). A cluster-scoped kind is
	 * watched once, in all namespaces. Replaces what {@link #namespace} set.
	 * @param namespaces the namespaces, each an RFC 1123 label; empty for all namespaces,
	 * which cannot change at run time
	 * @return this builder
	 */
	public ManagerBuilder namespaces(Collection<String> namespaces) {
		Objects.requireNonNull(namespaces, "namespaces must not be null");
		this.settings.namespaces = new ArrayList<>(namespaces);
		return this;
	}

	/**
	 * The number of workers of a controller that sets none (default 1).
	 * @param maxConcurrentReconciles a positive number
	 * @return this builder
	 */
	public ManagerBuilder maxConcurrentReconciles(int maxConcurrentReconciles) {
		this.settings.maxConcurrentReconciles = maxConcurrentReconciles;
		return this;
	}

	/**
	 * Whether a controller's work queue is a priority queue unless its builder says
	 * otherwise (default {@code true}, as controller-runtime since 0.23): requests that
	 * carry no news (every cached object when a controller starts, the adds of an
	 * informer's initial list, updates that did not change the object, periodic triggers)
	 * wait behind the changes seen on the watches. {@code false} makes the queues first
	 * in, first out.
	 * @param priorityQueue whether to use priority queues
	 * @return this builder
	 */
	public ManagerBuilder priorityQueue(boolean priorityQueue) {
		this.settings.priorityQueue = priorityQueue;
		return this;
	}

	/**
	 * How long one reconcile of a controller that sets none may run (default: no limit,
	 * as in controller-runtime, whose {@code ReconciliationTimeout} this is). At the
	 * deadline the client cuts off the reconcile's call still in flight and refuses every
	 * further call it makes, and its worker is interrupted; the reconcile is counted in
	 * {@code controller_runtime_reconcile_timeouts_total}, its outcome otherwise its own
	 * ({@link io.kubeboot.operator.controller.ControllerBuilder#reconcileTimeout}).
	 * @param timeout the timeout, not negative; zero for no limit
	 * @return this builder
	 */
	public ManagerBuilder reconcileTimeout(Duration timeout) {
		this.settings.reconcileTimeout = timeout;
		return this;
	}

	/**
	 * The retry rate limiter of a controller that sets none (default: per-request
	 * exponential 5ms..1000s and an overall bucket of 10/s with a burst of 100).
	 * @param rateLimiter creates a fresh limiter for each controller start
	 * @return this builder
	 */
	public ManagerBuilder rateLimiter(Supplier<RateLimiter<Request>> rateLimiter) {
		this.settings.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
		return this;
	}

	/**
	 * Whether cached objects drop {@code metadata.managedFields} (default {@code true}),
	 * which reconcilers rarely read and which can double an object's size. client-java's
	 * own JSON leaves them out when it parses an object, so this matters only with an
	 * {@code ApiClient} whose JSON was replaced.
	 * @param strip whether to strip them
	 * @return this builder
	 */
	public ManagerBuilder stripManagedFields(boolean strip) {
		this.settings.stripManagedFields = strip;
		return this;
	}

	/**
	 * Transforms every object of a kind before the cache stores it, replacing the
	 * {@link #defaultCacheTransform default transform} for that kind (see
	 * {@link CacheTransform} for what a transform may do). A transform for
	 * {@link PartialObjectMetadata} applies to every kind cached as metadata only. A
	 * second call for the same class replaces the first.
	 * @param <T> the model type
	 * @param type the model class of the kind, or {@code PartialObjectMetadata.class}
	 * @param transform the transform
	 * @return this builder
	 * @throws IllegalArgumentException if the class declares no Kubernetes kind
	 */
	public <T extends KubernetesObject> ManagerBuilder cacheTransform(Class<T> type, CacheTransform<T> transform) {
		Objects.requireNonNull(type, "type must not be null");
		Objects.requireNonNull(transform, "transform must not be null");
		if (type != PartialObjectMetadata.class) {
			KindResolver.declaredKind(type);
		}
		this.settings.cacheTransforms.put(type, transform);
		return this;
	}

	/**
	 * Transforms every object before the cache stores it, of every kind without a
	 * {@link #cacheTransform transform of its own} (default: none). The transform must
	 * return an object of the class it received.
	 * @param transform the transform, or {@code null} for none
	 * @return this builder
	 */
	public ManagerBuilder defaultCacheTransform(@Nullable CacheTransform<KubernetesObject> transform) {
		if (transform != null) {
			this.settings.cacheTransforms.put(KubernetesObject.class, transform);
		}
		else {
			this.settings.cacheTransforms.remove(KubernetesObject.class);
		}
		return this;
	}

	/**
	 * How many objects each informer should hold at most (default: no budget). An
	 * informer that holds more is reported, with a WARN each time it goes over and the
	 * metric {@code operator_informer_object_budget_exceeded_total}; it keeps every
	 * object.
	 * @param budgets the budgets, per informer and by kind
	 * @return this builder
	 */
	public ManagerBuilder objectBudgets(ObjectBudgets budgets) {
		this.settings.objectBudgets = Objects.requireNonNull(budgets, "budgets must not be null");
		return this;
	}

	/**
	 * How an informer that caches every Secret, ConfigMap, Pod or Event of the cluster,
	 * unselected, is warned of as it starts (default: every such informer, naming these
	 * builder methods): the kinds whose informers are intended, and the words of the
	 * advice.
	 * @param policy the policy
	 * @return this builder
	 */
	public ManagerBuilder unscopedInformers(UnscopedInformerPolicy policy) {
		this.settings.unscopedInformers = Objects.requireNonNull(policy, "policy must not be null");
		return this;
	}

	/**
	 * The longest one watch request lasts before it is renewed (default 2m). Quiet but
	 * healthy watches show activity at least this often.
	 * @param timeout a timeout of at least 2s
	 * @return this builder
	 */
	public ManagerBuilder watchTimeout(Duration timeout) {
		this.settings.watchTimeout = timeout;
		return this;
	}

	/**
	 * How long an informer may see nothing from the API server before the watchdog
	 * replaces it with a fresh list and watch (default 3m); longer than the watch
	 * timeout.
	 * @param threshold the threshold
	 * @return this builder
	 */
	public ManagerBuilder watchSilenceThreshold(Duration threshold) {
		this.settings.watchSilenceThreshold = threshold;
		return this;
	}

	/**
	 * How long an informer's list or watch may keep failing, or the API server leave the
	 * cache's probe unanswered, before the readiness of {@link ManagerHealth} goes down
	 * (default 10s).
	 * @param threshold the threshold, not negative
	 * @return this builder
	 */
	public ManagerBuilder watchFailureThreshold(Duration threshold) {
		this.settings.watchFailureThreshold = threshold;
		return this;
	}

	/**
	 * The most objects one list request of the caches asks for (default 500, as
	 * client-go's pager). Lists are read in pages of this size, following each page's
	 * continue token, wherever the API server pages them: a relist after the watched
	 * resourceVersion expired always, and every list of a kind the API server keeps no
	 * watch cache for. The first list of a kind it does keep a watch cache for is served
	 * from that cache in one response whatever the page size.
	 * @param pageSize at least 1
	 * @return this builder
	 */
	public ManagerBuilder listPageSize(int pageSize) {
		this.settings.listPageSize = pageSize;
		return this;
	}

	/**
	 * Whether the caches stream their lists where the API server can (default
	 * {@code true}): a watch that first sends every current object (Kubernetes'
	 * WatchList, on by default from 1.34) instead of list requests, read object by object
	 * as the server sends them. An API server that cannot is asked for pages of
	 * {@link #listPageSize(int)} instead, after its first refusal.
	 * @param streamingLists whether to stream lists
	 * @return this builder
	 */
	public ManagerBuilder streamingLists(boolean streamingLists) {
		this.settings.streamingLists = streamingLists;
		return this;
	}

	/**
	 * Where work queues report, by controller name (default: nowhere).
	 * @param metrics creates the metrics of one queue
	 * @return this builder
	 */
	public ManagerBuilder workQueueMetrics(Function<String, WorkQueueMetrics> metrics) {
		this.settings.queueMetrics = Objects.requireNonNull(metrics, "metrics");
		return this;
	}

	/**
	 * Where controllers report, by controller name (default: nowhere).
	 * @param metrics creates the metrics of one controller
	 * @return this builder
	 */
	public ManagerBuilder controllerMetrics(Function<String, ControllerMetrics> metrics) {
		this.settings.controllerMetrics = Objects.requireNonNull(metrics, "metrics");
		return this;
	}

	/**
	 * Where the manager's work is traced (default: nowhere): a span per reconcile, a
	 * child span per call of the client, one per webhook request and one per leader
	 * transition. {@code io.kubeboot.operator.micrometer.ObservationTracing} reports to a
	 * Micrometer {@code ObservationRegistry}.
	 * @param tracing the tracing
	 * @return this builder
	 */
	public ManagerBuilder tracing(OperatorTracing tracing) {
		this.settings.tracing = Objects.requireNonNull(tracing, "tracing");
		return this;
	}

	/**
	 * Whether the client writes the trace context of each create into the annotation
	 * {@value TraceContextAnnotation#NAME} of the object it creates, in the same write
	 * (default: no). The reconcile of the created object, in this operator or another,
	 * then continues the trace. Updates, patches and applies never carry it, so it never
	 * turns a write that changes nothing into one, nor conflicts with another field
	 * manager; a change of the annotation alone never triggers a reconcile.
	 * @param write whether to write it
	 * @return this builder
	 */
	public ManagerBuilder traceContextAnnotation(boolean write) {
		this.settings.traceContextAnnotation = write;
		return this;
	}

	/**
	 * Runs controllers and leader-only runnables only while this replica holds a Lease
	 * (default: no leader election, everything runs at once).
	 * @param config the election settings
	 * @return this builder
	 */
	public ManagerBuilder leaderElection(LeaderElectionConfig config) {
		this.settings.leaderElection = Objects.requireNonNull(config, "config");
		return this;
	}

	/**
	 * Observes leadership transitions (default: none).
	 * @param listener the listener
	 * @return this builder
	 */
	public ManagerBuilder leaderElectionListener(LeaderElectionListener listener) {
		this.settings.leaderElectionListener = new SafeLeaderElectionListener(
				Objects.requireNonNull(listener, "listener"));
		return this;
	}

	/**
	 * What {@link LostLeasePolicy#EXIT} does (default: halt the JVM with status 1,
	 * skipping shutdown hooks, as controller-runtime exits). Meant for tests and
	 * embedding.
	 * @param exit the action
	 * @return this builder
	 */
	public ManagerBuilder onLostLeaseExit(java.lang.Runnable exit) {
		this.settings.lostLeaseExit = Objects.requireNonNull(exit, "exit");
		return this;
	}

	/**
	 * The field manager the client writes and applies as (default {@code operator}; the
	 * starter uses {@code spring.application.name}).
	 * @param fieldManager the field manager
	 * @return this builder
	 */
	public ManagerBuilder fieldManager(String fieldManager) {
		if (fieldManager == null || fieldManager.isBlank()) {
			throw new IllegalArgumentException("fieldManager must not be blank");
		}
		this.settings.fieldManager = fieldManager;
		return this;
	}

	/**
	 * The longest one call of the client may take (default 30s).
	 * @param timeout a positive timeout
	 * @return this builder
	 */
	public ManagerBuilder clientTimeout(Duration timeout) {
		this.settings.clientTimeout = timeout;
		return this;
	}

	/**
	 * Holds the requests of the manager's client and caches to an average rate with a
	 * burst, client-go's client-side token bucket (default: no limit, as in
	 * controller-runtime since v0.21, which leaves throttling to the API server's
	 * priority and fairness; its 429 answers are retried after their Retry-After). The
	 * request that opens a watch counts, not what the watch streams. Lease requests are
	 * never held back, so that a busy controller cannot cost the leadership.
	 * @param qps requests per second on average, {@code 0} for no limit
	 * @param burst requests sent at once above that rate (default 10), at least 1
	 * @return this builder
	 */
	public ManagerBuilder clientRateLimit(double qps, int burst) {
		this.settings.clientQps = qps;
		this.settings.clientBurst = burst;
		return this;
	}

	/**
	 * Adds a health check of the operator's own to {@code /healthz} or {@code /readyz}
	 * (controller-runtime's {@code AddHealthzCheck} and {@code AddReadyzCheck}).
	 * @param check the check
	 * @return this builder
	 * @throws IllegalArgumentException if a check of the same name and probe was added
	 * before
	 */
	public ManagerBuilder addCheck(Check check) {
		Objects.requireNonNull(check, "check must not be null");
		for (Check existing : this.settings.checks) {
			if (existing.name().equals(check.name()) && existing.probe() == check.probe()) {
				throw new IllegalArgumentException("A " + check.probe().name().toLowerCase(Locale.ROOT)
						+ " check named '" + check.name() + "' was already added");
			}
		}
		this.settings.checks.add(check);
		return this;
	}

	/**
	 * Declares what something that runs beside the manager under the operator's identity
	 * needs RBAC to allow, such as the access reviews of a secured metrics endpoint: the
	 * permissions join {@link Manager#requiredPermissions()}, so the generated RBAC holds
	 * them and the start-up self-check asks for them. A permission placed in no namespace
	 * goes where the manager's caches hold objects, as a runnable's does.
	 * @param permissions the permissions, each with its reason
	 * @return this builder
	 */
	public ManagerBuilder requires(Permission... permissions) {
		for (Permission permission : permissions) {
			this.settings.permissions.add(Objects.requireNonNull(permission, "permission must not be null"));
		}
		return this;
	}

	/**
	 * Gives the manager a webhook server, the counterpart of controller-runtime's
	 * {@code WebhookServer} option: the manager starts it before its caches, on every
	 * replica, adds a {@code webhooks} readiness check, and stops it after everything
	 * else. Register webhooks on it with
	 * {@link io.kubeboot.operator.webhook.AdmissionWebhook}.
	 * @param server the server
	 * @return this builder
	 */
	public ManagerBuilder webhookServer(WebhookServer server) {
		this.settings.webhookServer = Objects.requireNonNull(server, "server must not be null");
		return this;
	}

	/**
	 * Builds the manager.
	 * @return a new manager
	 * @throws InvalidConfigException naming every plain value that breaks the rules of
	 * {@link ManagerConfig}, {@link ClientConfig} or {@link ControllerConfig}
	 */
	public Manager build() {
		this.settings.check();
		return new Manager(this.client, this.settings.copy());
	}

}
