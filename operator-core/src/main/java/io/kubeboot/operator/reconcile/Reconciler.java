package io.kubeboot.operator.reconcile;

/**
 * Drives one object of one kind towards the state its spec asks for. This is the only
 * code an operator author has to write; the controller calling it guarantees:
 * <ul>
 * <li>the same request is never reconciled by two threads at once, while different
 * requests may be reconciled concurrently (up to the controller's
 * {@code max-concurrent-reconciles});</li>
 * <li>requests are coalesced: many changes to one object while it waits give one
 * reconcile, and a change during a reconcile gives exactly one more after it;</li>
 * <li>the object may have been deleted by the time of the call: read it from the cache
 * and treat its absence as "deleted".</li>
 * </ul>
 * A reconcile must be idempotent and should be quick: it blocks one worker for its whole
 * duration. On shutdown a reconcile in flight is allowed to finish within the graceful
 * shutdown timeout, after which its thread is interrupted.
 */
@FunctionalInterface
public interface Reconciler {

	/**
	 * Reconciles the object named by the request.
	 * @param request the namespace and name of the object
	 * @return what to do next; see {@link Result}
	 * @throws TerminalException if the object cannot be reconciled until it changes: the
	 * error is recorded and the request is not retried
	 * @throws Exception any other exception: the request is retried with exponential
	 * backoff (5ms doubling up to 1000s by default); the client's
	 * {@code ConflictException} is retried at once and its
	 * {@code TooManyRequestsException} after the API server's Retry-After, neither with
	 * backoff
	 */
	Result reconcile(Request request) throws Exception;

}
