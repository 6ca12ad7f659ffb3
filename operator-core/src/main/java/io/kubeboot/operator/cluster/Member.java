package io.kubeboot.operator.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;

import io.kubeboot.operator.cluster.ClusterStatus.State;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerState;
import io.kubeboot.operator.manager.StopSignal;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One engagement of a cluster: on a thread of its own, builds the cluster's manager,
 * starts it and keeps it running until disengaged; a start that fails (the API server
 * unreachable, a kind not served yet) and a manager that fails while running are retried
 * with a fresh manager after a backoff, so that no cluster delays another.
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

	private final StopSignal stop = new StopSignal();

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
	 */
	Member(String name, int provider, Function<String, Cluster> clusters) {
		this.name = name;
		this.provider = provider;
		this.clusters = clusters;
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
		Duration retry = FIRST_RETRY;
		while (!this.stop.isStopRequested()) {
			Cluster cluster;
			try {
				cluster = this.clusters.apply(this.name);
			}
			catch (RuntimeException ex) {
				// a fleet controller refused this cluster's manager: retrying builds the
				// same
				failed("cannot build the cluster's controllers: " + ex.getMessage(), ex);
				return;
			}
			synchronized (this.monitor) {
				if (this.stop.isStopRequested()) {
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
				// the interrupt of stop(): nothing else interrupts this thread, and the
				// manager's graceful stop must not see it
				manager.stop();
				return;
			}
			catch (RuntimeException ex) {
				failed(ex.getMessage(), null);
			}
			boolean failedWhileRunning = this.status.state() == State.RUNNING;
			manager.stop();
			if (failedWhileRunning && manager.state() == ManagerState.FAILED) {
				Throwable failure = manager.failure();
				failed((failure != null) ? failure.toString() : "its manager failed", null);
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

	private void awaitStopOrFailure(Manager manager) throws InterruptedException {
		while (!this.stop.await(WATCH_INTERVAL)) {
			if (manager.state() == ManagerState.FAILED) {
				return;
			}
		}
	}

	private void failed(@Nullable String error, @Nullable Exception cause) {
		if (this.stop.isStopRequested()) {
			return;
		}
		this.status = new ClusterStatus(this.name, this.provider, State.STARTING, String.valueOf(error), Instant.now());
		if (cause != null) {
			logger.error("Cluster not engaged: cluster={} error=\"{}\"", this.name, error, cause);
		}
		else {
			logger.warn("Cluster not running, retrying: cluster={} error=\"{}\"", this.name, error);
		}
	}

	/**
	 * Disengages the cluster: its controllers stop, their queued requests go, its caches
	 * stop. Blocks until its manager stopped, within its graceful shutdown timeout.
	 */
	void stop() {
		Cluster cluster;
		boolean interrupt;
		synchronized (this.monitor) {
			this.stop.fire();
			cluster = this.current;
			interrupt = this.starting;
		}
		if (interrupt) {
			// ends a start that waits for an unreachable API server now, not after the
			// cache sync timeout
			this.thread.interrupt();
		}
		else if (cluster != null) {
			cluster.manager().stop();
		}
		try {
			this.thread.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		logger.info("Cluster disengaged: cluster={}", this.name);
	}

}
