package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.leaderelection.internal.LeaderElector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the leader-only group for as long as this replica leads: campaign, start the group
 * once elected, renew, and stop the group completely before the Lease is released or
 * campaigned for again. A shutdown keeps renewing the Lease until the group stopped.
 * <p>
 * On a lost Lease the group must be stopped before a standby may take over, that is
 * within {@code leaseDuration - renewDeadline} of the loss: that bounds the stop on a
 * loss, whatever the graceful shutdown timeout. On a shutdown the group gets the graceful
 * shutdown timeout and the Lease is released (if configured) only afterwards. A shutdown
 * that races the acquisition wins: once {@link #stop()} has fired, no leader-only
 * runnable starts, and a Lease acquired meanwhile is released, whatever
 * release-on-shutdown says, since no leader-only work ran.
 */
final class LeaderElectionRunner {

	private static final Logger logger = LoggerFactory.getLogger(LeaderElectionRunner.class);

	private final LeaderElector elector;

	private final RunnableGroup leaderOnly;

	private final LeaderElectionListener listener;

	private final java.lang.Runnable exitAction;

	private final Duration gracefulShutdownTimeout;

	private final StopSignal stop = new StopSignal();

	/** Makes firing the stop and starting a term exclude each other. */
	private final Object termMonitor = new Object();

	private final Thread thread;

	LeaderElectionRunner(LeaderElector elector, RunnableGroup leaderOnly, LeaderElectionListener listener,
			java.lang.Runnable exitAction, Duration gracefulShutdownTimeout) {
		this.elector = elector;
		this.leaderOnly = leaderOnly;
		this.listener = listener;
		this.exitAction = exitAction;
		this.gracefulShutdownTimeout = gracefulShutdownTimeout;
		this.thread = new Thread(this::run, "operator-leader-election");
	}

	void start() {
		this.thread.start();
	}

	/**
	 * Ends the campaign or the term: stops the leader-only group within the graceful
	 * timeout while the Lease is still renewed, then releases the Lease if configured,
	 * and waits for all of it.
	 */
	void stop() {
		synchronized (this.termMonitor) {
			this.stop.fire();
		}
		try {
			long bound = this.gracefulShutdownTimeout.isNegative() ? 0
					// the group's stop and its interruption, a renewal then in flight,
					// the release
					: this.gracefulShutdownTimeout.plus(this.elector.config().requestTimeout().multipliedBy(2))
						.plusSeconds(5)
						.toMillis();
			this.thread.join(bound);
			if (this.thread.isAlive()) {
				logger.warn("Leader election did not stop in time, interrupting it");
				this.thread.interrupt();
				this.thread.join(5000);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void run() {
		LeaderElectionConfig config = this.elector.config();
		try {
			while (!this.stop.isStopRequested()) {
				if (!this.elector.acquire(this.stop.latch())) {
					return;
				}
				this.listener.startedLeading(config.identity());
				if (!startTermUnlessStopped()) {
					// stopped since the acquisition: no leader-only work ran, so the
					// Lease is given back whatever release-on-shutdown says
					this.listener.stoppedLeading(config.identity(), false);
					this.elector.release();
					return;
				}
				boolean lost = this.elector.renewUntilLost(this.stop.latch());
				if (lost && config.lostLeasePolicy() == LostLeasePolicy.EXIT) {
					logger.error("Leader election lost, exiting: lease={}/{} identity={}", config.namespace(),
							config.name(), config.identity());
					this.exitAction.run();
					this.leaderOnly.stop(safetyMargin(config));
					this.listener.stoppedLeading(config.identity(), true);
					return;
				}
				if (lost) {
					this.leaderOnly.stop(safetyMargin(config));
				}
				else {
					lost = stopWhileRenewing(config);
				}
				this.listener.stoppedLeading(config.identity(), lost);
				List<String> stuck = this.leaderOnly.stuck();
				if (!stuck.isEmpty()) {
					// their writes are fenced off once the renew deadline passed, but the
					// Lease must not look free before it expires
					boolean campaigning = lost && !this.stop.isStopRequested();
					logger.error(
							"Leader-only runnables ignored their stop and still run, so the Lease is left to "
									+ "expire instead of being released{}: lease={}/{} identity={} runnables={}",
							campaigning ? " and this replica exits instead of campaigning again" : "",
							config.namespace(), config.name(), config.identity(), stuck);
					if (campaigning) {
						this.exitAction.run();
					}
					return;
				}
				if (this.stop.isStopRequested()) {
					if (!lost) {
						releaseIfConfigured(config);
					}
					return;
				}
				logger.info("Leader-only runnables stopped after the lost lease, campaigning again: identity={}",
						config.identity());
			}
		}
		catch (InterruptedException ex) {
			this.leaderOnly.stop(Duration.ZERO);
			Thread.currentThread().interrupt();
		}
		catch (RuntimeException ex) {
			logger.error("Leader election failed", ex);
			this.leaderOnly.stop(safetyMargin(config));
		}
	}

	/**
	 * Stops the leader-only group within the graceful shutdown timeout and renews the
	 * Lease meanwhile, as controller-runtime ends its election only once its leader-only
	 * runnables stopped: a reconcile finishing after the stop keeps its writes, and no
	 * standby takes over while it runs. If the Lease is lost meanwhile, the group is
	 * hurried to stop before a standby may take over.
	 * @return whether the Lease was lost while the group stopped
	 */
	private boolean stopWhileRenewing(LeaderElectionConfig config) throws InterruptedException {
		RunnableGroup.Stopping stopping = this.leaderOnly.beginStop(this.gracefulShutdownTimeout);
		CountDownLatch stopped = new CountDownLatch(1);
		Thread waiter = new Thread(() -> {
			try {
				stopping.await();
			}
			finally {
				stopped.countDown();
			}
		}, "operator-leader-only-stop");
		waiter.start();
		boolean lost;
		try {
			lost = this.elector.renewUntilLost(stopped);
		}
		catch (InterruptedException ex) {
			stopping.hurry(Duration.ZERO);
			throw ex;
		}
		if (lost) {
			logger.error(
					"Lease lost while leader-only runnables were stopping, interrupting the ones still running "
							+ "before a standby may take over: lease={}/{} identity={}",
					config.namespace(), config.name(), config.identity());
			stopping.hurry(safetyMargin(config));
		}
		waiter.join();
		return lost;
	}

	/**
	 * Starts the leader-only group unless the stop has fired: once {@link #stop()} has
	 * fired it, no leader-only runnable starts.
	 */
	private boolean startTermUnlessStopped() {
		synchronized (this.termMonitor) {
			if (this.stop.isStopRequested()) {
				return false;
			}
			this.leaderOnly.start();
			return true;
		}
	}

	private Duration safetyMargin(LeaderElectionConfig config) {
		Duration margin = config.leaseDuration().minus(config.renewDeadline());
		if (this.gracefulShutdownTimeout.isNegative() || this.gracefulShutdownTimeout.compareTo(margin) > 0) {
			return margin;
		}
		return this.gracefulShutdownTimeout;
	}

	private void releaseIfConfigured(LeaderElectionConfig config) {
		if (config.releaseOnShutdown()) {
			this.elector.release();
		}
	}

}
