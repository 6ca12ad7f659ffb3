package io.kubeboot.operator.cluster;

import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;

/**
 * Reconciles an object of one cluster of a fleet, the counterpart of
 * multicluster-runtime's {@code mcreconcile.Func}: the request names the object, the
 * cluster gives its caches and client.
 */
@FunctionalInterface
public interface FleetReconciler {

	/**
	 * Reconciles the object named by the request in the given cluster.
	 * @param cluster the engaged cluster the request came from; read and write through
	 * its {@link Cluster#client()}
	 * @param request the namespace and name of the object
	 * @return what to do next, as {@link io.kubeboot.operator.reconcile.Reconciler} says
	 * @throws Exception retried with backoff, as a reconciler's
	 */
	Result reconcile(Cluster cluster, Request request) throws Exception;

}
