package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.kubeboot.operator.client.internal.CallDeadline;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import org.jspecify.annotations.Nullable;

/**
 * Runs each reconcile with a timeout, controller-runtime's
 * {@code ReconciliationTimeout}: at the deadline the client cancels the reconcile's calls
 * in flight and refuses every call it makes from then on, and the worker is interrupted
 * (once out of its call to the API server, if it is in one). A reconcile that ignores the
 * interruption still holds its worker until it returns, as a Go reconcile that ignores
 * its context does, but can no longer change anything through the client. However it
 * ended, a reconcile that outlived its deadline ends in a
 * {@link ReconcileTimeoutException}, so that it is counted as a timeout and retried with
 * backoff. Design: docs/design/reconcile-timeouts.md.
 */
final class TimeoutReconciler implements Reconciler {

	private final String controller;

	private final Reconciler reconciler;

	private final Duration timeout;

	private TimeoutReconciler(String controller, Reconciler reconciler, Duration timeout) {
		this.controller = controller;
		this.reconciler = reconciler;
		this.timeout = timeout;
	}

	/**
	 * Returns a reconciler whose reconciles time out.
	 * @param controller the controller's name, for messages
	 * @param reconciler the reconciler
	 * @param timeout the timeout; zero for none
	 * @return the reconciler itself if there is no timeout, else one running it with it
	 */
	static Reconciler of(String controller, Reconciler reconciler, Duration timeout) {
		return timeout.isZero() ? reconciler : new TimeoutReconciler(controller, reconciler, timeout);
	}

	@Override
	public Result reconcile(Request request) throws Exception {
		String work = "the reconcile of " + request + " by controller " + this.controller;
		CallDeadline deadline = new CallDeadline(this.timeout, System::nanoTime, work);
		Alarm alarm = new Alarm(Thread.currentThread(), deadline);
		CallDeadline previous = CallDeadline.current();
		CallDeadline.enter(deadline);
		ScheduledFuture<?> scheduled = Alarms.SCHEDULER.schedule(alarm::ring, this.timeout.toNanos(),
				TimeUnit.NANOSECONDS);
		Result result = null;
		Exception failure = null;
		boolean rang;
		try {
			result = this.reconciler.reconcile(request);
		}
		catch (Exception ex) {
			failure = ex;
		}
		finally {
			scheduled.cancel(false);
			CallDeadline.enter(previous);
			rang = alarm.silence();
		}
		if (rang) {
			throw new ReconcileTimeoutException(work, this.timeout, failure, alarm.stackAtDeadline());
		}
		if (failure != null) {
			throw failure;
		}
		return result;
	}

	@Override
	public String toString() {
		return this.reconciler + " (timeout " + this.timeout + ")";
	}

	/**
	 * Cuts off the calls in flight of a reconcile and interrupts its worker at its
	 * deadline, unless the reconcile ended first: the lock makes ringing and silencing
	 * exclusive, so once silenced the worker knows whether it was interrupted and can
	 * clear the interrupt it was not meant to keep.
	 */
	private static final class Alarm {

		private final Thread worker;

		private final CallDeadline deadline;

		private boolean silenced;

		private boolean rang;

		private StackTraceElement @Nullable [] stackAtDeadline;

		Alarm(Thread worker, CallDeadline deadline) {
			this.worker = worker;
			this.deadline = deadline;
		}

		synchronized void ring() {
			if (!this.silenced) {
				this.stackAtDeadline = this.worker.getStackTrace();
				this.rang = true;
				// cancels the calls first, so a call the interrupt ends is refused, not sent
				// again; interrupts the worker only outside a call of the client
				this.deadline.expire(this.worker);
			}
		}

		/**
		 * Stops the alarm; called by the worker once its reconcile ended.
		 * @return whether it rang
		 */
		boolean silence() {
			synchronized (this) {
				this.silenced = true;
			}
			if (this.rang) {
				// the interrupt was for the reconcile: the worker goes on to the next
				// request without it
				Thread.interrupted();
			}
			return this.rang;
		}

		synchronized StackTraceElement @Nullable [] stackAtDeadline() {
			return this.stackAtDeadline;
		}

	}

	/**
	 * The thread that rings the alarms of every controller, created with the first
	 * reconcile that has a timeout; a daemon, idle but for the instant of a timeout.
	 */
	private static final class Alarms {

		static final ScheduledThreadPoolExecutor SCHEDULER = scheduler();

		private static ScheduledThreadPoolExecutor scheduler() {
			ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
				Thread thread = new Thread(task, "operator-reconcile-timeouts");
				thread.setDaemon(true);
				return thread;
			});
			// most alarms are cancelled: keep the queue to those that may ring
			scheduler.setRemoveOnCancelPolicy(true);
			return scheduler;
		}

	}

}
