package io.kubeboot.operator.autoconfigure;

import io.kubeboot.operator.leaderelection.LeaseAccessDeniedException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because RBAC denies leader election what it needs on
 * its Lease.
 */
class LeaseAccessDeniedFailureAnalyzer extends AbstractFailureAnalyzer<LeaseAccessDeniedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LeaseAccessDeniedException cause) {
		String namespace = cause.namespace();
		return new FailureAnalysis(cause.getMessage(),
				"Grant the operator's service account get, create and update on leases (API group "
						+ "coordination.k8s.io) in namespace '" + namespace + "', and watch, so that a standby "
						+ "notices a released Lease at once: a Role bound to it by a RoleBinding, for example\n"
						+ "    kubectl create role leader-election -n " + namespace
						+ " --verb=get,create,update,watch --resource=leases.coordination.k8s.io\n"
						+ "    kubectl create rolebinding leader-election -n " + namespace
						+ " --role=leader-election --serviceaccount=<its namespace>:<its name>",
				cause);
	}

}
