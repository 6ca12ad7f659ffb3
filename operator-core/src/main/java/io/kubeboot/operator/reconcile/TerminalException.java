package io.kubeboot.operator.reconcile;

/**
 * Thrown by a {@link Reconciler} when retrying cannot help, for example when the spec is
 * invalid. The controller logs it as an error and counts it, but does not requeue the
 * request; the next change to the object reconciles it again.
 */
public class TerminalException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception with a message.
	 * @param message what is wrong with the object, for a person to read
	 */
	public TerminalException(String message) {
		super(message);
	}

	/**
	 * Creates an exception with a message and a cause.
	 * @param message what is wrong with the object, for a person to read
	 * @param cause the underlying failure
	 */
	public TerminalException(String message, Throwable cause) {
		super(message, cause);
	}

}
