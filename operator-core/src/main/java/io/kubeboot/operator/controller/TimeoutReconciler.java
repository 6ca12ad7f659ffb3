package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.kubeboot.operator.client.internal.CallDeadline;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.reconcile.TerminalException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each reconcile with a timeout, controller-runtime's {@code ReconciliationTimeout}:
 * at the deadline the client cancels the reconcile's calls in flight and refuses every
 * call it makes from then on, and the worker is interrupted (once out of its call to the
 * API server, if it is in one). A reconcile that ignores the interruption still holds its
 * worker until it returns, as a Go reconcile that ignores its context does, but can no
 * longer change anything through the client.
 * <p>
 * A reconcile that ran past its deadline is counted as a timeout, and its outcome is
 * otherwise its own, as in controller-runtime 0.23, whose {@code reconcileHandler}
 * returns {@code res, err} unchanged: a result it returned is kept, a
 * {@link TerminalException} stays terminal, and any other exception (the refusal of a
 * late call, the {@link InterruptedException} of the interrupt) ends in a
 * {@link ReconcileTimeoutException}, an error retried with backoff. Design:
 * docs/design/reconcile-timeouts.md.
 */
final class TimeoutReconciler implements Reconciler {

	// the controller's logger, as the other log lines of a reconcile
	private static final Logger logger = LoggerFactory.getLogger(Controller.class);

	private final String controller;

	private final Reconciler reconciler;

	private final Duration timeout;

	private final Runnable timedOut;

	private TimeoutReconciler(String controller, Reconciler reconciler, Duration timeout, Runnable timedOut) {
		this.controller = controller;
		this.reconciler = reconciler;
		this.timeout = timeout;
		this.timedOut = timedOut;
	}

	/**
	 * Returns a reconciler whose reconciles time out.
	 * @param controller the controller's name, for messages
	 * @param reconciler the reconciler
	 * @param timeout the timeout; zero for none
	 * @param timedOut told of every reconcile that ran past its timeout, to count it
	 * @return the reconciler itself if there is no timeout, else one running it with it
	 */
	static Reconciler of(String controller, Reconciler reconciler, Duration timeout, Runnable timedOut) {
		return timeout.isZero() ? reconciler : new TimeoutReconciler(controller, reconciler, timeout, timedOut);
	}

	@Override
	public Result reconcile(Request request) throws Exception {
		String work = "the reconcile of " + request + " by controller " + this.controller;
		CallDeadline deadline = new CallDeadline(this.timeout, System::nanoTime, work);
		Alarm alarm = new Alarm(Thread.currentThread(), deadline);
		CallDeadline previous = CallDeadline.current();
		ScheduledFuture<?> scheduled = null;
		Result result = null;
		Exception failure = null;
		boolean rang;
		try {
			// inside the try: if the alarm's thread cannot be started, the worker still
			// gets its own deadline back
			CallDeadline.enter(deadline);
			scheduled = Alarms.SCHEDULER.schedule(alarm::ring, this.timeout.toNanos(), TimeUnit.NANOSECONDS);
			result = this.reconciler.reconcile(request);
		}
		catch (Exception ex) {
			failure = ex;
		}
		finally {
			if (scheduled != null) {
				scheduled.cancel(false);
			}
			CallDeadline.enter(previous);
			rang = alarm.silence();
		}
		if (!rang) {
			if (failure != null) {
				throw failure;
			}
			return result;
		}
		this.timedOut.run();
		ReconcileTimeoutException timedOut = new ReconcileTimeoutException(work, this.timeout, failure,
				alarm.stackAtDeadline());
		if (failure == null) {
			logger.warn("Reconcile ran past its timeout, its result is kept: controller={} request={} timeout={} "
					+ "result={}", this.controller, request, this.timeout, result, timedOut);
			return result;
		}
		if (failure instanceof TerminalException) {
			failure.addSuppressed(timedOut);
			throw failure;
		}
		throw timedOut;
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
				// cancels the calls first, so a call the interrupt ends is refused, not
				// sent
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
				// request without it. An interrupt of the manager's shutdown at the same
				// moment is cleared too; workers stop because the queue shuts down, never
				// because of an interrupt
				Thread.interrupted();
			}
			return this.rang;
		}

		synchronized StackTraceElement @Nullable [] stackAtDeadline() {
			return this.stackAtDeadline;
		}

	}

	/**
	 * The thread that rings the alarms of every controller: started with the first alarm,
	 * a daemon that ends once no alarm was pending for a minute, so that it holds no
	 * class loader of a stopped application for long.
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
			scheduler.setKeepAliveTime(1, TimeUnit.MINUTES);
			scheduler.allowCoreThreadTimeOut(true);
			return scheduler;
		}

	}

}
