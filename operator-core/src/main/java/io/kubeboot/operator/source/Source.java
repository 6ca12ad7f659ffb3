package io.kubeboot.operator.source;

import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.reconcile.ReconcileTrigger;

/**
 * Where requests come from besides the watched kinds: a timer, a message listener, a
 * webhook from a system outside the cluster. The counterpart of controller-runtime's
 * {@code source.Source} (its channel source in particular); {@link Channel} and
 * {@link IntervalTrigger} are two implementations, and a controller's own
 * {@code Enqueuer} is a {@link Channel}.
 * <p>
 * A controller starts each of its sources every time it starts (on the leader, once its
 * caches have synced and its work queue exists), on a thread of its own, and fires the
 * stop signal before its workers stop. {@link #start} should block until the signal
 * fires, handing requests to the queue meanwhile, then return promptly. Returning earlier
 * simply ends the source for this run; throwing ends it too and is logged at ERROR, the
 * controller keeps running. A source must not call the API server for every request:
 * requests are cheap, reconciles are not, and the work queue de-duplicates.
 */
@FunctionalInterface
public interface Source {

	/**
	 * Feeds requests to a controller's queue until the stop signal fires.
	 * @param queue the queue of the controller's current run; never blocks
	 * @param stop fires when the controller stops
	 * @throws Exception if the source failed; it is logged and the source ends
	 */
	void start(RequestQueue queue, StopSignal stop) throws Exception;

	/**
	 * Returns what the requests of this source are, as the triggers of the reconciles
	 * they cause name them: {@code periodic} for a timer, {@code enqueued} by default.
	 * @return the kind of trigger of every request this source queues
	 */
	default ReconcileTrigger.Kind triggerKind() {
		return ReconcileTrigger.Kind.ENQUEUED;
	}

}
