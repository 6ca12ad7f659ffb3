package io.kubeboot.operator.metrics;

import io.kubeboot.operator.reconcile.ReconcileTrigger;

/**
 * Receives the measurements of one controller; they map to controller-runtime's
 * {@code controller_runtime_*} series. Implementations must be thread-safe, fast and must
 * not throw. Every method does nothing by default.
 */
public interface ControllerMetrics {

	/** Metrics that discard every measurement. */
	ControllerMetrics NOOP = new ControllerMetrics() {
	};

	/**
	 * Called after every reconcile.
	 * @param outcome how it ended
	 * @param nanos how long it took
	 */
	default void reconciled(Outcome outcome, long nanos) {
	}

	/**
	 * Called before a reconcile, once for each kind among its triggers
	 * ({@code operator_reconcile_triggers_total{controller,trigger}}).
	 * @param kind the kind of one or more of its triggers
	 */
	default void triggered(ReconcileTrigger.Kind kind) {
	}

	/**
	 * Called before a reconcile whose request had more triggers than it keeps
	 * ({@code operator_reconcile_triggers_dropped_total{controller}}).
	 * @param count how many triggers were not kept
	 */
	default void triggersDropped(int count) {
	}

	/**
	 * Called when a reconcile ran past its timeout
	 * ({@code ControllerBuilder.reconcileTimeout}), before {@link #reconciled} tells how
	 * it ended: as in controller-runtime, a timeout is counted apart from the outcome,
	 * which is the reconcile's own.
	 */
	default void timedOut() {
	}

	/**
	 * Called when the number of workers inside a reconcile changes.
	 * @param active the number of workers reconciling now
	 */
	default void activeWorkers(int active) {
	}

	/**
	 * How a reconcile ended, with controller-runtime's {@code result} label value.
	 */
	enum Outcome {

		/** Returned {@code Result.done()}. */
		SUCCESS("success"),

		/** Returned {@code Result.requeue()}. */
		REQUEUE("requeue"),

		/** Returned {@code Result.requeueAfter(...)}. */
		REQUEUE_AFTER("requeue_after"),

		/**
		 * Threw a {@code ConflictException} (a write based on a stale object); requeued
		 * at once, not counted as an error.
		 */
		CONFLICT("requeue"),

		/** Threw an exception; retried with backoff. */
		ERROR("error"),

		/** Threw a {@code TerminalException}; not retried. */
		TERMINAL_ERROR("error"),

		/**
		 * Threw an {@link Error} (unexpected, such as a stack overflow); retried with
		 * backoff.
		 */
		PANIC("error");

		private final String label;

		Outcome(String label) {
			this.label = label;
		}

		/**
		 * Returns the value of the {@code result} label of
		 * {@code controller_runtime_reconcile_total}.
		 * @return the label value
		 */
		public String label() {
			return this.label;
		}

	}

}
