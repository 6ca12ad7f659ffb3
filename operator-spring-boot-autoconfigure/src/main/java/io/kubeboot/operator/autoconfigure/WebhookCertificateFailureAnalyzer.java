package io.kubeboot.operator.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because the webhook server's certificate files cannot
 * be read, as when an operator with webhooks is run outside a cluster.
 */
class WebhookCertificateFailureAnalyzer extends AbstractFailureAnalyzer<WebhookCertificateException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, WebhookCertificateException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"In a cluster, mount the Secret with tls.crt and tls.key (cert-manager's, say) at "
						+ "operator.webhook.cert-dir. To run locally without a certificate, set "
						+ "operator.webhook.self-signed=true.",
				cause);
	}

}
