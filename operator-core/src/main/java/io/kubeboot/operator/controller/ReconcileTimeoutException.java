package io.kubeboot.operator.controller;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A reconcile that outlived its timeout: its stack trace is where the reconcile was at
 * the deadline, its cause what it threw, if anything. Thrown for a reconcile that failed
 * after its deadline, an error retried with backoff, and logged for one that returned a
 * result, which is kept.
 */
final class ReconcileTimeoutException extends Exception {

	private static final long serialVersionUID = 1L;

	private final Duration timeout;

	ReconcileTimeoutException(String work, Duration timeout, @Nullable Exception failure,
			StackTraceElement @Nullable [] stackAtDeadline) {
		super(capitalized(work) + " ran past its timeout of " + timeout + " and was interrupted; "
				+ ((failure != null) ? "it then failed" : "it then returned a result, which is kept")
				+ ". The stack trace is where it was at the deadline", failure);
		this.timeout = timeout;
		if (stackAtDeadline != null) {
			setStackTrace(stackAtDeadline);
		}
	}

	/**
	 * Returns the timeout the reconcile outlived.
	 * @return the timeout
	 */
	Duration timeout() {
		return this.timeout;
	}

	private static String capitalized(String text) {
		return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
	}

}
