package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.FieldSelectorNotSupportedException;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.cache.internal.InformerCache;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.internal.RateLimitInterceptor;
import io.kubeboot.operator.client.internal.WriteFence;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.LeaderElectionStatus;
import io.kubeboot.operator.leaderelection.internal.LeaderElector;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an operator: the informer caches and the {@link ManagerRunnable runnables} added
 * to it (controllers among them), in controller-runtime's order.
 * <p>
 * {@link #start()} resolves every cached kind against the API server (failing at once,
 * naming the kind, if one is not served), asks it about every rule of
 * {@link #requiredPermissions()} (failing if RBAC denies leader election its Lease, and
 * naming whatever else it denies), starts the informers and blocks until they have synced
 * (failing after the cache sync timeout with the last error of every informer that did
 * not), then starts the runnables that run on every replica, then, once elected, the
 * leader-only runnables. It returns once all are started; they run on threads of their
 * own.
 * <p>
 * {@link #stop()} reverses the order: leader-only runnables first (no new reconcile
 * starts, the ones in flight finish), then the other runnables, then the informers.
 * Runnables still running when the graceful shutdown timeout expires are interrupted. A
 * runnable that throws fails the manager: it stops everything and reports
 * {@link ManagerState#FAILED}.
 * <p>
 * Thread-safe. A manager starts once; create a new one to start again.
 */
public final class Manager {

	private static final Logger logger = LoggerFactory.getLogger(Manager.class);

	/** The role suffix of leader election's permissions. */
	static final String LEADER_ELECTION_ROLE = "leader-election";

	static final String LEASE_GROUP = "coordination.k8s.io";

	static final String LEASES = "leases";

	private final ApiClient apiClient;

	/** The client of the cache and the client, rate-limited if so configured. */
	private final ApiClient limitedClient;

	private final InformerCache cache;

	private final Client client;

	private final ManagerSettings settings;

	private final List<Check> checks;

	private final RunnableGroup everyReplica = new RunnableGroup("every-replica", this::runnableFailed);

	private final RunnableGroup leaderOnly;

	private final Object lifecycleMonitor = new Object();

	private volatile ManagerState state = ManagerState.NEW;

	private volatile @Nullable Throwable failure;

	private final @Nullable LeaderElector leaderElector;

	/** The application's listener, with leader transitions traced if tracing is on. */
	private final LeaderElectionListener leaderElectionListener;

	private volatile @Nullable LeaderElectionRunner election;

	/** The informers synced at start, {@code null} until the caches synced. */
	private volatile @Nullable Set<InformerKey> startupInformers;

	/**
	 * The informers of the namespace set registered at start, {@code null} until the
	 * caches synced.
	 */
	private volatile @Nullable Set<InformerKey> startupSetInformers;

	Manager(ApiClient apiClient, ManagerSettings settings) {
		this.settings = settings;
		this.checks = new CopyOnWriteArrayList<>(settings.checks);
		this.apiClient = apiClient;
		// one rate for the client and the caches; the Lease's requests are not held back
		ApiClient limited = (settings.clientQps > 0)
				? RateLimitInterceptor.limit(apiClient, settings.clientQps, settings.clientBurst) : apiClient;
		this.limitedClient = limited;
		this.cache = new InformerCache(limited, settings.syncPeriod, settings.stripManagedFields, settings.watchTimeout,
				settings.watchSilenceThreshold, settings.listPageSize, settings.streamingLists,
				settings.cacheTransforms, settings.namespaces);
		this.cache.objectBudgets(settings.objectBudgets);
		this.cache.unscopedInformers(settings.unscopedInformers);
		this.cache.namingReaders(this::runnablesReading);
		this.client = Client.create(limited, this.cache, settings.fieldManager, settings.clientTimeout,
				settings.tracing, settings.traceContextAnnotation ? TraceContextAnnotation.Written.ON_CREATE
						: TraceContextAnnotation.Written.NEVER);
		this.cache.onNamespacesJoined(this::checkAccessInJoined);
		this.leaderElectionListener = (settings.leaderElection != null && settings.tracing != OperatorTracing.NOOP)
				? new TracedLeaderElectionListener(settings.leaderElectionListener, settings.tracing,
						settings.leaderElection.namespace() + "/" + settings.leaderElection.name())
				: settings.leaderElectionListener;
		this.leaderElector = (settings.leaderElection != null)
				? new LeaderElector(apiClient, settings.leaderElection, this.leaderElectionListener) : null;
		// with leader election, the writes of leader-only work stop with the leadership,
		// even from a worker that ignores its stop
		this.leaderOnly = new RunnableGroup("leader-only", this::runnableFailed,
				(this.leaderElector != null) ? this.leaderElector.writeFence() : settings.leaderFence);
		this.checks.add(Check.liveness("leader-work-stopped", () -> {
			List<String> stuck = this.leaderOnly.stuck();
			if (!stuck.isEmpty()) {
				throw new IllegalStateException("leader-only runnables ignored their stop and still run: " + stuck);
			}
		}));
		WebhookServer webhooks = settings.webhookServer;
		if (webhooks != null) {
			this.checks.add(Check.readiness("webhooks", () -> {
				if (!webhooks.isServing()) {
					throw new IllegalStateException("the webhook server is not serving");
				}
			}));
		}
	}

	/**
	 * Returns the leader-only runnables that ignored their stop signal and their
	 * interruption and still run. While there are any, this replica neither releases the
	 * Lease nor campaigns again, and liveness is down (check
	 * {@code leader-work-stopped}).
	 * @return their names, empty normally
	 */
	public List<String> stuckRunnables() {
		return this.leaderOnly.stuck();
	}

	/**
	 * Returns the webhook server the manager runs, if it was given one.
	 * @return the webhook server
	 */
	public Optional<WebhookServer> webhookServer() {
		return Optional.ofNullable(this.settings.webhookServer);
	}

	/**
	 * Returns a builder for a manager that talks to the API server of the given client.
	 * @param client the client; it is not modified
	 * @return the builder
	 */
	public static ManagerBuilder builder(ApiClient client) {
		return new ManagerBuilder(client);
	}

	/**
	 * Returns a builder for the manager of another cluster (a member of a fleet) set up
	 * as this one: the same cache, client, controller and metrics settings, but no leader
	 * election (it stays with this manager), no webhook server, none of this manager's
	 * health checks or declared permissions, and all namespaces watched. Its leader-only
	 * runnables (its controllers) write under this manager's write fence: once this
	 * replica's Lease can no longer be vouched for, their writes are refused as this
	 * manager's are. Built by fenced work (a fleet shared over a shard ring builds its
	 * clusters' managers under the shard Lease's fence), they write under that work's
	 * fence instead.
	 * @param client the client of the other cluster's API server; it is not modified
	 * @return the builder
	 */
	public ManagerBuilder builderForCluster(ApiClient client) {
		WriteFence current = WriteFence.current();
		WriteFence fence = (current != null) ? current
				: (this.leaderElector != null) ? this.leaderElector.writeFence() : this.settings.leaderFence;
		return new ManagerBuilder(client, this.settings.forOtherCluster(fence));
	}

	/**
	 * Returns the manager's caches, for reading objects in reconcilers and for
	 * registering the informers of controllers.
	 * @return the cache
	 */
	public Cache cache() {
		return this.cache;
	}

	/**
	 * Returns the namespaces the caches watch: every controller that names no namespace
	 * watches them, and they may change while the manager runs unless it watches all
	 * namespaces (see {@link WatchedNamespaces}).
	 * @return the namespaces
	 */
	public WatchedNamespaces namespaces() {
		return this.cache.namespaces();
	}

	/**
	 * Returns the client that reads from the caches and writes to the API server, for
	 * reconcilers.
	 * @return the client
	 */
	public Client client() {
		return this.client;
	}

	/**
	 * Returns what a controller uses unless its builder says otherwise.
	 * @return the manager-wide controller defaults
	 */
	public ControllerDefaults controllerDefaults() {
		return this.settings.controllerDefaults();
	}

	/**
	 * Adds a runnable. Added before {@link #start()}, it starts with its group; added
	 * later, it starts at once if its group is running.
	 * @param name a name for logs and its thread, unique within this manager
	 * @param runnable the runnable
	 * @throws IllegalArgumentException if a runnable of that name was added before
	 */
	public void add(String name, ManagerRunnable runnable) {
		Objects.requireNonNull(name, "name must not be null");
		Objects.requireNonNull(runnable, "runnable must not be null");
		synchronized (this.lifecycleMonitor) {
			if (this.everyReplica.contains(name) || this.leaderOnly.contains(name)) {
				throw new IllegalArgumentException(
						"A runnable named '" + name + "' was already added: give one of them another name");
			}
			(runnable.needsLeaderElection() ? this.leaderOnly : this.everyReplica).add(name, runnable);
		}
	}

	/**
	 * Returns the added runnables of a type, such as every controller.
	 * @param <R> the type
	 * @param type the type
	 * @return the runnables in the order they were added, every-replica ones first
	 */
	public <R extends ManagerRunnable> List<R> runnables(Class<R> type) {
		List<R> found = new ArrayList<>();
		for (ManagerRunnable runnable : this.everyReplica.runnables()) {
			if (type.isInstance(runnable)) {
				found.add(type.cast(runnable));
			}
		}
		for (ManagerRunnable runnable : this.leaderOnly.runnables()) {
			if (type.isInstance(runnable)) {
				found.add(type.cast(runnable));
			}
		}
		return found;
	}

	/**
	 * Returns the names of the added runnables that are not of a type, such as every
	 * runnable that is not a controller.
	 * @param excluded the type to leave out
	 * @return the names, every-replica runnables first
	 */
	public List<String> runnableNamesExcept(Class<? extends ManagerRunnable> excluded) {
		List<String> names = new ArrayList<>(this.everyReplica.namesExcept(excluded));
		names.addAll(this.leaderOnly.namesExcept(excluded));
		return names;
	}

	/**
	 * Adds a health check, the counterpart of controller-runtime's
	 * {@code AddHealthzCheck} and {@code AddReadyzCheck}: {@link ManagerHealth} runs it
	 * with the built-in checks. Checks of the same name and probe are reported as one
	 * (each controller adds a liveness check named {@code workers}, say).
	 * @param check the check
	 */
	public void addCheck(Check check) {
		this.checks.add(Objects.requireNonNull(check, "check must not be null"));
	}

	/**
	 * Returns the health checks added to this manager.
	 * @return the checks in the order they were added
	 */
	public List<Check> checks() {
		return List.copyOf(this.checks);
	}

	/**
	 * Returns what this manager needs RBAC to allow, derived from what it runs: with
	 * leader election, {@code create} on leases and {@code get}, {@code update},
	 * {@code watch} on its Lease (in a role of their own, {@code leader-election}); what
	 * every runnable declares ({@link ManagerRunnable#requiredPermissions()}): each
	 * controller's informers, finalizer and declared writes, the event recorder's Events;
	 * what was declared with {@link ManagerBuilder#requires}; and {@code list},
	 * {@code watch} for any other informer of the cache. Permissions placed in no
	 * namespace go to every namespace the caches hold objects in (all namespaces if one
	 * of them holds all), which includes every namespace of the manager's set
	 * ({@link #namespaces()}) as it is when this is called.
	 * <p>
	 * Turn them into rules with {@link io.kubeboot.operator.rbac.PolicyRules}; the
	 * manager's start-up self-check asks the API server about the same list. Informers
	 * registered later, by code that asks the cache for a kind at run time, are not in
	 * it.
	 * @return the permissions
	 */
	public List<Permission> requiredPermissions() {
		List<Permission> permissions = new ArrayList<>();
		LeaderElectionConfig election = this.settings.leaderElection;
		if (election != null) {
			permissions.addAll(leasePermissions(election));
		}
		List<ManagerRunnable> runnables = new ArrayList<>(this.everyReplica.runnables());
		runnables.addAll(this.leaderOnly.runnables());
		List<InformerKey> keys = this.cache.informers().stream().map(Informer::key).toList();
		WatchedNamespaces watched = this.cache.namespaces();
		Set<InformerKey> members = new HashSet<>();
		this.cache.namespaceSetInformers()
			.forEach((informer) -> informer.members().forEach((member) -> members.add(member.key())));
		// where unplaced permissions go: every namespace the caches hold objects in
		Set<String> namespaces = new LinkedHashSet<>();
		boolean allNamespaces = keys.isEmpty() && watched.watchesAll();
		for (InformerKey key : keys) {
			switch (placement(key, members)) {
				case ALL_NAMESPACES -> allNamespaces = true;
				case NAMESPACE -> namespaces.add(key.namespace());
				case NAMESPACE_SET -> namespaces.addAll(watched.current());
			}
		}
		if (keys.isEmpty()) {
			namespaces.addAll(watched.current());
		}
		List<Permission> wanted = new ArrayList<>();
		for (ManagerRunnable runnable : runnables) {
			wanted.addAll(runnable.requiredPermissions());
		}
		wanted.addAll(this.settings.permissions);
		List<Permission> declared = new ArrayList<>();
		for (Permission permission : wanted) {
			if (permission.isPlaced()) {
				declared.add(permission);
			}
			else if (allNamespaces) {
				declared.add(permission.inAllNamespaces());
			}
			else {
				namespaces.forEach((namespace) -> declared.add(permission.inNamespace(namespace)));
			}
		}
		permissions.addAll(declared);
		for (InformerKey key : keys) {
			Placement placement = placement(key, members);
			if (declared.stream().noneMatch((permission) -> listsAndWatches(permission, key, placement))) {
				Permission permission = Permission.of(key.type(), "list", "watch")
					.because("the cache's informer " + key + " lists and watches them");
				permissions.add((key.namespace() != null) ? permission.inNamespace(key.namespace())
						: permission.inAllNamespaces());
			}
		}
		return permissions;
	}

	/**
	 * Where an informer lists and watches.
	 */
	private enum Placement {

		/** One namespace, named by its key. */
		NAMESPACE,

		/** All namespaces. */
		ALL_NAMESPACES,

		/**
		 * A namespace of the manager's set, or all for a cluster-scoped kind in the set.
		 */
		NAMESPACE_SET

	}

	private static Placement placement(InformerKey key, Set<InformerKey> members) {
		if (members.contains(key)) {
			// of the set, even the one informer of a cluster-scoped kind
			return Placement.NAMESPACE_SET;
		}
		return (key.namespace() != null) ? Placement.NAMESPACE : Placement.ALL_NAMESPACES;
	}

	/**
	 * Whether a permission lets an informer list and watch: in its namespace, or, for the
	 * one informer of a cluster-scoped kind in the set, in any namespace (RBAC places the
	 * kind's rules in a ClusterRole).
	 */
	private static boolean listsAndWatches(Permission permission, InformerKey key, Placement placement) {
		String namespace = (placement == Placement.NAMESPACE_SET && key.namespace() == null) ? permission.namespace()
				: key.namespace();
		return permission.grants(key.type(), namespace, "list") && permission.grants(key.type(), namespace, "watch");
	}

	private static List<Permission> leasePermissions(LeaderElectionConfig election) {
		return List.of(
				Permission.of(LEASE_GROUP, LEASES, "create")
					.inNamespace(election.namespace())
					.inRole(LEADER_ELECTION_ROLE)
					.because("leader election creates its Lease " + election.name()
							+ " (RBAC cannot restrict create to a name)"),
				Permission.of(LEASE_GROUP, LEASES, "get", "update", "watch")
					.resourceNames(election.name())
					.inNamespace(election.namespace())
					.inRole(LEADER_ELECTION_ROLE)
					.because("leader election reads and renews its Lease; with watch a standby takes over a "
							+ "released Lease at once"));
	}

	/**
	 * Returns the informers of the cache.
	 * @return the informers
	 */
	public List<Informer<?>> informers() {
		return this.cache.informers();
	}

	/**
	 * Describes an API server that has not answered the cache's probe.
	 * @param threshold how long it may go unanswered
	 * @return the failure, {@code null} while it answers or for no longer than the
	 * threshold
	 */
	@Nullable String apiServerUnanswered(Duration threshold) {
		Duration unanswered = this.cache.apiServerUnansweredFor();
		if (unanswered == null || unanswered.compareTo(threshold) <= 0) {
			return null;
		}
		return "API server unanswered for " + unanswered.toMillis() + "ms: " + this.cache.apiServerError();
	}

	/**
	 * Whether readiness waits for an informer's sync: for every informer until the caches
	 * synced at start, and then for those only. While an informer registered later (by a
	 * leader-only runnable once elected, say) lists, a replica that is serving stays
	 * ready; readiness follows its watch like every other's, so that it goes down once
	 * the informer has been without a watch, its first included, for longer than the
	 * watch failure threshold.
	 * @param informer an informer of the cache
	 * @return {@code true} if its sync counts for readiness
	 */
	boolean syncCountsForReadiness(Informer<?> informer) {
		Set<InformerKey> startup = this.startupInformers;
		return startup == null || startup.contains(informer.key());
	}

	/**
	 * Returns the informers that follow the manager's namespace set, each with its member
	 * of each namespace.
	 * @return the informers, empty when the manager watches all namespaces
	 */
	List<InformerCache.SetInformer> namespaceSetInformers() {
		return this.cache.namespaceSetInformers();
	}

	/**
	 * Whether readiness waits for the namespaces of an informer of the set to sync: one
	 * the manager started with does, whenever a namespace joins (while it is asked for);
	 * one registered later does not, as any informer registered later.
	 * @param key the key of an informer of the set
	 * @return {@code true} if its members' syncs count for readiness
	 */
	boolean namespaceSyncCountsForReadiness(InformerKey key) {
		Set<InformerKey> startup = this.startupSetInformers;
		return startup == null || startup.contains(key);
	}

	/**
	 * Returns what this replica knows about the leader election.
	 * @return the status, or {@code null} when leader election is off
	 */
	public @Nullable LeaderElectionStatus leaderElection() {
		return this.leaderElector;
	}

	/**
	 * Whether this replica runs its leader-only runnables now: always once started
	 * without leader election, while holding the Lease with it.
	 * @return {@code true} while leading
	 */
	public boolean isLeader() {
		return (this.leaderElector != null) ? this.leaderElector.isLeader() : this.leaderOnly.isStarted();
	}

	/**
	 * Whether any leader-only runnable is still running, including ones that are stopping
	 * after a lost Lease.
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
	 * Returns how long an informer may hear nothing from the API server before the
	 * watchdog replaces it.
	 * @return the threshold
	 */
	public Duration watchSilenceThreshold() {
		return this.settings.watchSilenceThreshold;
	}

	/**
	 * Returns how long an informer's list or watch may keep failing before the readiness
	 * of {@link ManagerHealth} goes down.
	 * @return the threshold
	 */
	public Duration watchFailureThreshold() {
		return this.settings.watchFailureThreshold;
	}

	/**
	 * Returns the longest one call of the manager's client may take.
	 * @return the timeout
	 */
	public Duration clientTimeout() {
		return this.settings.clientTimeout;
	}

	/**
	 * Returns the requests per second the client and the caches may send on average.
	 * @return the rate, {@code 0} for no limit
	 */
	public double clientQps() {
		return this.settings.clientQps;
	}

	/**
	 * Returns the requests the client and the caches may send at once above
	 * {@link #clientQps()}.
	 * @return the burst
	 */
	public int clientBurst() {
		return this.settings.clientBurst;
	}

	/**
	 * Returns the most objects one list request of the caches asks for.
	 * @return the page size
	 */
	public int listPageSize() {
		return this.settings.listPageSize;
	}

	/**
	 * Returns whether the caches stream their lists where the API server can.
	 * @return whether lists are streamed
	 */
	public boolean streamingLists() {
		return this.settings.streamingLists;
	}

	/**
	 * Starts the manager and blocks until the caches have synced and every runnable has
	 * started.
	 * @throws IllegalStateException if the manager was started before
	 * @throws io.kubeboot.operator.client.KindNotServedException if a watched kind is not
	 * served by the API server
	 * @throws io.kubeboot.operator.cache.CacheSyncException if the caches did not sync in
	 * time
	 * @throws FieldSelectorNotSupportedException if the API server refuses the field
	 * selector of an informer, naming the runnables (controllers) that asked for it
	 * @throws io.kubeboot.operator.client.ApiServerUnreachableException if no discovery
	 * request reached the API server within the cache sync timeout
	 * @throws io.kubeboot.operator.leaderelection.LeaseAccessDeniedException if leader
	 * election is on and RBAC denies what it needs on the Lease
	 * @throws io.kubeboot.operator.config.InvalidConfigException if an object budget
	 * names a kind that no informer caches
	 * @throws InterruptedException if interrupted while waiting; the manager is stopped
	 */
	public void start() throws InterruptedException {
		synchronized (this.lifecycleMonitor) {
			if (this.state != ManagerState.NEW) {
				throw new IllegalStateException("Manager cannot start: it is " + this.state);
			}
			this.state = ManagerState.STARTING;
		}
		logger.info("Starting manager: runnables={}", this.everyReplica.names());
		try {
			if (this.settings.budgetKindsRequired) {
				this.settings.objectBudgets.requireKindsOf(this.cache.informers().stream().map(Informer::key).toList());
			}
			if (this.settings.webhookServer != null) {
				// first, as controller-runtime does: the API server may call a webhook as
				// soon as the operator could act, and a conversion webhook before any
				// list
				this.settings.webhookServer.start();
			}
			this.cache.resolveAll(this.settings.cacheSyncTimeout);
			// beside the caches' first lists, not before them: its verdicts only explain
			// a list RBAC refuses, and a Lease it refuses fails the start all the same,
			// before anything runs
			StartupAccessCheck.Running access = new StartupAccessCheck(this.limitedClient, this.cache,
					this.settings.leaderElection, this.settings.cacheSyncTimeout)
				.checkBeside(requiredPermissions());
			this.cache.start(null);
			this.cache.accessChecked(access.await());
			try {
				this.cache.waitForSync(this.settings.cacheSyncTimeout);
			}
			catch (FieldSelectorNotSupportedException ex) {
				throw ex.withUsers(runnablesReading(ex.informer()));
			}
			this.startupInformers = Set.copyOf(this.cache.informers().stream().map(Informer::key).toList());
			this.startupSetInformers = Set
				.copyOf(this.cache.namespaceSetInformers().stream().map(InformerCache.SetInformer::key).toList());
			logger.info("Caches synced: informers={}", this.cache.informers().size());
			synchronized (this.lifecycleMonitor) {
				if (this.state != ManagerState.STARTING) {
					return; // stopped or failed while starting
				}
				this.everyReplica.start();
				if (this.leaderElector != null) {
					LeaderElectionRunner runner = new LeaderElectionRunner(this.leaderElector, this.leaderOnly,
							this.leaderElectionListener, this.settings.lostLeaseExit,
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

	/**
	 * Checks, on a thread of its own, what RBAC grants in namespaces added to the set
	 * while the manager runs, as the start-up check does there, and warns once naming
	 * every rule it denies; before the start, the start-up check covers them.
	 */
	private void checkAccessInJoined(Set<String> namespaces) {
		if (this.state != ManagerState.RUNNING) {
			return;
		}
		List<Permission> permissions = requiredPermissions();
		Thread check = new Thread(() -> {
			try {
				new StartupAccessCheck(this.limitedClient, this.cache, null, this.settings.cacheSyncTimeout)
					.checkAdded(permissions, namespaces);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (RuntimeException ex) {
				logger.warn("Cannot check RBAC in the namespaces added to the set, continuing: namespaces={} "
						+ "error=\"{}\"", namespaces, ex.toString());
			}
		}, "operator-rbac-check-namespaces");
		check.setDaemon(true);
		check.start();
	}

	private List<String> runnablesReading(InformerKey informer) {
		List<String> names = new ArrayList<>(this.everyReplica.namesReading(informer));
		names.addAll(this.leaderOnly.namesReading(informer));
		return names;
	}

	/**
	 * Stops the manager gracefully and blocks until it has stopped: leader-only
	 * runnables, then the other runnables, then the caches, within the graceful shutdown
	 * timeout. Does nothing if already stopped.
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
		if (this.settings.webhookServer != null) {
			this.settings.webhookServer.stop();
		}
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

}
