package io.kubeboot.operator.autoconfigure;

/**
 * Thrown at start-up when the webhook server's certificate files cannot be read. The
 * message names {@code operator.webhook.cert-dir} and the file at fault.
 */
public class WebhookCertificateException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	WebhookCertificateException(String message, Throwable cause) {
		super(message, cause);
	}

}
