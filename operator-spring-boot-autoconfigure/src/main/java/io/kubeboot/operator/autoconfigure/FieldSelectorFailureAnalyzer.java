package io.kubeboot.operator.autoconfigure;

import io.kubeboot.operator.cache.FieldSelectorNotSupportedException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because the API server does not support a controller's
 * field selector for its kind.
 */
class FieldSelectorFailureAnalyzer extends AbstractFailureAnalyzer<FieldSelectorNotSupportedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, FieldSelectorNotSupportedException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Select by a field the API server supports for the kind (kubectl get <resource> --field-selector "
						+ "<selector> tells), or by labels instead. For a custom resource, declare the field in its "
						+ "CustomResourceDefinition's spec.versions[*].selectableFields (jsonPath .spec.color makes "
						+ "spec.color selectable) and apply it before the operator starts; for a built-in kind, only "
						+ "metadata.name, metadata.namespace and the fields Kubernetes supports for it can be used "
						+ "(such as type of a Secret, spec.nodeName and status.phase of a Pod). Fix @Reconciles("
						+ "fieldSelector, ownsFieldSelector) or @Watches(fieldSelector) of the controller named above.",
				cause);
	}

}
