package io.kubeboot.operator.autoconfigure;

import io.kubeboot.operator.client.KindNotServedException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because a watched kind is not served by the API server.
 */
class KindNotServedFailureAnalyzer extends AbstractFailureAnalyzer<KindNotServedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, KindNotServedException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Install the kind's CustomResourceDefinition (kubectl apply -f <crd>.yaml) and check that "
						+ "@KubernetesKind names the group, version and kind the CRD serves "
						+ "(kubectl api-resources shows what the API server serves).",
				cause);
	}

}
