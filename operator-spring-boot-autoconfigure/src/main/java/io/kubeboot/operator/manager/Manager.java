package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;

import io.kubeboot.operator.cache.InformerCache;
import io.kubeboot.operator.cache.ScopedInformer;
import io.kubeboot.operator.cache.StatusMessages;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.controller.ControllerBuilder;
import io.kubeboot.operator.controller.ControllerMetrics;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.LeaseAccessCheck;
import io.kubeboot.operator.leaderelection.LeaderElector;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.leaderelection.SafeLeaderElectionListener;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an operator: the informer caches, the controllers and the operator's own
 * {@link Runnable runnables}, in controller-runtime's order.
 * <p>
 * {@link #start()} resolves every watched kind against the API server (failing at once,
 * naming the kind, if one is not served), starts the informers and blocks until they have
 * synced (failing after the cache sync timeout with the last error of every informer that
 * did not), then starts the runnables that run on every replica, then the leader-only
 * runnables and the controllers. It returns once all are started; they run on threads of
 * their own.
 * <p>
 * {@link #stop()} reverses the order: controllers and leader-only runnables first (no new
 * reconcile starts, the ones in flight finish), then the other runnables, then the
 * informers. Runnables still running when the graceful shutdown timeout expires are
 * interrupted. A runnable that throws fails the manager: it stops everything and reports
 * {@link ManagerState#FAILED}.
 * <p>
 * Thread-safe. A manager starts once; create a new one to start again.
 */
public final class Manager {

	private static final Logger logger = LoggerFactory.getLogger(Manager.class);

	private static final Duration DISCOVERY_RETRY = Duration.ofSeconds(1);

	private final ApiClient client;

	private final InformerCache cache;

	private final Settings settings;

	private final ControllerBuilder.Defaults controllerDefaults;

	private final RunnableGroup everyReplica = new RunnableGroup("every-replica", this::runnableFailed);

	private final RunnableGroup leaderOnly = new RunnableGroup("leader-only", this::runnableFailed);

	private final List<Controller> controllers = new CopyOnWriteArrayList<>();

	private final Object lifecycleMonitor = new Object();

	private volatile ManagerState state = ManagerState.NEW;

	private volatile @Nullable Throwable failure;

	private final @Nullable LeaderElector leaderElector;

	private volatile @Nullable LeaderElectionRunner election;

	private Manager(ApiClient client, Settings settings) {
		this.settings = settings;
		this.client = client;
		this.cache = new InformerCache(client, settings.syncPeriod, settings.stripManagedFields, settings.watchTimeout,
				settings.watchSilenceThreshold);
		this.leaderElector = (settings.leaderElection != null)
				? new LeaderElector(client, settings.leaderElection, settings.leaderElectionListener) : null;
		this.controllerDefaults = new ControllerBuilder.Defaults(settings.namespace, settings.maxConcurrentReconciles,
				settings.rateLimiter, settings.queueMetrics, settings.controllerMetrics, settings.cacheSyncTimeout);
	}

	/**
	 * Returns a builder for a manager that talks to the API server of the given client.
	 * @param client the client; it is not modified
	 * @return the builder
	 */
	public static Builder builder(ApiClient client) {
		return new Builder(client);
	}

	/**
	 * Returns the manager's caches, for reading objects in reconcilers.
	 * @return the cache
	 */
	public InformerCache cache() {
		return this.cache;
	}

	/**
	 * Starts building a controller for a kind; {@link ControllerBuilder#complete} adds it
	 * to this manager.
	 * @param <T> the reconciled model type
	 * @param forType the reconciled kind
	 * @return the builder
	 * @throws IllegalArgumentException if the class declares no Kubernetes kind
	 */
	public <T extends KubernetesObject> ControllerBuilder<T> newController(Class<T> forType) {
		return new ControllerBuilder<>(forType, this.cache, this.controllerDefaults, this::addController);
	}

	private void addController(Controller controller) {
		synchronized (this.lifecycleMonitor) {
			if (this.controllers.stream().anyMatch((existing) -> existing.name().equals(controller.name()))) {
				throw new IllegalArgumentException(
						"A controller named '" + controller.name() + "' already exists: give one of them another name");
			}
			this.controllers.add(controller);
			this.leaderOnly.add("controller-" + controller.name(), controller);
		}
	}

	/**
	 * Adds a runnable. Added before {@link #start()}, it starts with its group; added
	 * later, it starts at once if its group is running.
	 * @param name a name for logs and its thread
	 * @param runnable the runnable
	 */
	public void add(String name, Runnable runnable) {
		Objects.requireNonNull(runnable, "runnable must not be null");
		(runnable.needsLeaderElection() ? this.leaderOnly : this.everyReplica).add(name, runnable);
	}

	/**
	 * Returns the controllers added so far.
	 * @return the controllers
	 */
	public List<Controller> controllers() {
		return List.copyOf(this.controllers);
	}

	/**
	 * Returns the controller of the given name.
	 * @param name the controller's name
	 * @return the controller
	 * @throws IllegalArgumentException naming the known controllers if there is none of
	 * that name
	 */
	public Controller controller(String name) {
		return this.controllers.stream()
			.filter((controller) -> controller.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No controller named '" + name + "'; the controllers are "
					+ this.controllers.stream().map(Controller::name).toList()));
	}

	/**
	 * Returns the names of the runnables that are not controllers.
	 * @return the names, every-replica runnables first
	 */
	public List<String> runnables() {
		List<String> names = new ArrayList<>(this.everyReplica.names());
		this.leaderOnly.names().stream().filter((name) -> !name.startsWith("controller-")).forEach(names::add);
		return names;
	}

	/**
	 * Returns the informers of the cache.
	 * @return the informers
	 */
	public List<ScopedInformer<?>> informers() {
		return this.cache.informers();
	}

	/**
	 * Returns the leader elector.
	 * @return the elector, or {@code null} when leader election is off
	 */
	public @Nullable LeaderElector leaderElector() {
		return this.leaderElector;
	}

	/**
	 * Whether this replica runs its leader-only runnables and controllers now: always
	 * once started without leader election, while holding the Lease with it.
	 * @return {@code true} while leading
	 */
	public boolean isLeader() {
		return (this.leaderElector != null) ? this.leaderElector.isLeader() : this.leaderOnly.isStarted();
	}

	/**
	 * Whether any controller or leader-only runnable is still running, including ones
	 * that are stopping after a lost Lease.
	 * @return {@code true} while leader-only work runs
	 */
	public boolean isLeaderWorkRunning() {
		return this.leaderOnly.aliveCount() > 0;
	}

	/**
	 * Returns the current state.
	 * @return the state
	 */
	public ManagerState state() {
		return this.state;
	}

	/**
	 * Returns why the manager failed.
	 * @return the failure, or {@code null} if it did not fail
	 */
	public @Nullable Throwable failure() {
		return this.failure;
	}

	/**
	 * Returns the graceful shutdown timeout.
	 * @return the timeout; negative means no bound
	 */
	public Duration gracefulShutdownTimeout() {
		return this.settings.gracefulShutdownTimeout;
	}

	/**
	 * Starts the manager and blocks until the caches have synced and every runnable has
	 * started.
	 * @throws IllegalStateException if the manager was started before
	 * @throws io.kubeboot.operator.cache.KindNotServedException if a watched kind is not
	 * served by the API server
	 * @throws io.kubeboot.operator.cache.CacheSyncException if the caches did not sync in
	 * time
	 * @throws InterruptedException if interrupted while waiting; the manager is stopped
	 */
	public void start() throws InterruptedException {
		synchronized (this.lifecycleMonitor) {
			if (this.state != ManagerState.NEW) {
				throw new IllegalStateException("Manager cannot start: it is " + this.state);
			}
			this.state = ManagerState.STARTING;
		}
		logger.info("Starting manager: controllers={} runnables={}",
				this.controllers.stream().map(Controller::name).toList(), this.everyReplica.names());
		try {
			if (this.settings.leaderElection != null) {
				LeaseAccessCheck.verify(this.client, this.settings.leaderElection);
			}
			startCaches();
			this.cache.waitForSync(this.settings.cacheSyncTimeout);
			logger.info("Caches synced: informers={}", this.cache.informers().size());
			synchronized (this.lifecycleMonitor) {
				if (this.state != ManagerState.STARTING) {
					return; // stopped or failed while starting
				}
				this.everyReplica.start();
				if (this.leaderElector != null) {
					LeaderElectionRunner runner = new LeaderElectionRunner(this.leaderElector, this.leaderOnly,
							this.settings.leaderElectionListener, this.settings.lostLeaseExit,
							this.settings.gracefulShutdownTimeout);
					this.election = runner;
					runner.start();
				}
				else {
					this.leaderOnly.start();
				}
				this.state = ManagerState.RUNNING;
			}
			logger.info("Manager started");
		}
		catch (InterruptedException | RuntimeException ex) {
			fail(ex);
			throw ex;
		}
	}

	private void startCaches() throws InterruptedException {
		long deadline = System.nanoTime() + this.settings.cacheSyncTimeout.toNanos();
		while (true) {
			try {
				this.cache.start();
				return;
			}
			catch (ApiException ex) {
				String error = StatusMessages.describe(ex);
				if (System.nanoTime() - deadline >= 0) {
					throw new IllegalStateException("Cannot reach the API server to discover the watched kinds within "
							+ this.settings.cacheSyncTimeout + ": " + error, ex);
				}
				logger.warn("API discovery failed, retrying: error=\"{}\"", error);
				Thread.sleep(DISCOVERY_RETRY.toMillis());
			}
		}
	}

	/**
	 * Stops the manager gracefully and blocks until it has stopped: controllers and
	 * leader-only runnables, then the other runnables, then the caches, within the
	 * graceful shutdown timeout. Does nothing if already stopped.
	 */
	public void stop() {
		synchronized (this.lifecycleMonitor) {
			if (this.state == ManagerState.STOPPED || this.state == ManagerState.STOPPING
					|| this.state == ManagerState.FAILED) {
				return;
			}
			this.state = ManagerState.STOPPING;
		}
		stopAll();
		this.state = ManagerState.STOPPED;
		logger.info("Manager stopped");
	}

	private void stopAll() {
		Duration timeout = this.settings.gracefulShutdownTimeout;
		long start = System.nanoTime();
		LeaderElectionRunner runner = this.election;
		boolean inTime = true;
		if (runner != null) {
			runner.stop();
		}
		else {
			inTime = this.leaderOnly.stop(timeout);
		}
		Duration left = timeout.isNegative() ? timeout : timeout.minusNanos(System.nanoTime() - start).isNegative()
				? Duration.ZERO : timeout.minusNanos(System.nanoTime() - start);
		inTime &= this.everyReplica.stop(left);
		this.cache.stop();
		if (!inTime) {
			logger.warn("Graceful shutdown timed out; runnables still running were interrupted: timeout={}", timeout);
		}
	}

	private void runnableFailed(String name, Throwable error) {
		logger.error("Runnable failed, stopping the manager: runnable={}", name, error);
		Thread stopper = new Thread(() -> fail(error), "operator-manager-failure");
		stopper.start();
	}

	private void fail(Throwable error) {
		synchronized (this.lifecycleMonitor) {
			if (this.state == ManagerState.FAILED || this.state == ManagerState.STOPPED) {
				return;
			}
			this.failure = error;
			this.state = ManagerState.STOPPING;
		}
		stopAll();
		this.state = ManagerState.FAILED;
	}

	/**
	 * Configures a {@link Manager}. Every setting has controller-runtime's default.
	 */
	public static final class Builder {

		private final ApiClient client;

		private final Settings settings = new Settings();

		private Builder(ApiClient client) {
			this.client = Objects.requireNonNull(client, "client must not be null");
		}

		/**
		 * How often every cached object is delivered to the controllers again (default
		 * 10h).
		 * @param syncPeriod the period, zero for never
		 * @return this builder
		 */
		public Builder syncPeriod(Duration syncPeriod) {
			this.settings.syncPeriod = requireNotNegative(syncPeriod, "syncPeriod");
			return this;
		}

		/**
		 * How long in-flight work may take to finish on stop (default 30s); negative
		 * waits forever.
		 * @param timeout the timeout
		 * @return this builder
		 */
		public Builder gracefulShutdownTimeout(Duration timeout) {
			this.settings.gracefulShutdownTimeout = Objects.requireNonNull(timeout, "gracefulShutdownTimeout");
			return this;
		}

		/**
		 * How long {@link Manager#start()} waits for the caches to sync (default 2m).
		 * @param timeout a positive timeout
		 * @return this builder
		 */
		public Builder cacheSyncTimeout(Duration timeout) {
			this.settings.cacheSyncTimeout = requirePositive(timeout, "cacheSyncTimeout");
			return this;
		}

		/**
		 * Restricts every controller that names no namespace to one namespace (default:
		 * all).
		 * @param namespace the namespace, or {@code null} for all
		 * @return this builder
		 */
		public Builder namespace(@Nullable String namespace) {
			this.settings.namespace = (namespace != null && !namespace.isBlank()) ? namespace : null;
			return this;
		}

		/**
		 * The number of workers of a controller that sets none (default 1).
		 * @param maxConcurrentReconciles a positive number
		 * @return this builder
		 */
		public Builder maxConcurrentReconciles(int maxConcurrentReconciles) {
			if (maxConcurrentReconciles < 1) {
				throw new IllegalArgumentException("maxConcurrentReconciles must be at least 1");
			}
			this.settings.maxConcurrentReconciles = maxConcurrentReconciles;
			return this;
		}

		/**
		 * The retry rate limiter of a controller that sets none (default: per-request
		 * exponential 5ms..1000s and an overall bucket of 10/s with a burst of 100).
		 * @param rateLimiter creates a fresh limiter for each controller start
		 * @return this builder
		 */
		public Builder rateLimiter(Supplier<RateLimiter<Request>> rateLimiter) {
			this.settings.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
			return this;
		}

		/**
		 * Whether cached objects drop {@code metadata.managedFields} (default
		 * {@code true}), which reconcilers rarely read and which can double an object's
		 * size.
		 * @param strip whether to strip them
		 * @return this builder
		 */
		public Builder stripManagedFields(boolean strip) {
			this.settings.stripManagedFields = strip;
			return this;
		}

		/**
		 * The longest one watch request lasts before it is renewed (default 2m). Quiet
		 * but healthy watches show activity at least this often.
		 * @param timeout a timeout of at least 2s
		 * @return this builder
		 */
		public Builder watchTimeout(Duration timeout) {
			this.settings.watchTimeout = requirePositive(timeout, "watchTimeout");
			return this;
		}

		/**
		 * How long an informer may see nothing from the API server before the watchdog
		 * replaces it with a fresh list and watch (default 3m); longer than the watch
		 * timeout.
		 * @param threshold the threshold
		 * @return this builder
		 */
		public Builder watchSilenceThreshold(Duration threshold) {
			this.settings.watchSilenceThreshold = requirePositive(threshold, "watchSilenceThreshold");
			return this;
		}

		/**
		 * Where work queues report, by controller name (default: nowhere).
		 * @param metrics creates the metrics of one queue
		 * @return this builder
		 */
		public Builder workQueueMetrics(Function<String, WorkQueueMetrics> metrics) {
			this.settings.queueMetrics = Objects.requireNonNull(metrics, "metrics");
			return this;
		}

		/**
		 * Where controllers report, by controller name (default: nowhere).
		 * @param metrics creates the metrics of one controller
		 * @return this builder
		 */
		public Builder controllerMetrics(Function<String, ControllerMetrics> metrics) {
			this.settings.controllerMetrics = Objects.requireNonNull(metrics, "metrics");
			return this;
		}

		/**
		 * Runs controllers and leader-only runnables only while this replica holds a
		 * Lease (default: no leader election, everything runs at once).
		 * @param config the election settings
		 * @return this builder
		 */
		public Builder leaderElection(LeaderElectionConfig config) {
			this.settings.leaderElection = Objects.requireNonNull(config, "config");
			return this;
		}

		/**
		 * Observes leadership transitions (default: none).
		 * @param listener the listener
		 * @return this builder
		 */
		public Builder leaderElectionListener(LeaderElectionListener listener) {
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
		public Builder onLostLeaseExit(java.lang.Runnable exit) {
			this.settings.lostLeaseExit = Objects.requireNonNull(exit, "exit");
			return this;
		}

		/**
		 * Builds the manager.
		 * @return a new manager
		 */
		public Manager build() {
			return new Manager(this.client, this.settings.copy());
		}

		private static Duration requireNotNegative(Duration duration, String name) {
			Objects.requireNonNull(duration, name);
			if (duration.isNegative()) {
				throw new IllegalArgumentException(name + " must not be negative, was " + duration);
			}
			return duration;
		}

		private static Duration requirePositive(Duration duration, String name) {
			Objects.requireNonNull(duration, name);
			if (duration.isNegative() || duration.isZero()) {
				throw new IllegalArgumentException(name + " must be positive, was " + duration);
			}
			return duration;
		}

	}

	private static final class Settings {

		Duration syncPeriod = Duration.ofHours(10);

		Duration gracefulShutdownTimeout = Duration.ofSeconds(30);

		Duration cacheSyncTimeout = Duration.ofMinutes(2);

		Duration watchTimeout = InformerCache.DEFAULT_WATCH_TIMEOUT;

		Duration watchSilenceThreshold = InformerCache.DEFAULT_SILENCE_THRESHOLD;

		@Nullable String namespace;

		int maxConcurrentReconciles = 1;

		Supplier<RateLimiter<Request>> rateLimiter = RateLimiters::defaultControllerRateLimiter;

		boolean stripManagedFields = true;

		Function<String, WorkQueueMetrics> queueMetrics = (name) -> WorkQueueMetrics.NOOP;

		Function<String, ControllerMetrics> controllerMetrics = (name) -> ControllerMetrics.NOOP;

		@Nullable LeaderElectionConfig leaderElection;

		LeaderElectionListener leaderElectionListener = new LeaderElectionListener() {
		};

		java.lang.Runnable lostLeaseExit = () -> Runtime.getRuntime().halt(1);

		Settings copy() {
			Settings copy = new Settings();
			copy.syncPeriod = this.syncPeriod;
			copy.gracefulShutdownTimeout = this.gracefulShutdownTimeout;
			copy.cacheSyncTimeout = this.cacheSyncTimeout;
			copy.watchTimeout = this.watchTimeout;
			copy.watchSilenceThreshold = this.watchSilenceThreshold;
			copy.namespace = this.namespace;
			copy.maxConcurrentReconciles = this.maxConcurrentReconciles;
			copy.rateLimiter = this.rateLimiter;
			copy.stripManagedFields = this.stripManagedFields;
			copy.queueMetrics = this.queueMetrics;
			copy.controllerMetrics = this.controllerMetrics;
			copy.leaderElection = this.leaderElection;
			copy.leaderElectionListener = this.leaderElectionListener;
			copy.lostLeaseExit = this.lostLeaseExit;
			return copy;
		}

	}

}
