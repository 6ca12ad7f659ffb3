package io.kubeboot.operator.autoconfigure;

/**
 * Thrown at start-up when the operator finds no Kubernetes client configuration, or one
 * it cannot use. The message says where it looked and what it found there.
 */
public class KubernetesConfigurationException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String action;

	KubernetesConfigurationException(String message, String action, Throwable cause) {
		super(message, cause);
		this.action = action;
	}

	KubernetesConfigurationException(String message, String action) {
		super(message);
		this.action = action;
	}

	/**
	 * Returns what to do about it.
	 * @return the action, for a person to read
	 */
	String action() {
		return this.action;
	}

}
