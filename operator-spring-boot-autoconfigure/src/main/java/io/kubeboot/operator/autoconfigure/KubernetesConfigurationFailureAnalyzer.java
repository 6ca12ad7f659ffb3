package io.kubeboot.operator.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because no Kubernetes client configuration was found,
 * or the one found cannot be used.
 */
class KubernetesConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<KubernetesConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, KubernetesConfigurationException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
	}

}
