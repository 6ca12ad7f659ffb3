package io.kubeboot.operator.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Function;

import io.kubeboot.operator.cluster.ClusterStatus.State;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerState;
import io.kubeboot.operator.manager.StopSignal;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One engagement of a cluster: on a thread of its own, waits for the engagement it
 * replaces to end, then builds the cluster's manager, starts it and keeps it running
 * until disengaged; a start that fails (the API server unreachable, a kind not served
 * yet) and a manager that fails while running are retried with a fresh manager after a
 * backoff, so that no cluster delays another. The engagement ends once its controllers
 * ended.
 */
final class Member {

	private static final Logger logger = LoggerFactory.getLogger(Member.class);

	static final Duration FIRST_RETRY = Duration.ofSeconds(1);

	static final Duration LONGEST_RETRY = Duration.ofMinutes(1);

	/** How often a running member checks that its manager has not failed. */
	private static final Duration WATCH_INTERVAL = Duration.ofSeconds(1);

	private final String name;

	private final int provider;

	private final Function<String, Cluster> clusters;

	/** The engagement of the same cluster this one replaces, which must end first. */
	private final @Nullable Member predecessor;

	/** Told the cluster's name when this engagement ended, before a successor starts. */
	private final Consumer<String> onEnded;

	private final StopSignal stop = new StopSignal();

	private final CountDownLatch ended = new CountDownLatch(1);

	private final Thread thread;

	private final Object monitor = new Object();

	private volatile @Nullable Cluster current;

	/**
	 * Whether the thread is in its manager's start, which only an interrupt ends early.
	 */
	private boolean starting;

	private volatile ClusterStatus status;

	/**
	 * Creates a member that engages a cluster once started.
	 * @param name the cluster's name
	 * @param provider the index of its provider
	 * @param clusters builds a cluster (its manager with the fleet's controllers added)
	 * from its name, called again for every attempt
	 * @param predecessor the engagement it replaces, {@code null} for none: this one
	 * builds nothing before that one ended
	 * @param onEnded told the cluster's name once this engagement ended
	 */
	Member(String name, int provider, Function<String, Cluster> clusters, @Nullable Member predecessor,
			Consumer<String> onEnded) {
		this.name = name;
		this.provider = provider;
		this.clusters = clusters;
		this.predecessor = predecessor;
		this.onEnded = onEnded;
		this.status = new ClusterStatus(name, provider, State.STARTING, null, Instant.now());
		this.thread = new Thread(this::run, "operator-cluster-" + name);
		this.thread.setDaemon(true);
	}

	String name() {
		return this.name;
	}

	int provider() {
		return this.provider;
	}

	void start() {
		this.thread.start();
	}

	ClusterStatus status() {
		return this.status;
	}

	/**
	 * Returns the cluster while its controllers run.
	 */
	@Nullable Cluster running() {
		return (this.status.state() == State.RUNNING) ? this.current : null;
	}

	private void run() {
		try {
			if (this.predecessor != null) {
				this.predecessor.awaitEnded();
			}
			engage();
		}
		finally {
			try {
				this.onEnded.accept(this.name);
			}
			finally {
				this.ended.countDown();
			}
		}
	}

	private void engage() {
		Duration retry = FIRST_RETRY;
		while (!this.stop.isStopRequested()) {
			Cluster cluster;
			try {
				cluster = this.clusters.apply(this.name);
			}
			catch (RuntimeException ex) {
				// a fleet controller refused this cluster's manager: retrying builds the
				// same
				refused("cannot build the cluster's controllers: " + ex.getMessage(), ex);
				return;
			}
			synchronized (this.monitor) {
				if (this.stop.isStopRequested()) {
					cluster.manager().stop();
					return;
				}
				this.current = cluster;
				this.starting = true;
			}
			Manager manager = cluster.manager();
			try {
				try {
					manager.start();
				}
				finally {
					synchronized (this.monitor) {
						this.starting = false;
						// the interrupt stop() sent into a start that had just ended:
						// the graceful stop below must not see it
						Thread.interrupted();
					}
				}
				if (!this.stop.isStopRequested() && manager.state() == ManagerState.RUNNING) {
					this.status = new ClusterStatus(this.name, this.provider, State.RUNNING, null, Instant.now());
					logger.info("Cluster engaged: cluster={}", this.name);
					retry = FIRST_RETRY;
					awaitStopOrFailure(manager);
				}
			}
			catch (InterruptedException ex) {
				// the interrupt of stop(): nothing else interrupts this thread
				stopped(manager);
				return;
			}
			catch (RuntimeException ex) {
				failed(ex.getMessage());
			}
			boolean failedWhileRunning = this.status.state() == State.RUNNING;
			stopped(manager);
			if (failedWhileRunning && manager.state() == ManagerState.FAILED) {
				Throwable failure = manager.failure();
				failed((failure != null) ? failure.toString() : "its manager failed");
			}
			try {
				if (this.stop.await(retry)) {
					return;
				}
			}
			catch (InterruptedException ex) {
				return;
			}
			retry = retry.multipliedBy(2).compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : retry.multipliedBy(2);
		}
	}

	/**
	 * Stops a manager and returns once its controllers ended: one whose reconcile ignores
	 * its stop and its interruption keeps this engagement, and so the fleet's runnable,
	 * alive, so that the home replica neither releases its Lease nor campaigns again
	 * meanwhile, as for its own leader-only work.
	 */
	private void stopped(Manager manager) {
		manager.stop();
		boolean said = false;
		boolean interrupted = false;
		while (manager.isLeaderWorkRunning()) {
			if (!said && !manager.stuckRunnables().isEmpty()) {
				logger.warn("Controllers of a cluster ignored their stop and still run: cluster={} runnables={}",
						this.name, manager.stuckRunnables());
				said = true;
			}
			try {
				Thread.sleep(WATCH_INTERVAL.toMillis() / 10);
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	private void awaitStopOrFailure(Manager manager) throws InterruptedException {
		while (!this.stop.await(WATCH_INTERVAL)) {
			if (manager.state() == ManagerState.FAILED) {
				return;
			}
		}
	}

	private void failed(@Nullable String error) {
		if (this.stop.isStopRequested()) {
			return;
		}
		this.status = new ClusterStatus(this.name, this.provider, State.STARTING, String.valueOf(error), Instant.now());
		logger.warn("Cluster not running, retrying: cluster={} error=\"{}\"", this.name, error);
	}

	private void refused(String error, Exception cause) {
		this.status = new ClusterStatus(this.name, this.provider, State.REFUSED, error, Instant.now());
		logger.error("Cluster not engaged: cluster={} error=\"{}\"", this.name, error, cause);
	}

	/**
	 * Waits until this engagement ended: its manager stopped and its controllers ended.
	 */
	void awaitEnded() {
		boolean interrupted = false;
		while (true) {
			try {
				this.ended.await();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Disengages the cluster: its controllers stop (those in flight finish within the
	 * graceful shutdown timeout, and are interrupted after it, or at once when the
	 * calling thread is interrupted), their queued requests go, its caches stop. Returns
	 * once the engagement ended.
	 */
	void stop() {
		Cluster cluster;
		boolean interrupted;
		synchronized (this.monitor) {
			this.stop.fire();
			cluster = this.current;
			interrupted = this.starting;
			if (interrupted) {
				// ends a start that waits for an unreachable API server now, not after
				// the cache sync timeout
				this.thread.interrupt();
			}
		}
		if (!interrupted && cluster != null) {
			cluster.manager().stop();
		}
		awaitEnded();
		logger.info("Cluster disengaged: cluster={}", this.name);
	}

}
