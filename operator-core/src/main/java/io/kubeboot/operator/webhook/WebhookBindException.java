package io.kubeboot.operator.webhook;

/**
 * The webhook server could not listen on its address and port, typically because another
 * process uses the port. The message names the address.
 */
public class WebhookBindException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	WebhookBindException(String message, Throwable cause) {
		super(message, cause);
	}

}
