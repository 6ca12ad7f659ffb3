package io.kubeboot.operator.autoconfigure;

import io.kubeboot.operator.webhook.WebhookBindException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because the webhook server could not listen on its
 * port.
 */
class WebhookBindFailureAnalyzer extends AbstractFailureAnalyzer<WebhookBindException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, WebhookBindException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Set operator.webhook.port (and operator.webhook.bind-address) to an address this process may "
						+ "listen on, or stop the process that uses the port; the webhook server needs a port of "
						+ "its own, apart from server.port and management.server.port.",
				cause);
	}

}
