package io.kubeboot.operator.webhook;

/**
 * Refuses to convert an object, thrown by a {@link Convertible}: the conversion webhook
 * answers the API server with a failure carrying the message, which the API server
 * returns to its client (HTTP 500, {@code conversion webhook for ... failed:
 * <message>}). Unlike other exceptions, it is not counted as a panic of the webhook.
 */
public class ConversionException extends Exception {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates a refusal.
	 * @param message what cannot be converted and why, naming the field
	 */
	public ConversionException(String message) {
		super(message);
	}

}
