package io.kubeboot.operator.reconcile;

/**
 * Cleans up what a reconciler made outside its object before the object is deleted, the
 * counterpart of the Java Operator SDK's {@code Cleaner} and of a controller-runtime
 * reconciler that handles its own finalizer. Given to a controller together with a
 * finalizer name, the controller:
 * <ul>
 * <li>adds the finalizer to every object of the reconciled kind before its first
 * reconcile, so the API server keeps a deleted object until the cleanup ran;</li>
 * <li>calls {@link #cleanup} instead of the reconciler once the object is being deleted
 * (its deletion timestamp is set) and still carries the finalizer;</li>
 * <li>removes the finalizer, letting the deletion finish, only after {@code cleanup}
 * returned {@link Result#done()}. A cleanup that throws keeps the finalizer and is
 * retried with backoff; one that returns {@code requeue} or {@code requeueAfter} keeps it
 * and is called again then. A stop or crash during the cleanup loses nothing: the object
 * is still being deleted with the finalizer when the controller runs again.</li>
 * </ul>
 * An object that leaves the controller's label selector while it carries the finalizer is
 * cleaned up the same way and loses the finalizer, since the controller no longer sees it
 * (its deletion would otherwise hang).
 * <p>
 * Like a reconcile, a cleanup must be idempotent: it may run more than once.
 */
@FunctionalInterface
public interface Cleaner {

	/**
	 * Cleans up for an object that is being deleted.
	 * @param request the namespace and name of the object: read it from the cache, where
	 * it still is, unless it left the controller's label selector (then the controller
	 * cleans up too, and the object can be read with {@code client.uncached()})
	 * @return {@link Result#done()} once everything is cleaned up; a requeue to be called
	 * again
	 * @throws Exception if the cleanup failed; it is retried with backoff
	 */
	Result cleanup(Request request) throws Exception;

}
