package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.metrics.ControllerMetrics.Outcome;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.source.Channel;
import io.kubeboot.operator.source.RequestQueue;
import io.kubeboot.operator.source.Source;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubeboot.operator.workqueue.Ticker;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubeboot.operator.workqueue.WorkQueues;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running reconcile loop: requests from its event sources go through a rate-limiting
 * work queue to {@code maxConcurrentReconciles} worker threads that call the reconciler.
 * <p>
 * The queue is a priority queue unless turned off
 * ({@link ControllerBuilder#priorityQueue}, {@code ManagerBuilder.priorityQueue}):
 * requests that carry no news (the cached objects at start, unchanged updates, periodic
 * triggers) wait behind the changes seen on the watches, and a requeue keeps the priority
 * it was handed out with (docs/design/priority-queue.md).
 * <p>
 * A controller is a leader-only {@link ManagerRunnable} unless its {@link WorkGate} says
 * otherwise (a sharded controller runs on every replica and reconciles only the objects
 * its ring gives this replica): the manager starts it once the caches have synced (and,
 * with leader election, once elected). Each start uses a fresh queue, seeded with every
 * cached object, so a controller stopped on a lost lease and started again misses
 * nothing. {@link #start} blocks until stopped; on stop no new reconcile begins and the
 * ones in flight finish (the manager interrupts them after its graceful shutdown
 * timeout).
 * <p>
 * Every request queued carries its {@link ReconcileTrigger}, kept beside the queue
 * ({@link PendingTriggers}) until a worker takes the request: its reconcile runs with a
 * {@link ReconcileContext} that lists why it runs, counted per kind in the controller's
 * metrics and, with {@link OperatorTracing}, recorded on the reconcile's span.
 */
public final class Controller implements ManagerRunnable {

	/**
	 * What the name of a controller's runnable in the manager starts with, as the
	 * manager's logs and {@code /actuator/operator} show it: {@code controller-app} for
	 * the controller {@code app}.
	 */
	public static final String RUNNABLE_PREFIX = "controller-";

	private static final Logger logger = LoggerFactory.getLogger(Controller.class);

	private static final ReconcileTrigger.Kind[] KINDS = ReconcileTrigger.Kind.values();

	private final String name;

	private final ReconcileRunner runner;

	private final int maxConcurrentReconciles;

	private final boolean priorityQueue;

	private final Supplier<RateLimiter<Request>> rateLimiters;

	private final Function<String, WorkQueueMetrics> queueMetrics;

	private final Class<? extends KubernetesObject> forType;

	private final List<EventSource<?>> sources;

	/**
	 * The requests reconciled at an older version than one that does not decode, said
	 * once each.
	 */
	private final Map<Request, String> warnedUndecodable = new ConcurrentHashMap<>();

	/**
	 * The controller's own channel: {@link #enqueue} and the {@code Enqueuer} send to it.
	 */
	private final Channel channel = new Channel();

	private final SourceRunner sourceRunner;

	private final Duration cacheSyncTimeout;

	private final AtomicInteger liveWorkers = new AtomicInteger();

	private final Supplier<List<Permission>> permissions;

	private final WorkGate gate;

	private final NamespaceFilter namespaces;

	/** The requests of namespaces whose caches have not synced, outside the queue. */
	private final WaitingRequests waiting;

	private final ControllerMetrics metrics;

	/**
	 * The queue of the current run with its triggers, {@code null} while the controller
	 * does not run: adds are dropped then, and nothing is kept for them.
	 */
	private volatile @Nullable TriggeredQueue run;

	Controller(String name, Class<? extends KubernetesObject> forType, Reconciler reconciler,
			int maxConcurrentReconciles, boolean priorityQueue, Supplier<RateLimiter<Request>> rateLimiters,
			Function<String, WorkQueueMetrics> queueMetrics, ControllerMetrics metrics, List<EventSource<?>> sources,
			Duration cacheSyncTimeout, List<Permission> permissions, WorkGate gate) {
		this(name, forType, reconciler, maxConcurrentReconciles, priorityQueue, rateLimiters, queueMetrics, metrics,
				sources, cacheSyncTimeout, () -> permissions, gate, NamespaceFilter.NONE, OperatorTracing.NOOP);
	}

	/**
	 * Creates a controller whose permissions are placed when asked for (in the manager's
	 * namespaces as they are then), whose requests its namespace filter sorts and whose
	 * reconciles are traced.
	 */
	Controller(String name, Class<? extends KubernetesObject> forType, Reconciler reconciler,
			int maxConcurrentReconciles, boolean priorityQueue, Supplier<RateLimiter<Request>> rateLimiters,
			Function<String, WorkQueueMetrics> queueMetrics, ControllerMetrics metrics, List<EventSource<?>> sources,
			Duration cacheSyncTimeout, Supplier<List<Permission>> permissions, WorkGate gate,
			NamespaceFilter namespaces, OperatorTracing tracing) {
		this.name = name;
		this.gate = gate;
		this.namespaces = namespaces;
		this.waiting = new WaitingRequests(name, namespaces, this::released);
		this.permissions = permissions;
		this.metrics = metrics;
		this.runner = new ReconcileRunner(name, reconciler, metrics, tracing,
				(request) -> namespaces.verdict(request) == NamespaceFilter.Verdict.DROP);
		this.maxConcurrentReconciles = maxConcurrentReconciles;
		this.priorityQueue = priorityQueue;
		this.rateLimiters = rateLimiters;
		this.queueMetrics = queueMetrics;
		this.forType = forType;
		this.sources = List.copyOf(sources);
		this.cacheSyncTimeout = cacheSyncTimeout;
		this.sourceRunner = new SourceRunner(name, this::admit);
		this.sourceRunner.add(this.channel);
		this.sources.forEach((source) -> source.register(this::addToQueue));
		gate.attach(this::queueCached);
	}

	/**
	 * Starts building a controller for a kind, the counterpart of controller-runtime's
	 * {@code ctrl.NewControllerManagedBy(mgr).For(...)};
	 * {@link ControllerBuilder#complete} adds it to the manager.
	 * @param <T> the reconciled model type
	 * @param manager the manager that runs the controller and owns its caches
	 * @param forType the reconciled kind
	 * @return the builder
	 * @throws IllegalArgumentException if the class declares no Kubernetes kind
	 */
	public static <T extends KubernetesObject> ControllerBuilder<T> builder(Manager manager, Class<T> forType) {
		return new ControllerBuilder<>(manager, forType);
	}

	/**
	 * Returns the controllers of a manager.
	 * @param manager the manager
	 * @return the controllers in the order they were added
	 */
	public static List<Controller> of(Manager manager) {
		return manager.runnables(Controller.class);
	}

	/**
	 * Returns the controller of a manager with the given name.
	 * @param manager the manager
	 * @param name the controller's name
	 * @return the controller
	 * @throws IllegalArgumentException naming the known controllers if there is none of
	 * that name
	 */
	public static Controller named(Manager manager, String name) {
		List<Controller> controllers = of(manager);
		return controllers.stream()
			.filter((controller) -> controller.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No controller named '" + name + "'; the controllers are "
					+ controllers.stream().map(Controller::name).toList()));
	}

	/**
	 * Returns the controller of a manager that reconciles a kind.
	 * @param manager the manager
	 * @param kind the reconciled model class
	 * @return the controller
	 * @throws IllegalArgumentException if no controller or more than one reconciles the
	 * kind, naming them
	 */
	public static Controller forKind(Manager manager, Class<? extends KubernetesObject> kind) {
		List<Controller> all = of(manager);
		List<Controller> matching = all.stream().filter((controller) -> controller.forType() == kind).toList();
		if (matching.size() == 1) {
			return matching.get(0);
		}
		if (matching.isEmpty()) {
			throw new IllegalArgumentException("No controller reconciles " + kind.getName() + "; the controllers are "
					+ all.stream().map(Controller::name).toList());
		}
		throw new IllegalArgumentException("Several controllers reconcile " + kind.getName() + ": "
				+ matching.stream().map(Controller::name).toList() + "; name the one to use");
	}

	/**
	 * Returns the controller's name, as used in logs and metrics.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Returns the reconciled kind.
	 * @return the model class
	 */
	public Class<? extends KubernetesObject> forType() {
		return this.forType;
	}

	/**
	 * Adds a source of requests, the counterpart of controller-runtime's
	 * {@code Controller.Watch}. Added before the controller starts, it starts with it;
	 * added while it runs, it starts at once. Either way it runs whenever the controller
	 * runs, on a thread of its own, and stops before the controller's workers.
	 * @param source the source
	 */
	public void watch(Source source) {
		Objects.requireNonNull(source, "source must not be null");
		this.sourceRunner.add(source);
	}

	/**
	 * Returns the sources added with {@link #watch} or the builder, after the
	 * controller's own {@link Channel}.
	 * @return the sources
	 */
	public List<Source> sources() {
		return this.sourceRunner.sources();
	}

	/**
	 * Returns a runnable that runs a source on every replica, leader or not, and hands
	 * its requests to this controller (dropped while the controller does not run). For a
	 * source with side effects every replica needs; a source that only produces requests
	 * belongs in {@link #watch}, where it runs only while the controller runs.
	 * @param source the source
	 * @return a runnable to add to the manager
	 */
	public ManagerRunnable onEveryReplica(Source source) {
		Objects.requireNonNull(source, "source must not be null");
		RequestQueue queue = new RequestQueue() {

			@Override
			public void add(Request request) {
				enqueue(request);
			}

			@Override
			public void addAfter(Request request, Duration delay) {
				addAfter(request, delay, WorkQueue.DEFAULT_PRIORITY);
			}

			@Override
			public void add(Request request, int priority) {
				addToQueue(request, priority, ReconcileTrigger.of(source.triggerKind()));
			}

			@Override
			public void addAfter(Request request, Duration delay, int priority) {
				TriggeredQueue current = Controller.this.run;
				if (current != null) {
					current.addAfter(request, delay, priority, ReconcileTrigger.of(source.triggerKind()));
				}
			}

		};
		return ManagerRunnable.onEveryReplica((stop) -> source.start(queue, stop));
	}

	/**
	 * Returns how many requests may be reconciled at once.
	 * @return the number of workers
	 */
	public int maxConcurrentReconciles() {
		return this.maxConcurrentReconciles;
	}

	/**
	 * Whether the controller's work queue is a priority queue, which hands out changes
	 * before the requests that carry no news (see the class description).
	 * @return {@code true} for a priority queue, {@code false} for first in, first out
	 */
	public boolean priorityQueue() {
		return this.priorityQueue;
	}

	/**
	 * Returns how many workers are inside a reconcile now.
	 * @return the number of active workers
	 */
	public int activeWorkers() {
		return this.runner.activeWorkers();
	}

	/**
	 * Returns how many worker threads are alive; while the controller runs, fewer than
	 * {@link #maxConcurrentReconciles()} means workers died.
	 * @return the number of live workers
	 */
	public int liveWorkers() {
		return this.liveWorkers.get();
	}

	/**
	 * Returns how many requests are ready and waiting for a worker.
	 * @return the queue depth, zero while the controller is not running
	 */
	public int queueDepth() {
		TriggeredQueue current = this.run;
		return (current != null) ? current.queue().len() : 0;
	}

	/**
	 * Returns how many requests wait, outside the work queue, for the caches of their
	 * namespace to sync: one just added to the manager's namespace set, or one that RBAC
	 * refuses (see {@code WatchedNamespaces}).
	 * @return the number of requests, zero while the controller is not running or does
	 * not follow the manager's namespace set
	 */
	public int waitingRequests() {
		return this.waiting.size();
	}

	/**
	 * Returns how long the requests being reconciled now have been in their reconciles,
	 * in total (client-go's {@code workqueue_unfinished_work_seconds}).
	 * @return the total in nanoseconds, zero while the controller is not running
	 */
	public long unfinishedWorkNanos() {
		TriggeredQueue current = this.run;
		return (current != null) ? current.queue().unfinishedWorkNanos() : 0;
	}

	/**
	 * Returns how long the longest-running reconcile has been running (client-go's
	 * {@code workqueue_longest_running_processor_seconds}).
	 * @return the duration in nanoseconds, zero while the controller is not running
	 */
	public long longestRunningProcessorNanos() {
		TriggeredQueue current = this.run;
		return (current != null) ? current.queue().longestRunningProcessorNanos() : 0;
	}

	/**
	 * Whether the controller's workers are running.
	 * @return {@code true} between start and stop
	 */
	public boolean isRunning() {
		TriggeredQueue current = this.run;
		return current != null && !current.queue().isShuttingDown();
	}

	/**
	 * Returns the triggers kept beside the queue of the current run.
	 * @return the triggers, {@code null} while the controller does not run
	 */
	@Nullable PendingTriggers pendingTriggers() {
		TriggeredQueue current = this.run;
		return (current != null) ? current.triggers() : null;
	}

	/**
	 * The {@code workers} liveness check: a running controller must have all its workers
	 * (only an {@code OutOfMemoryError} or a JVM-internal error kills one).
	 * @throws IllegalStateException naming the controller if workers died
	 */
	void checkWorkersAlive() {
		int live = this.liveWorkers.get();
		if (isRunning() && live < this.maxConcurrentReconciles) {
			throw new IllegalStateException(
					this.name + " has " + live + " of " + this.maxConcurrentReconciles + " workers");
		}
	}

	/**
	 * Returns what this controller needs RBAC to allow: {@code list} and {@code watch} of
	 * every kind it reconciles, owns or watches, in the namespaces it caches them;
	 * {@code patch} of the reconciled kind with a finalizer (and {@code get} with a label
	 * selector too, to remove the finalizer of an object that left it); and what the
	 * reconciler declared with {@link ControllerBuilder#requires}. A controller of the
	 * manager's namespace set needs them in each namespace of the set as it is now.
	 * @return the permissions, each with its reason
	 */
	@Override
	public List<Permission> requiredPermissions() {
		return List.copyOf(this.permissions.get());
	}

	/**
	 * Whether this controller follows the manager's namespace set.
	 * @return {@code true} if it watches the namespaces of the set
	 */
	boolean followsNamespaceSet() {
		return this.namespaces.followsSet();
	}

	/**
	 * Returns the informers whose events reach this controller: for a kind it watches in
	 * the manager's namespaces, the informer of each namespace of the set as it is now.
	 * @return the informer keys, those of the reconciled kind first
	 */
	public List<InformerKey> watches() {
		return this.sources.stream().flatMap((source) -> this.namespaces.keysOf(source.informer()).stream()).toList();
	}

	/**
	 * Returns the informer of the reconciled kind as the controller asked for it: its
	 * kind, namespace and selectors, without a namespace when the controller watches the
	 * manager's namespaces (all of them, or the set that {@link #watches()} lists one by
	 * one).
	 * @return the key
	 */
	public InformerKey reconciledKindKey() {
		return this.sources.get(0).informer().key();
	}

	/**
	 * Returns the informers whose events reach this controller, as {@link #watches()}
	 * does, for the manager to name this controller when one of them cannot start.
	 * @return the informer keys, the reconciled kind first
	 */
	@Override
	public List<InformerKey> informerKeys() {
		return watches();
	}

	/**
	 * Returns a request for every cached object of the reconciled kind.
	 * @return the requests, empty before the cache synced
	 */
	public List<Request> cachedRequests() {
		return this.sources.get(0).informer().list().stream().map(Request::of).toList();
	}

	/**
	 * Asks for a request to be reconciled, for events from outside the cluster, through
	 * the controller's own {@link Channel}. Dropped while the controller is not running
	 * (a controller that starts reconciles every cached object anyway). Never blocks.
	 * @param request the request
	 * @return {@code true} if queued, {@code false} if dropped
	 */
	public boolean enqueue(Request request) {
		return this.channel.send(request);
	}

	/**
	 * Queues a request of an informer's event that the gate admits, as {@link #admit}
	 * does.
	 */
	private void addToQueue(Request request, int priority, ReconcileTrigger trigger) {
		TriggeredQueue current = this.run;
		if (current != null && this.gate.admits(request)) {
			admit(current, request, priority, trigger);
		}
	}

	/**
	 * Queues a request with its trigger, unless its namespace is not watched (dropped) or
	 * not cached whole yet (its trigger recorded and the request held until it is).
	 */
	private void admit(TriggeredQueue current, Request request, int priority, ReconcileTrigger trigger) {
		switch (this.namespaces.verdict(request)) {
			case WORK -> current.add(request, priority, trigger);
			case WAIT -> {
				current.triggers().record(request, trigger);
				this.waiting.hold(request, priority);
			}
			case DROP -> {
				// its namespace is not watched
			}
		}
	}

	/**
	 * Takes back a request held for its namespace, whose triggers are recorded already:
	 * queued once its namespace synced, its triggers forgotten if the namespace left.
	 */
	private void released(Request request, int priority) {
		TriggeredQueue current = this.run;
		if (current == null) {
			return;
		}
		switch (this.namespaces.verdict(request)) {
			case WORK -> current.queue().add(request, priority);
			case WAIT -> this.waiting.hold(request, priority);
			case DROP -> current.triggers().forget(request);
		}
	}

	/**
	 * Queues the cached objects a test selects, at low priority, once the controller
	 * runs.
	 */
	private void queueCached(Predicate<Request> which) {
		TriggeredQueue current = this.run;
		if (current == null) {
			return;
		}
		for (Request request : cachedRequests()) {
			if (which.test(request)) {
				addToQueue(request, WorkQueue.LOW_PRIORITY, ReconcileTrigger.of(ReconcileTrigger.Kind.RESYNC));
			}
		}
	}

	/**
	 * Returns the gate that decides whether and when this controller's requests are
	 * worked on.
	 * @return the gate
	 */
	public WorkGate gate() {
		return this.gate;
	}

	/**
	 * Returns how many objects of the reconciled kind in the cache this replica is
	 * responsible for now: all of them while its workers run (on the leader), none on a
	 * standby, and what its gate gives it if gated (a sharded controller's share).
	 * Computed on each call, in time proportional to the cached objects.
	 * @return the number of objects
	 */
	public int assignedObjects() {
		return this.gate.assignedObjects(this.sources.get(0).informer().list(), isRunning());
	}

	/**
	 * Controllers run only on the leader, unless their gate runs them on every replica (a
	 * sharded controller's).
	 * @return what the gate says
	 */
	@Override
	public boolean needsLeaderElection() {
		return this.gate.needsLeaderElection();
	}

	@Override
	public void start(StopSignal stop) throws Exception {
		awaitSourcesSynced(stop);
		if (stop.isStopRequested()) {
			// stopped before the workers started: reconcile nothing
			return;
		}
		RequeueRecorder.Delays rateLimiter = new RequeueRecorder.Delays(this.rateLimiters.get(), Ticker.system());
		WorkQueueMetrics metrics = this.queueMetrics.apply(this.name);
		WorkQueue<Request> current = this.priorityQueue ? WorkQueues.newPriorityQueue(this.name, rateLimiter, metrics)
				: WorkQueues.newRateLimitingQueue(this.name, rateLimiter, metrics);
		PendingTriggers pending = new PendingTriggers(Ticker.system());
		WorkQueue<Request> requeues = new RequeueRecorder(current, rateLimiter, pending);
		// counted before the queue makes the controller look running, so the workers
		// check never sees a starting controller "missing" workers
		this.liveWorkers.addAndGet(this.maxConcurrentReconciles);
		TriggeredQueue run = new TriggeredQueue(current, pending);
		this.run = run;
		this.waiting.start();
		this.sources.forEach((source) -> source.replay(this::addToQueue));
		this.sourceRunner.startAll(run);
		List<Thread> workers = new ArrayList<>();
		for (int i = 0; i < this.maxConcurrentReconciles; i++) {
			Runnable loop = this.gate.aroundWorker(() -> work(run, requeues));
			Thread worker = new Thread(() -> {
				try {
					loop.run();
				}
				finally {
					this.liveWorkers.decrementAndGet();
				}
			}, "controller-" + this.name + "-worker-" + i);
			worker.start();
			workers.add(worker);
		}
		logger.info("Starting workers: controller={} workerCount={}", this.name, this.maxConcurrentReconciles);
		try {
			stop.await();
			logger.info("Shutdown signal received, waiting for all workers to finish: controller={}", this.name);
			this.sourceRunner.stopAll();
			this.waiting.stop();
			endRun(run);
			for (Thread worker : workers) {
				worker.join();
			}
			run.forgetTriggers();
			logger.info("All workers finished: controller={}", this.name);
		}
		catch (InterruptedException ex) {
			this.sourceRunner.stopAll();
			this.waiting.stop();
			endRun(run);
			workers.forEach(Thread::interrupt);
			logger.warn("Workers interrupted after the graceful shutdown timeout: controller={}", this.name);
			// the controller ends only with its last worker: the manager must be able to
			// tell that leader-only work still runs, so that it neither releases the
			// Lease nor campaigns again meanwhile
			awaitAll(workers);
			run.forgetTriggers();
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Drops the run before shutting its queue down, so that every add from then on is
	 * dropped, as a stopped controller's are, instead of recording a trigger for a queue
	 * that ignores its request.
	 */
	private void endRun(TriggeredQueue run) {
		if (this.run == run) {
			this.run = null;
		}
		run.queue().shutDown();
	}

	private void awaitAll(List<Thread> workers) {
		for (Thread worker : workers) {
			while (worker.isAlive()) {
				try {
					worker.join();
				}
				catch (InterruptedException again) {
					// keep waiting: returning would report a stop that did not happen
				}
			}
		}
	}

	private void awaitSourcesSynced(StopSignal stop) throws InterruptedException {
		long deadline = System.nanoTime() + this.cacheSyncTimeout.toNanos();
		while (!this.sources.stream()
			.allMatch((source) -> !this.namespaces.waitsAtStart(source.informer()) || source.informer().hasSynced())) {
			if (System.nanoTime() - deadline >= 0) {
				throw new IllegalStateException(
						"Controller " + this.name + " timed out waiting for its caches to sync");
			}
			if (stop.await(Duration.ofMillis(20))) {
				return;
			}
		}
	}

	private void work(TriggeredQueue run, WorkQueue<Request> requeues) {
		WorkQueue<Request> current = run.queue();
		while (true) {
			Request request;
			try {
				request = current.get();
			}
			catch (InterruptedException ex) {
				if (current.isShuttingDown()) {
					return;
				}
				// an interrupt from elsewhere (a pool the reconciler used, a library)
				// must not end the worker: the controller would run one worker short
				// until the pod restarts
				logger.warn("Worker interrupted while its controller runs, going on: controller={} worker={}",
						this.name, Thread.currentThread().getName());
				continue;
			}
			if (request == null) {
				return;
			}
			try {
				work(run, requeues, request);
			}
			finally {
				current.done(request);
			}
		}
	}

	/**
	 * Hands a request to the gate, unless its namespace left the manager's set (dropped)
	 * or has yet to be cached whole (held until it is, keeping its failures' backoff).
	 */
	private void work(TriggeredQueue run, WorkQueue<Request> requeues, Request request) {
		WorkQueue<Request> current = run.queue();
		switch (this.namespaces.verdict(request)) {
			case WORK -> this.gate.work(new QueueTurn(run, requeues, request));
			case WAIT -> this.waiting.hold(request, current.priorityOf(request));
			case DROP -> {
				logger.debug("Request dropped, its namespace is not watched: controller={} request={}", this.name,
						request);
				current.forget(request);
				run.triggers().forget(request);
			}
		}
	}

	/**
	 * Reconciles a request, saying so once per version when the cache holds an older
	 * version of its object than the API server's, whose latest version does not decode.
	 * The reconcile runs with its context bound to the worker's thread: why it runs (the
	 * triggers taken with the request, counted per kind), and when it queued the request
	 * again, why (a requeue it asked for, or a retry after its error).
	 */
	private void reconcile(TriggeredQueue run, WorkQueue<Request> requeues, Request request) {
		Optional<String> undecodable = this.sources.get(0)
			.informer()
			.undecodableVersion(request.namespace(), request.name());
		if (undecodable.isEmpty()) {
			this.warnedUndecodable.remove(request);
		}
		else if (!undecodable.get().equals(this.warnedUndecodable.put(request, undecodable.get()))) {
			logger.warn(
					"Reconciling the last version of an object that decoded, its latest does not decode into "
							+ "the model: controller={} request={} undecodableResourceVersion={}",
					this.name, request, undecodable.get());
		}
		PendingTriggers.Taken taken = run.take(request);
		ReconcileContext context = ReconcileContext.of(this.name, request, taken.triggers(), taken.dropped(),
				kinds(taken.droppedKinds()), taken.queued(System.nanoTime()));
		countTriggers(taken);
		Outcome[] outcome = { null };
		context.run(() -> outcome[0] = this.runner.reconcile(requeues, request));
		run.triggers()
			.settle(request, (outcome[0] == Outcome.REQUEUE || outcome[0] == Outcome.REQUEUE_AFTER)
					? ReconcileTrigger.Kind.REQUEUE : ReconcileTrigger.Kind.RETRY_AFTER_ERROR);
	}

	/** The kinds a bit per kind stands for. */
	private static Set<ReconcileTrigger.Kind> kinds(int bits) {
		if (bits == 0) {
			return Set.of();
		}
		EnumSet<ReconcileTrigger.Kind> kinds = EnumSet.noneOf(ReconcileTrigger.Kind.class);
		for (ReconcileTrigger.Kind kind : KINDS) {
			if ((bits & (1 << kind.ordinal())) != 0) {
				kinds.add(kind);
			}
		}
		return kinds;
	}

	/**
	 * Counts a reconcile once under each kind of its triggers, those cut included,
	 * without allocating.
	 */
	private void countTriggers(PendingTriggers.Taken taken) {
		int kinds = taken.kinds();
		for (ReconcileTrigger.Kind kind : KINDS) {
			if ((kinds & (1 << kind.ordinal())) != 0) {
				this.metrics.triggered(kind);
			}
		}
		if (taken.dropped() > 0) {
			this.metrics.triggersDropped(taken.dropped());
		}
	}

	/**
	 * A request a worker took, as its gate sees it.
	 */
	private final class QueueTurn implements WorkGate.Turn {

		private final TriggeredQueue run;

		private final WorkQueue<Request> current;

		private final WorkQueue<Request> requeues;

		private final Request request;

		QueueTurn(TriggeredQueue run, WorkQueue<Request> requeues, Request request) {
			this.run = run;
			this.current = run.queue();
			this.requeues = requeues;
			this.request = request;
		}

		@Override
		public Request request() {
			return this.request;
		}

		@Override
		public Optional<KubernetesObject> cached() {
			return Controller.this.sources.get(0)
				.informer()
				.get(this.request.namespace(), this.request.name())
				.map(KubernetesObject.class::cast);
		}

		@Override
		public void reconcile() {
			Controller.this.reconcile(this.run, this.requeues, this.request);
		}

		@Override
		public void drop() {
			this.current.forget(this.request);
			// nothing left to do for it, nor for why it was queued
			this.run.take(this.request);
		}

		@Override
		public void retryAfter(Duration delay) {
			this.current.forget(this.request);
			this.current.addAfter(this.request, delay, this.current.priorityOf(this.request));
		}

		@Override
		public void retryNow() {
			this.current.forget(this.request);
			this.current.add(this.request, this.current.priorityOf(this.request));
		}

		@Override
		public void retryWithBackoff() {
			this.current.addRateLimited(this.request, this.current.priorityOf(this.request));
		}

	}

	@Override
	public String toString() {
		return "Controller[" + this.name + "]";
	}

}
