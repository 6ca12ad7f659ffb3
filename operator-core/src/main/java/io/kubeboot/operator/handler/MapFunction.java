package io.kubeboot.operator.handler;

import java.util.Collection;

import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.common.KubernetesObject;

/**
 * Maps a changed object of a watched kind to the requests to reconcile, the counterpart
 * of controller-runtime's {@code EnqueueRequestsFromMapFunc}. Called on the informer's
 * event thread for every add, update (with the old and the new object) and delete: it
 * must be fast, must not block and must not call the API server. An exception is logged
 * and the event skipped.
 *
 * @param <T> the watched model type
 */
@FunctionalInterface
public interface MapFunction<T extends KubernetesObject> {

	/**
	 * Returns the requests an object change maps to.
	 * @param object the changed object (the last known state for a delete)
	 * @return the requests, possibly empty
	 */
	Collection<Request> map(T object);

}
