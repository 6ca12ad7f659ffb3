package io.kubeboot.operator.client;

/**
 * Thrown when the API server does not serve a kind the operator needs, typically because
 * the CustomResourceDefinition of a custom resource is not installed.
 */
public class KindNotServedException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception.
	 * @param message what is missing, for a person to read
	 */
	public KindNotServedException(String message) {
		super(message);
	}

}
