package io.kubeboot.operator.cache;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;

/**
 * The namespaces the manager's caches watch: every namespace, or a set that may change
 * while the operator runs, the counterpart of controller-runtime's
 * {@code cache.Options.DefaultNamespaces} and of JOSDK's {@code changeNamespaces}.
 * Obtained from {@code Manager.namespaces()}; with Spring, a bean.
 * <p>
 * Every informer asked for without a namespace ({@code null}: a controller's that names
 * none, its owned kinds, the watches that name none) follows the set. It runs one list
 * and watch per namespace of the set (once for a cluster-scoped kind, whose objects are
 * in no namespace), so the operator needs RBAC in those namespaces only: a Role in each,
 * never a ClusterRole for a namespaced kind. An informer asked for with a namespace
 * watches that namespace whatever the set, and one asked for with
 * {@link Cache#ALL_NAMESPACES} watches every namespace whatever the set.
 * <p>
 * A change takes effect at once, and the controllers keep running:
 * <ul>
 * <li>for an added namespace, an informer of each kind starts and lists it; readiness
 * (unless it leaves the namespaces out) is down until they have synced, and each
 * controller holds the requests of that namespace, outside its work queue, until every
 * informer it reads the namespace from has synced, then reconciles every object there (as
 * adds of an initial list, at low priority);</li>
 * <li>for a removed namespace, the informers stop and their objects leave the cache at
 * once (unless an informer asked for by name holds the namespace too): the cache's reads
 * of that namespace fail with a {@link NamespaceNotWatchedException} rather than finding
 * nothing, handlers receive no deletion (nothing was deleted), and the controllers drop
 * the requests of that namespace, queued ones included. A reconcile under way goes on,
 * but its next read of the cache fails, and the request is dropped. Objects there keep
 * the finalizers of the controllers, which no longer remove them: deleting such an
 * object, or the namespace, waits until someone does (each controller warns with the
 * objects concerned).</li>
 * </ul>
 * A namespace need not exist: its informers list nothing until it is created. A namespace
 * whose informers RBAC denies keeps readiness down, naming the informer and the denial,
 * and its requests held, while every other namespace works on; it is no reason to fail,
 * whether it is added while the manager runs or there at its start.
 * <p>
 * Whether every namespace or a set is watched is chosen when the manager is built
 * ({@code ManagerBuilder.namespaces}, {@code operator.namespaces}) and does not change: a
 * set may shrink to none, never grow to all. Each replica has its own set: with leader
 * election, change it on every replica, since the informers run on all of them. A change
 * made before the manager starts is what it starts with; the manager's stop ends them.
 * <p>
 * Thread-safe: changes are applied one at a time, each as a whole.
 */
public interface WatchedNamespaces {

	/**
	 * Whether every namespace is watched, in which case the set cannot change.
	 * @return {@code true} when the manager watches all namespaces
	 */
	boolean watchesAll();

	/**
	 * Returns the namespaces watched now.
	 * @return an unmodifiable set in alphabetical order, empty when {@link #watchesAll()}
	 */
	Set<String> current();

	/**
	 * Replaces the set: informers of the namespaces no longer in it stop, those of the
	 * new ones start. Returns once they have, without waiting for the new ones to sync
	 * (see {@link #awaitSynced}). Setting the same namespaces does nothing.
	 * <p>
	 * A change is applied whole or not at all, with one exception: if an informer of an
	 * added namespace cannot start (its kind cannot be resolved against the API server),
	 * the rest of the change is applied, the namespace stays in the set, unsynced, and
	 * this throws.
	 * @param namespaces the namespaces, each an RFC 1123 label; empty for none
	 * @throws io.kubeboot.operator.config.InvalidConfigException (an
	 * {@link IllegalArgumentException}) naming every value that is no namespace name, the
	 * set unchanged
	 * @throws IllegalStateException if every namespace is watched, or the manager
	 * stopped, the set unchanged; or if an informer of an added namespace cannot start,
	 * the rest applied
	 */
	void set(Collection<String> namespaces);

	/**
	 * Adds namespaces to the set, as {@link #set} does.
	 * @param namespaces the namespaces; those in the set already are left as they are
	 * @throws IllegalArgumentException naming every value that is no namespace name
	 * @throws IllegalStateException if every namespace is watched, or the manager
	 * stopped; or if an informer of an added namespace cannot start (see {@link #set})
	 */
	void add(String... namespaces);

	/**
	 * Removes namespaces from the set, as {@link #set} does.
	 * @param namespaces the namespaces; those not in the set are ignored
	 * @throws IllegalArgumentException naming every value that is no namespace name
	 * ({@code null} included)
	 * @throws IllegalStateException if every namespace is watched, or the manager stopped
	 */
	void remove(String... namespaces);

	/**
	 * Returns the namespaces of the set whose informers have not all synced: just added,
	 * or refused by the API server (RBAC, say).
	 * @return an unmodifiable set in alphabetical order, empty when all have synced (and
	 * when {@link #watchesAll()})
	 */
	Set<String> unsynced();

	/**
	 * Waits until every informer of every namespace of the set has synced.
	 * @param timeout how long to wait at most
	 * @return {@code true} if all synced in time, {@code false} otherwise
	 * @throws InterruptedException if interrupted while waiting
	 */
	boolean awaitSynced(Duration timeout) throws InterruptedException;

}
