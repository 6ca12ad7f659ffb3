package io.kubeboot.operator.test;

/**
 * Thrown when the local control plane cannot be located, started, stopped or probed.
 * <p>
 * The message is meant to be actionable on its own: it names what was looked for where,
 * or carries the last lines of the log of the process that failed.
 */
public class ControlPlaneException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception with a message.
	 * @param message what went wrong and, where possible, how to fix it
	 */
	public ControlPlaneException(String message) {
		super(message);
	}

	/**
	 * Creates an exception with a message and a cause.
	 * @param message what went wrong and, where possible, how to fix it
	 * @param cause the underlying failure
	 */
	public ControlPlaneException(String message, Throwable cause) {
		super(message, cause);
	}

}
