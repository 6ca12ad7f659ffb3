package io.kubeboot.operator.controller;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.reconcile.Request;
import org.jspecify.annotations.Nullable;

/**
 * Keeps a controller that follows the manager's namespace set to the namespaces in it,
 * and to those it can read whole: a request of a namespace that left the set is dropped,
 * queued ones included, and one of a namespace whose informers have not all synced (just
 * added, or refused by RBAC) waits, outside the work queue ({@link WaitingRequests}),
 * since its reconcile would find objects missing that exist, as a controller's workers
 * wait for its caches when it starts.
 * <p>
 * A request of a namespace that never was in the set passes, as it always did: none comes
 * from the informers that follow the set, and one from elsewhere (a periodic trigger of
 * external resources, a watch of another namespace, {@code Controller.enqueue}) names
 * what its source means, which the set does not restrict. Its reconcile reads that
 * namespace from the cache only if some informer holds it.
 * <p>
 * The set and the informers' namespaces change together, under the cache's lock, before
 * any informer of an added namespace delivers an event; an informer that has yet to take
 * an added namespace answers that it has not synced it, so the request waits.
 */
final class NamespaceFilter {

	/** A filter for a controller that does not follow the set: everything passes. */
	static final NamespaceFilter NONE = new NamespaceFilter(null, List.of(), (informer) -> List.of(informer.key()));

	/** What to do with a request. */
	enum Verdict {

		/** Work on it. */
		WORK,

		/**
		 * Its namespace is in the set but not cached whole yet: hold it until it is
		 * ({@link WaitingRequests}).
		 */
		WAIT,

		/** Its namespace left the set: forget it. */
		DROP

	}

	private final @Nullable WatchedNamespaces namespaces;

	private final List<Informer<?>> followers;

	private final Function<Informer<?>, List<InformerKey>> keys;

	/** The namespaces that left the set since the controller was built. */
	private final Set<String> left = ConcurrentHashMap.newKeySet();

	/**
	 * Creates the filter of a controller.
	 * @param namespaces the manager's namespaces, {@code null} when the controller does
	 * not follow a set
	 * @param followers the controller's informers that follow the set
	 * @param keys the keys of the lists and watches an informer runs (one per namespace
	 * of the set for an informer that follows it)
	 */
	NamespaceFilter(@Nullable WatchedNamespaces namespaces, List<Informer<?>> followers,
			Function<Informer<?>, List<InformerKey>> keys) {
		this.namespaces = namespaces;
		this.followers = List.copyOf(followers);
		this.keys = keys;
	}

	/**
	 * Records namespaces that leave the set (told before the set changes): their requests
	 * are dropped while they are out of it.
	 * @param namespaces the namespaces
	 */
	void left(Set<String> namespaces) {
		this.left.addAll(namespaces);
	}

	/**
	 * Returns the keys of the lists and watches an informer of the controller runs.
	 * @param informer the informer
	 * @return its key, or those of its informer of each namespace of the set
	 */
	List<InformerKey> keysOf(Informer<?> informer) {
		return this.keys.apply(informer);
	}

	/**
	 * Decides what to do with a request.
	 * @param request the request
	 * @return the verdict
	 */
	Verdict verdict(Request request) {
		return verdict(request.namespace());
	}

	/**
	 * Decides what to do with the requests of a namespace. Those of a cluster-scoped
	 * object, which no set restricts, wait while any informer that follows the set has
	 * not synced every namespace: such an object may own or name objects in any of them.
	 * @param namespace the namespace, {@code null} for cluster-scoped objects
	 * @return the verdict
	 */
	Verdict verdict(@Nullable String namespace) {
		if (this.namespaces == null) {
			return Verdict.WORK;
		}
		if (namespace == null) {
			for (Informer<?> informer : this.followers) {
				if (!informer.hasSynced()) {
					return Verdict.WAIT;
				}
			}
			return Verdict.WORK;
		}
		if (!this.namespaces.current().contains(namespace)) {
			return this.left.contains(namespace) ? Verdict.DROP : Verdict.WORK;
		}
		for (Informer<?> informer : this.followers) {
			if (!informer.hasSynced(namespace)) {
				return Verdict.WAIT;
			}
		}
		return Verdict.WORK;
	}

	/**
	 * Whether the controller follows the manager's namespace set.
	 * @return {@code false} for {@link #NONE}
	 */
	boolean followsSet() {
		return this.namespaces != null;
	}

	/**
	 * Whether an informer is waited for at the controller's start: one that follows the
	 * set is not, since a namespace it has not synced holds only its own requests.
	 * @param informer an informer of the controller
	 * @return {@code true} to wait for its sync
	 */
	boolean waitsAtStart(Informer<?> informer) {
		return !this.followers.contains(informer);
	}

}
