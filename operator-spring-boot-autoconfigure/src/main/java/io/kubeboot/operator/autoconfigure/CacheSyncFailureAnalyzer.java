package io.kubeboot.operator.autoconfigure;

import io.kubeboot.operator.cache.CacheAccessDeniedException;
import io.kubeboot.operator.cache.CacheSyncException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because RBAC denies what the caches need, or because
 * the caches did not sync in time.
 */
class CacheSyncFailureAnalyzer extends AbstractFailureAnalyzer<CacheSyncException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, CacheSyncException cause) {
		String message = cause.getMessage();
		String action = (cause instanceof CacheAccessDeniedException || (message != null && message
			.contains("403 Forbidden")))
					? "Grant the operator's service account the verbs get, list and watch on the resources named above, "
							+ "in the namespaces named above (a Role and RoleBinding, or a ClusterRole and "
							+ "ClusterRoleBinding when it watches all namespaces)."
					: "Check that the API server is reachable from the operator; for very large lists raise "
							+ "operator.cache-sync-timeout.";
		return new FailureAnalysis(message, action, cause);
	}

}
