package io.kubeboot.operator.webhook;

/**
 * Refuses an admission with a message for the user, thrown by a
 * {@link AdmissionValidator} or a {@link Defaulter}: the API server answers the request
 * with HTTP 403 and the message, as in
 * {@code admission webhook "..." denied the request: spec.endpoint must be an http
 * or https URL}.
 */
public class AdmissionDeniedException extends Exception {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates a denial.
	 * @param message what is wrong and how to fix it, naming the field
	 */
	public AdmissionDeniedException(String message) {
		super(message);
	}

}
