package io.kubeboot.operator.trigger;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;

/**
 * Hands requests to a controller from code outside it: an HTTP handler receiving a
 * webhook from an object store, a message listener, a Spring application event. The Java
 * counterpart of controller-runtime's channel source with
 * {@code EnqueueRequestsFromMapFunc}.
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
	 * Asks the named controller to reconcile a request.
	 * @param controller the controller's name
	 * @param request the request
	 * @throws IllegalArgumentException if there is no controller of that name
	 */
	public void enqueue(String controller, Request request) {
		this.manager.controller(controller).enqueue(request);
	}

	/**
	 * Asks the named controller to reconcile requests.
	 * @param controller the controller's name
	 * @param requests the requests
	 * @throws IllegalArgumentException if there is no controller of that name
	 */
	public void enqueue(String controller, Collection<Request> requests) {
		Controller target = this.manager.controller(controller);
		requests.forEach(target::enqueue);
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
		Collection<Request> requests = mapFunction.apply(event);
		enqueue(controller, (requests != null) ? requests : List.of());
	}

	/**
	 * Asks the named controller to reconcile every cached object of its kind.
	 * @param controller the controller's name
	 * @throws IllegalArgumentException if there is no controller of that name
	 */
	public void enqueueAll(String controller) {
		Controller target = this.manager.controller(controller);
		target.cachedRequests().forEach(target::enqueue);
	}

}
