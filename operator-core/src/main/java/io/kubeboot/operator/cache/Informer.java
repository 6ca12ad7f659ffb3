package io.kubeboot.operator.cache;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.jspecify.annotations.Nullable;

/**
 * One list-and-watch of a kind in one namespace (or all) with one label selector, and the
 * local store it keeps: controller-runtime's {@code cache.Informer}. Obtained from
 * {@link Cache#informer}; the manager starts it with the cache. One asked for without a
 * namespace while the manager watches a set of namespaces ({@link WatchedNamespaces})
 * runs one list-and-watch per namespace of the set, and reads and reports them as one.
 * <p>
 * List and watch errors never stop an informer: it retries, and reports the last error
 * and how long it has been without a watch, which readiness and the metrics read. Nor
 * does an object that does not decode into the model class: it is skipped, logged and
 * counted ({@link #undecodableObjects()}). All methods are thread-safe and never block on
 * the network.
 *
 * @param <T> the model type
 */
public interface Informer<T extends KubernetesObject> {

	/**
	 * Returns what this informer watches.
	 * @return the kind, namespace and label selector
	 */
	InformerKey key();

	/**
	 * Adds an event handler. Handlers are called on the informer's single event thread,
	 * in order, and must not block. One added after the informer started first receives
	 * an add for every cached object. An {@link InformerEventHandler} learns which adds
	 * come from an initial list: those of the informer's first list and those replayed to
	 * a handler added later.
	 * @param handler the handler
	 */
	void addEventHandler(ResourceEventHandler<T> handler);

	/**
	 * Whether the first list has been stored and delivered to the handlers.
	 * @return {@code true} once synced
	 */
	boolean hasSynced();

	/**
	 * Whether the objects of a namespace have been listed, for code that works on one
	 * namespace at a time. An informer of the manager's namespace set
	 * ({@link WatchedNamespaces}) runs one list and watch per namespace: it tells whether
	 * the one of that namespace has synced, and answers {@code false} for a namespace not
	 * in the set. Any other informer answers as {@link #hasSynced()} does for its own
	 * namespace (every namespace for one of all namespaces), and {@code false} for any
	 * other.
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @return {@code true} once the namespace's objects were listed
	 */
	default boolean hasSynced(@Nullable String namespace) {
		String held = key().namespace();
		return (namespace == null || held == null || held.equals(namespace)) && hasSynced();
	}

	/**
	 * Returns the cached objects.
	 * @return a new list, empty before the informer synced
	 */
	List<T> list();

	/**
	 * Returns the cached objects in one namespace.
	 * @param namespace the namespace
	 * @return a new list
	 */
	List<T> list(String namespace);

	/**
	 * Returns a cached object.
	 * @param namespace the namespace, or {@code null} for a cluster-scoped object
	 * @param name the name
	 * @return the object, if cached
	 */
	Optional<T> get(@Nullable String namespace, String name);

	/**
	 * Returns the last list or watch error, for a person to read.
	 * @return the error, or {@code null} if there was none since the last successful sync
	 */
	@Nullable String lastError();

	/**
	 * Returns for how long this informer has been without a working watch: since it
	 * started until its first watch opened, its list or watch failing (a list allowed
	 * while its watch is refused included), or its watch ended and not yet replaced.
	 * @return the duration, or {@code null} while a watch is open and before the informer
	 * started
	 */
	@Nullable Duration failingFor();

	/**
	 * Returns how long this informer has heard nothing from the API server (no event, no
	 * list, no new watch, no failed attempt); a healthy watch is renewed at least once
	 * per watch timeout, and a failing informer tries again at least every ten seconds.
	 * @return the silence, zero before the informer started
	 */
	Duration silentFor();

	/**
	 * Returns how often the watchdog replaced this informer after a silence.
	 * @return the number of completed restarts
	 */
	long restarts();

	/**
	 * Returns how many objects this informer skipped because they did not decode into its
	 * model class (a custom resource whose CRD preserves unknown fields holding a field
	 * of the wrong type), each version of an object counted once. Such an object is left
	 * out of the cache while every other object keeps flowing; if an earlier version of
	 * it decoded, that version stays cached until the object decodes again or is deleted.
	 * @return the number of object versions skipped; 0 by default, for informers that
	 * skip nothing
	 */
	default long undecodableObjects() {
		return 0;
	}

	/**
	 * Tells whether the latest version of an object did not decode into the model class,
	 * so that what the cache holds of it ({@link #get}) is the last version that did, or
	 * nothing if none did: a reconciler can tell that it acts on an older version than
	 * the API server's. The controller of the kind logs a WARN when it reconciles such an
	 * object.
	 * @param namespace the object's namespace, {@code null} if cluster-scoped
	 * @param name the object's name
	 * @return the resourceVersion of the version that did not decode, empty if the latest
	 * version decoded; empty by default, for informers that skip nothing
	 */
	default Optional<String> undecodableVersion(@Nullable String namespace, String name) {
		return Optional.empty();
	}

	/**
	 * Returns what this informer's objects cost: how many it holds, an estimate of the
	 * heap they take, and how they stand against its object budget. Never throws, and
	 * cheap enough to call at every scrape of the metrics: the estimate is taken again
	 * from a sample of the objects only when it is stale, within a bounded amount of
	 * work, never on the informer's event thread.
	 * @return the cost
	 */
	InformerCost cost();

	/**
	 * Returns for how long the watchdog has been replacing this informer.
	 * @return the duration, or {@code null} when no restart is under way
	 */
	@Nullable Duration restartingFor();

}
