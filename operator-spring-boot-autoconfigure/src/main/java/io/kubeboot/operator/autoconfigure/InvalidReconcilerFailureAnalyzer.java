package io.kubeboot.operator.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because a {@code @Reconciles} or
 * {@code @PeriodicTrigger} bean is invalid.
 */
class InvalidReconcilerFailureAnalyzer extends AbstractFailureAnalyzer<InvalidOperatorBeanException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidOperatorBeanException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Fix the bean named above; docs/operations/troubleshooting.md lists each message.", cause);
	}

}
