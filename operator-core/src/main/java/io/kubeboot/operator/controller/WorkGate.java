package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * Decides whether and when a controller's requests may be worked on: which events of the
 * reconciled kind reach the queue, which requests enter it, what runs around each worker
 * and what a worker does with each request it takes. Without one, a controller runs on
 * the leader and reconciles every request. Sharding is a gate
 * ({@code io.kubeboot.operator.sharding.ShardRing}): the controller runs on every replica
 * and each replica works on its share.
 * <p>
 * A gate is created for one controller by its {@link Factory}, given to
 * {@link ControllerBuilder#gatedBy}. Its methods are called from the informer's thread
 * (events, {@link #admits}) and from the workers, concurrently.
 */
public interface WorkGate {

	/**
	 * Returns the label selector of the reconciled kind's cache.
	 * @param labelSelector the controller's own selector, {@code null} for all objects
	 * @return the selector to cache with
	 */
	default @Nullable String cacheSelector(@Nullable String labelSelector) {
		return labelSelector;
	}

	/**
	 * Returns what the gate needs RBAC to allow, besides what the controller needs.
	 * @return the permissions, each with its reason
	 */
	default List<Permission> requiredPermissions() {
		return List.of();
	}

	/**
	 * Decides whether an event of the reconciled kind reaches the controller's queue.
	 * @param event the event
	 * @param eventFilter the verdict of the controller's event filter, asked for only if
	 * needed
	 * @return {@code true} to queue the event's request
	 */
	default boolean passes(ObjectEvent event, BooleanSupplier eventFilter) {
		return eventFilter.getAsBoolean();
	}

	/**
	 * Whether a request may enter the queue now, from an event or when the controller
	 * starts; a request refused here is dropped.
	 * @param request the request
	 * @return {@code true} to queue it
	 */
	default boolean admits(Request request) {
		return true;
	}

	/**
	 * Wraps the loop of each worker; called on the thread that runs the controller.
	 * @param worker the loop
	 * @return what the worker's thread runs
	 */
	default Runnable aroundWorker(Runnable worker) {
		return worker;
	}

	/**
	 * Works on a request a worker took from the queue: reconciles it, or hands it back.
	 * The worker tells the queue the request is done afterwards.
	 * @param turn the request and what can be done with it
	 */
	default void work(Turn turn) {
		turn.reconcile();
	}

	/**
	 * Whether the controller runs only on the leader.
	 * @return {@code true} unless every replica works on a share of the objects
	 */
	default boolean needsLeaderElection() {
		return true;
	}

	/**
	 * Returns how many of the cached objects this replica is responsible for now.
	 * @param cached the cached objects of the reconciled kind
	 * @param running whether the controller's workers run
	 * @return the number of objects
	 */
	default int assignedObjects(List<? extends KubernetesObject> cached, boolean running) {
		return running ? cached.size() : 0;
	}

	/**
	 * Called once the controller is built, with the means to queue cached objects again
	 * (at low priority, once the controller runs) when what the gate admits grows.
	 * @param queueCached queues the cached requests a test selects
	 */
	default void attach(Consumer<Predicate<Request>> queueCached) {
	}

	/**
	 * Creates the gate of one controller.
	 */
	@FunctionalInterface
	interface Factory {

		/**
		 * Creates the gate of a controller being built.
		 * @param target the controller
		 * @return its gate
		 */
		WorkGate create(Target target);

	}

	/**
	 * The controller a gate is created for.
	 *
	 * @param controller the controller's name
	 * @param kind the reconciled kind
	 * @param namespace the namespace it works in, {@code null} for all
	 * @param labelSelector its own label selector, {@code null} for all objects
	 * @param client the manager's client
	 */
	record Target(String controller, Class<? extends KubernetesObject> kind, @Nullable String namespace,
			@Nullable String labelSelector, Client client) {
	}

	/**
	 * An event of the reconciled kind, seen before the event filter.
	 *
	 * @param type what happened
	 * @param oldObject the object before an update, {@code null} otherwise
	 * @param object the object added, updated or deleted
	 * @param finalStateUnknown whether a deletion was only inferred from a relist
	 */
	record ObjectEvent(Type type, @Nullable KubernetesObject oldObject, KubernetesObject object,
			boolean finalStateUnknown) {

		/**
		 * What happened to the object.
		 */
		public enum Type {

			/** Added to the cache. */
			ADD,

			/** Changed. */
			UPDATE,

			/** Gone from the cache. */
			DELETE

		}

	}

	/**
	 * A request a worker took, and what can become of it. Each method but
	 * {@link #request} and {@link #cached} is called at most once; a requeue keeps the
	 * priority the request was handed out with.
	 */
	interface Turn {

		/**
		 * Returns the request.
		 * @return the request
		 */
		Request request();

		/**
		 * Returns the request's object from the cache.
		 * @return the object, empty if not cached
		 */
		Optional<KubernetesObject> cached();

		/**
		 * Reconciles the request; its result decides what becomes of it.
		 */
		void reconcile();

		/**
		 * Drops the request: nothing is left to do for it.
		 */
		void drop();

		/**
		 * Queues the request again after a delay, without backoff.
		 * @param delay the delay
		 */
		void retryAfter(Duration delay);

		/**
		 * Queues the request again at once.
		 */
		void retryNow();

		/**
		 * Queues the request again after its backoff.
		 */
		void retryWithBackoff();

	}

}
