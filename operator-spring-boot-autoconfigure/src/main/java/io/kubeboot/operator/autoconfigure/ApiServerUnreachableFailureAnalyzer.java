package io.kubeboot.operator.autoconfigure;

import io.kubeboot.operator.client.ApiServerUnreachableException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because the API server could not be reached, or
 * answered discovery with errors only, naming its URL and where the URL came from.
 */
class ApiServerUnreachableFailureAnalyzer extends AbstractFailureAnalyzer<ApiServerUnreachableException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ApiServerUnreachableException cause) {
		return new FailureAnalysis(cause.getMessage(), "Check that the API server at " + cause.server()
				+ " is up and that this process can reach it (the address, DNS, network policies, proxies; "
				+ "a TLS error means the certificate authority does not match), and that it accepts the "
				+ "credentials of the configuration named (401 Unauthorized means it does not). To use another "
				+ "cluster, set KUBECONFIG, switch the current context (kubectl config use-context) or define an "
				+ "ApiClient bean. operator.cache-sync-timeout sets how long start-up keeps trying.", cause);
	}

}
