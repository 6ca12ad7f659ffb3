package io.kubeboot.operator.controller;

import java.util.Collection;
import java.util.Objects;
import java.util.function.Function;

import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * Hands requests to the controllers of a manager from code outside them: an HTTP handler
 * receiving a webhook from an object store, a message listener, a Spring application
 * event. Each controller has a {@link io.kubeboot.operator.source.Channel} of its own
 * that these requests go through.
 * <p>
 * A controller is named by the kind it reconciles ({@code enqueue(StorageBucket.class,
 * request)}: checked by the compiler, and failing at once if no controller or several
 * reconcile that kind) or by its name (for controllers that share a kind).
 * <p>
 * Never blocks and never calls the API server: requests go to the controller's work
 * queue, where one already waiting is not queued twice. A controller only runs on the
 * leader; on a standby replica (or before the manager started) requests are dropped,
 * which is safe for level-based reconcilers because a controller reconciles every object
 * when it starts. Thread-safe.
 */
public final class Enqueuer {

	private final Manager manager;

	/**
	 * Creates an enqueuer for the controllers of a manager.
	 * @param manager the manager
	 */
	public Enqueuer(Manager manager) {
		this.manager = Objects.requireNonNull(manager, "manager");
	}

	/**
	 * Returns the controller that reconciles a kind.
	 * @param kind the reconciled model class
	 * @return the controller
	 * @throws IllegalArgumentException if no controller or more than one reconciles the
	 * kind, naming them
	 */
	public Controller controllerFor(Class<? extends KubernetesObject> kind) {
		return Controller.forKind(this.manager, kind);
	}

	/**
	 * Asks the controller of a kind to reconcile a request.
	 * @param kind the reconciled model class
	 * @param request the request
	 * @throws IllegalArgumentException if no controller or more than one reconciles the
	 * kind
	 */
	public void enqueue(Class<? extends KubernetesObject> kind, Request request) {
		controllerFor(kind).enqueue(request);
	}

	/**
	 * Asks the controller of a kind to reconcile requests.
	 * @param kind the reconciled model class
	 * @param requests the requests
	 * @throws IllegalArgumentException if no controller or more than one reconciles the
	 * kind
	 */
	public void enqueue(Class<? extends KubernetesObject> kind, Collection<Request> requests) {
		send(controllerFor(kind), requests);
	}

	/**
	 * Maps an event to requests and asks the controller of a kind to reconcile them.
	 * @param <E> the event type
	 * @param kind the reconciled model class
	 * @param event the event
	 * @param mapFunction maps the event to requests; it may read the manager's cache
	 * @throws IllegalArgumentException if no controller or more than one reconciles the
	 * kind
	 */
	public <E> void enqueue(Class<? extends KubernetesObject> kind, E event,
			Function<? super E, ? extends Collection<Request>> mapFunction) {
		Controller target = controllerFor(kind);
		send(target, mapFunction.apply(event));
	}

	/**
	 * Asks the controller of a kind to reconcile every cached object of its kind.
	 * @param kind the reconciled model class
	 * @throws IllegalArgumentException if no controller or more than one reconciles the
	 * kind
	 */
	public void enqueueAll(Class<? extends KubernetesObject> kind) {
		Controller target = controllerFor(kind);
		send(target, target.cachedRequests());
	}

	/**
	 * Asks the named controller to reconcile a request.
	 * @param controller the controller's name
	 * @param request the request
	 * @throws IllegalArgumentException if there is no controller of that name
	 */
	public void enqueue(String controller, Request request) {
		Controller.named(this.manager, controller).enqueue(request);
	}

	/**
	 * Asks the named controller to reconcile requests.
	 * @param controller the controller's name
	 * @param requests the requests
	 * @throws IllegalArgumentException if there is no controller of that name
	 */
	public void enqueue(String controller, Collection<Request> requests) {
		send(Controller.named(this.manager, controller), requests);
	}

	/**
	 * Maps an event to requests and asks the named controller to reconcile them.
	 * @param <E> the event type
	 * @param controller the controller's name
	 * @param event the event
	 * @param mapFunction maps the event to requests; it may read the manager's cache
	 * @throws IllegalArgumentException if there is no controller of that name
	 */
	public <E> void enqueue(String controller, E event,
			Function<? super E, ? extends Collection<Request>> mapFunction) {
		Controller target = Controller.named(this.manager, controller);
		send(target, mapFunction.apply(event));
	}

	/**
	 * Asks the named controller to reconcile every cached object of its kind.
	 * @param controller the controller's name
	 * @throws IllegalArgumentException if there is no controller of that name
	 */
	public void enqueueAll(String controller) {
		Controller target = Controller.named(this.manager, controller);
		send(target, target.cachedRequests());
	}

	private static void send(Controller target, @Nullable Collection<Request> requests) {
		if (requests != null) {
			requests.forEach(target::enqueue);
		}
	}

}
