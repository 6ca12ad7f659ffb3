package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.client.internal.WriteFence;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.sharding.internal.LabelShare;
import io.kubeboot.operator.sharding.internal.ShardGate;
import io.kubeboot.operator.sharding.internal.ShardRings;
import io.kubeboot.operator.source.Channel;
import io.kubeboot.operator.source.RequestQueue;
import io.kubeboot.operator.source.Source;
import io.kubeboot.operator.workqueue.RateLimiter;
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
 * requests that carry no news (every cached object when the controller starts, the adds
 * of an informer's initial list, updates that did not change the object, periodic
 * triggers) are queued at {@link WorkQueue#LOW_PRIORITY} and wait behind the changes seen
 * on the watches, so a change made while a controller works through thousands of objects
 * after its start is reconciled next. A request is requeued (after an error, a conflict
 * or a delay) at the priority it was handed out with.
 * <p>
 * A controller is a leader-only {@link ManagerRunnable} unless sharded
 * ({@link ControllerBuilder#sharded}: then it runs on every replica and reconciles only
 * the objects its ring gives this replica): the manager starts it once the caches have
 * synced (and, with leader election, once elected). Each start uses a fresh queue, seeded
 * with every cached object, so a controller stopped on a lost lease and started again
 * misses nothing. {@link #start} blocks until stopped; on stop no new reconcile begins
 * and the ones in flight finish (the manager interrupts them after its graceful shutdown
 * timeout).
 */
public final class Controller implements ManagerRunnable {

	/** What the name of a controller's runnable in the manager starts with. */
	static final String RUNNABLE_PREFIX = "controller-";

	/**
	 * How long a request of leader-only work waits while the leader Lease cannot be
	 * vouched for.
	 */
	private static final Duration FENCED_RETRY = Duration.ofMillis(200);

	private static final Logger logger = LoggerFactory.getLogger(Controller.class);

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

	private final List<Permission> permissions;

	private volatile @Nullable WorkQueue<Request> queue;

	/** The ring this controller shares its objects over, {@code null} if not sharded. */
	private @Nullable ShardRing ring;

	/** The gate of the ring's reconciles, {@code null} if not sharded. */
	private @Nullable ShardGate gate;

	/** This replica's labelled share, {@code null} unless sharded by label. */
	private @Nullable LabelShare share;

	/** The client that gives objects back, {@code null} unless sharded. */
	private @Nullable Client client;

	Controller(String name, Class<? extends KubernetesObject> forType, Reconciler reconciler,
			int maxConcurrentReconciles, boolean priorityQueue, Supplier<RateLimiter<Request>> rateLimiters,
			Function<String, WorkQueueMetrics> queueMetrics, ControllerMetrics metrics, List<EventSource<?>> sources,
			Duration cacheSyncTimeout, List<Permission> permissions) {
		this.name = name;
		this.permissions = List.copyOf(permissions);
		this.runner = new ReconcileRunner(name, reconciler, metrics);
		this.maxConcurrentReconciles = maxConcurrentReconciles;
		this.priorityQueue = priorityQueue;
		this.rateLimiters = rateLimiters;
		this.queueMetrics = queueMetrics;
		this.forType = forType;
		this.sources = List.copyOf(sources);
		this.cacheSyncTimeout = cacheSyncTimeout;
		this.sourceRunner = new SourceRunner(name);
		this.sourceRunner.add(this.channel);
		this.sources.forEach((source) -> source.register(this::addToQueue));
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
				addToQueue(request, priority);
			}

			@Override
			public void addAfter(Request request, Duration delay, int priority) {
				WorkQueue<Request> current = Controller.this.queue;
				if (current != null) {
					current.addAfter(request, delay, priority);
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
		WorkQueue<Request> current = this.queue;
		return (current != null) ? current.len() : 0;
	}

	/**
	 * Returns how long the requests being reconciled now have been in their reconciles,
	 * in total (client-go's {@code workqueue_unfinished_work_seconds}).
	 * @return the total in nanoseconds, zero while the controller is not running
	 */
	public long unfinishedWorkNanos() {
		WorkQueue<Request> current = this.queue;
		return (current != null) ? current.unfinishedWorkNanos() : 0;
	}

	/**
	 * Returns how long the longest-running reconcile has been running (client-go's
	 * {@code workqueue_longest_running_processor_seconds}).
	 * @return the duration in nanoseconds, zero while the controller is not running
	 */
	public long longestRunningProcessorNanos() {
		WorkQueue<Request> current = this.queue;
		return (current != null) ? current.longestRunningProcessorNanos() : 0;
	}

	/**
	 * Whether the controller's workers are running.
	 * @return {@code true} between start and stop
	 */
	public boolean isRunning() {
		WorkQueue<Request> current = this.queue;
		return current != null && !current.isShuttingDown();
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
	 * reconciler declared with {@link ControllerBuilder#requires}.
	 * @return the permissions, each with its reason
	 */
	@Override
	public List<Permission> requiredPermissions() {
		return this.permissions;
	}

	/**
	 * Returns the informers whose events reach this controller.
	 * @return the informer keys, the reconciled kind first
	 */
	public List<InformerKey> watches() {
		return this.sources.stream().map((source) -> source.informer().key()).toList();
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

	private void addToQueue(Request request, int priority) {
		WorkQueue<Request> current = this.queue;
		if (current != null && owned(request)) {
			current.add(request, priority);
		}
	}

	/**
	 * Shares this controller's objects over a ring; called by the builder before the
	 * controller is added to the manager.
	 */
	void shard(ShardRing shardRing, Client writer, @Nullable LabelShare labelShare) {
		ShardGate shardGate = ShardRings.gate(shardRing);
		this.client = writer;
		this.ring = shardRing;
		this.gate = shardGate;
		this.share = labelShare;
		// the keys this replica gains (from a new view, or once their old owner drained
		// them) are reconciled now: their requests were dropped while not owned; by
		// label,
		// the cache holds only this replica's objects, dropped while its gate was closed
		shardGate.addListener((before, after) -> queueCached((request) -> {
			if (labelShare != null) {
				return true;
			}
			String key = ShardRing.key(this.forType, request);
			return !before.test(key) && after.test(key);
		}));
		if (labelShare != null) {
			// a new term of this replica's makes the cached objects stamped with it its
			// own, and the sharder's stamps may have arrived before its Lease write's
			// answer did
			ShardRings.member(shardRing).addTermListener(() -> queueCached((request) -> true));
		}
	}

	/**
	 * Queues the cached objects a test selects, at low priority, once the controller
	 * runs.
	 */
	private void queueCached(Predicate<Request> which) {
		WorkQueue<Request> current = this.queue;
		if (current == null) {
			return;
		}
		for (Request request : cachedRequests()) {
			if (which.test(request)) {
				current.add(request, WorkQueue.LOW_PRIORITY);
			}
		}
	}

	/**
	 * The key of an object in a {@link LabelShare}: one share per reconciled kind.
	 * @param request the object
	 * @return {@code namespace/name}
	 */
	static String shareKey(Request request) {
		return request.namespace() + "/" + request.name();
	}

	/**
	 * Returns the ring this controller shares its objects over.
	 * @return the ring, {@code null} if not sharded
	 */
	public @Nullable ShardRing shardRing() {
		return this.ring;
	}

	/**
	 * Whether this replica may reconcile a request now: always unless sharded.
	 */
	private boolean owned(Request request) {
		ShardGate shardGate = this.gate;
		if (shardGate == null) {
			return true;
		}
		// by label, what the cache holds is this replica's: the worker decides; by
		// filter, a key of this replica's view is kept while its Lease is not valid for
		// a moment, and the worker holds it back until it is
		return (this.share != null) || shardGate.snapshot().test(ShardRing.key(this.forType, request));
	}

	/**
	 * Returns how many objects of the reconciled kind in the cache this replica is
	 * responsible for now: all of them while its workers run (on the leader), none on a
	 * standby, and its share of the ring if sharded (none while it is no member).
	 * Computed on each call, in time proportional to the cached objects.
	 * @return the number of objects
	 */
	public int assignedObjects() {
		ShardGate shardGate = this.gate;
		if (shardGate == null) {
			return isRunning() ? this.sources.get(0).informer().list().size() : 0;
		}
		LabelShare labelShare = this.share;
		if (labelShare != null) {
			if (!shardGate.isOpen()) {
				return 0;
			}
			int assigned = 0;
			for (KubernetesObject object : this.sources.get(0).informer().list()) {
				if (labelShare.mayReconcile(shareKey(Request.of(object)), object)) {
					assigned++;
				}
			}
			return assigned;
		}
		int assigned = 0;
		for (Request request : cachedRequests()) {
			if (shardGate.permits(ShardRing.key(this.forType, request))) {
				assigned++;
			}
		}
		return assigned;
	}

	/**
	 * Controllers run only on the leader, unless sharded: then on every replica, each
	 * reconciling the objects the ring gives it.
	 * @return {@code true} unless sharded
	 */
	@Override
	public boolean needsLeaderElection() {
		return this.ring == null;
	}

	@Override
	public void start(StopSignal stop) throws Exception {
		awaitSourcesSynced(stop);
		if (stop.isStopRequested()) {
			// stopped before the workers started: reconcile nothing
			return;
		}
		WorkQueue<Request> current = this.priorityQueue
				? WorkQueues.newPriorityQueue(this.name, this.rateLimiters.get(), this.queueMetrics.apply(this.name))
				: WorkQueues.newRateLimitingQueue(this.name, this.rateLimiters.get(),
						this.queueMetrics.apply(this.name));
		// counted before the queue makes the controller look running, so the workers
		// check never sees a starting controller "missing" workers
		this.liveWorkers.addAndGet(this.maxConcurrentReconciles);
		this.queue = current;
		this.sources.forEach((source) -> source.replay((request, priority) -> {
			if (owned(request)) {
				current.add(request, priority);
			}
		}));
		this.sourceRunner.startAll(current);
		List<Thread> workers = new ArrayList<>();
		ShardRing shardRing = this.ring;
		// a sharded controller's writes are fenced by its replica's shard Lease, as
		// leader-only work's by the leader Lease (the fence of the thread that runs this
		// controller): none after the renew deadline
		WriteFence fence = (shardRing != null) ? ShardRings.member(shardRing).writeFence() : WriteFence.current();
		for (int i = 0; i < this.maxConcurrentReconciles; i++) {
			Thread worker = new Thread(() -> {
				if (fence != null) {
					WriteFence.enter(fence);
				}
				try {
					work(current);
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
			current.shutDown();
			for (Thread worker : workers) {
				worker.join();
			}
			logger.info("All workers finished: controller={}", this.name);
		}
		catch (InterruptedException ex) {
			this.sourceRunner.stopAll();
			current.shutDown();
			workers.forEach(Thread::interrupt);
			logger.warn("Workers interrupted after the graceful shutdown timeout: controller={}", this.name);
			// the controller ends only with its last worker: the manager must be able to
			// tell that leader-only work still runs, so that it neither releases the
			// Lease
			// nor campaigns again meanwhile
			awaitAll(workers);
			Thread.currentThread().interrupt();
		}
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
		while (!this.sources.stream().allMatch((source) -> source.informer().hasSynced())) {
			if (System.nanoTime() - deadline >= 0) {
				throw new IllegalStateException(
						"Controller " + this.name + " timed out waiting for its caches to sync");
			}
			if (stop.await(Duration.ofMillis(20))) {
				return;
			}
		}
	}

	private void work(WorkQueue<Request> current) {
		WriteFence fence = WriteFence.current();
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
				// must
				// not end the worker: the controller would run one worker short until
				// the pod restarts
				logger.warn("Worker interrupted while its controller runs, going on: controller={} worker={}",
						this.name, Thread.currentThread().getName());
				continue;
			}
			if (request == null) {
				return;
			}
			ShardGate shardGate = this.gate;
			if (shardGate != null && this.share != null) {
				workLabelled(current, request, shardGate, this.share);
				continue;
			}
			String key = (shardGate != null) ? ShardRing.key(this.forType, request) : null;
			if (shardGate != null && key != null && !shardGate.enter(key)) {
				current.forget(request);
				// if this replica's, its Lease is not valid now (a renewal late or
				// failed) or the gate is suspended (the Lease lost, the ring not read
				// since it is held again): it waits; else not this replica's (any more,
				// or not yet): its owner reconciles it
				retryWhileLeaseNotValid(current, request, shardGate.snapshot().test(key));
				current.done(request);
				continue;
			}
			if (shardGate == null && fence != null && !fence.isOpen()) {
				// leader-only work past its renew deadline (a process paused, or
				// renewals failing): another replica may lead now, so nothing starts
				// until the Lease is renewed or the election stops this controller
				current.forget(request);
				current.addAfter(request, FENCED_RETRY, current.priorityOf(request));
				current.done(request);
				continue;
			}
			try {
				reconcile(current, request);
			}
			finally {
				if (shardGate != null && key != null) {
					shardGate.exit(key);
				}
				current.done(request);
			}
		}
	}

	/**
	 * Handles a request of a controller sharded by label: an object of this replica's is
	 * reconciled; one it is asked to give back is given back instead, once, with no
	 * reconcile of it in flight (the queue hands a request to one worker at a time); an
	 * object no longer cached is reconciled only if it was deleted while this replica's,
	 * never when it moved to another replica.
	 */
	private void workLabelled(WorkQueue<Request> current, Request request, ShardGate shardGate, LabelShare labelShare) {
		String key = shareKey(request);
		if (!shardGate.enterOpen(key)) {
			current.forget(request);
			// as by filter; what the cache holds is this replica's while its view
			// counts it, and a gate whose view counts it again queues every cached
			// object
			boolean mine = shardGate.countsSelf();
			if (!mine) {
				// dropped: nothing takes its tombstone later
				labelShare.takeTombstone(key);
			}
			retryWhileLeaseNotValid(current, request, mine);
			current.done(request);
			return;
		}
		try {
			KubernetesObject cached = this.sources.get(0)
				.informer()
				.get(request.namespace(), request.name())
				.orElse(null);
			// taken whatever follows: a tombstone left behind would make a later move
			// of an object of that name look like a deletion; one cached again is a new
			// object, reconciled as such
			Boolean inferred = labelShare.takeTombstone(key);
			if (cached != null && labelShare.isDraining(cached)) {
				giveBack(current, request, labelShare, key, cached);
			}
			else if (cached != null) {
				if (labelShare.mayReconcile(key, cached)) {
					reconcile(current, request);
				}
				else {
					current.forget(request);
				}
			}
			else {
				// an object leaves the cache alike when it is deleted and when the
				// sharder moved it without a give-back (this replica's Lease expired in
				// the sharder's view: it was cut off, and is back): only an uncached
				// read tells them apart
				if (inferred != null && deletedForGood(request)) {
					reconcile(current, request);
				}
				else {
					current.forget(request);
				}
			}
		}
		finally {
			shardGate.exit(key);
			current.done(request);
		}
	}

	/**
	 * Reconciles a request, saying so once per version when the cache holds an older
	 * version of its object than the API server's, whose latest version does not decode.
	 */
	private void reconcile(WorkQueue<Request> current, Request request) {
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
		this.runner.reconcile(current, request);
	}

	/**
	 * Queues a request of this replica's again after a retry period when its worker found
	 * the shard Lease not valid or the gate suspended: no change of the permitted keys
	 * need follow once the Lease is valid again, so the request waits instead of being
	 * dropped, at the priority it was handed out with.
	 */
	private void retryWhileLeaseNotValid(WorkQueue<Request> current, Request request, boolean mine) {
		ShardRing shardRing = this.ring;
		if (mine && shardRing != null) {
			current.addAfter(request, shardRing.config().retryPeriod(), current.priorityOf(request));
		}
	}

	private void giveBack(WorkQueue<Request> current, Request request, LabelShare labelShare, String key,
			KubernetesObject cached) {
		// recorded before the write: the watch may tell that the object left the cache
		// before the write returns, and that is a move, not a deletion
		labelShare.released(key, cached);
		try {
			Objects.requireNonNull(this.client).patch(cached, Patch.json(labelShare.releasePatch(cached)));
			current.forget(request);
			logger.debug("Gave an object back to the sharder: controller={} object={}", this.name, request);
		}
		catch (ApiServerException ex) {
			if (ex.code() == 404) {
				// deleted while still this replica's: if the watch told of it first, it
				// took it for the give-back's move
				current.forget(request);
				if (labelShare.goneBeforeGivenBack(key)) {
					current.add(request, current.priorityOf(request));
				}
				return;
			}
			if (ex.code() == 422) {
				// the sharder moved it already, or stamped it for this replica in a new
				// term: not given back, so a release left recorded would take a later
				// deletion for a move
				labelShare.kept(key);
				current.forget(request);
				return;
			}
			labelShare.kept(key);
			logger.warn("Could not give an object back to the sharder, retrying: controller={} object={} error=\"{}\"",
					this.name, request, ex.getMessage());
			current.addRateLimited(request, current.priorityOf(request));
		}
		catch (RuntimeException ex) {
			labelShare.kept(key);
			throw ex;
		}
	}

	/**
	 * Whether an object that left the cache (a deletion on the watch, or one inferred
	 * from a relist) is gone, rather than moved to another replica: read uncached.
	 */
	private boolean deletedForGood(Request request) {
		try {
			return Objects.requireNonNull(this.client).uncached().get(this.forType, request).isEmpty();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not tell whether an object missing from a relist was deleted or moved, skipping it: "
					+ "controller={} object={} error=\"{}\"", this.name, request, ex.getMessage());
			return false;
		}
	}

	@Override
	public String toString() {
		return "Controller[" + this.name + "]";
	}

}
