package io.kubeboot.operator.controller;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerEventHandler;
import io.kubeboot.operator.controller.WorkGate.ObjectEvent;
import io.kubeboot.operator.controller.WorkGate.ObjectEvent.Type;
import io.kubeboot.operator.handler.MapFunction;
import io.kubeboot.operator.predicate.EventFilter;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubernetes.client.common.KubernetesObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One kind a controller reacts to: an informer, the event filter and the mapping from its
 * objects to requests. Registers a handler on the informer that feeds every mapped
 * request of an event the filter passes to the controller, with a priority as
 * controller-runtime's {@code handler.WithLowPriorityWhenUnchanged} gives it:
 * {@link WorkQueue#LOW_PRIORITY} for the adds of an initial list and for updates that did
 * not change the object (same resourceVersion: a resync, or a relist that found it as it
 * was), {@link WorkQueue#DEFAULT_PRIORITY} for every change.
 *
 * @param <T> the watched model type
 */
final class EventSource<T extends KubernetesObject> {

	private static final Logger logger = LoggerFactory.getLogger(EventSource.class);

	private final String controller;

	private final Informer<T> informer;

	private final MapFunction<T> mapFunction;

	private final EventFilter<? super T> predicate;

	/** The controller's gate, for the reconciled kind; one that passes all otherwise. */
	private final WorkGate gate;

	EventSource(String controller, Informer<T> informer, MapFunction<T> mapFunction) {
		this(controller, informer, mapFunction, EventFilters.all());
	}

	EventSource(String controller, Informer<T> informer, MapFunction<T> mapFunction, EventFilter<? super T> predicate) {
		this(controller, informer, mapFunction, predicate, new WorkGate() {
		});
	}

	/**
	 * Creates the source of the reconciled kind of a controller: its gate sees every
	 * event before the event filter, and may let an event pass that the filter would
	 * drop, or drop one the filter would pass.
	 */
	EventSource(String controller, Informer<T> informer, MapFunction<T> mapFunction, EventFilter<? super T> predicate,
			WorkGate gate) {
		this.controller = controller;
		this.informer = informer;
		this.mapFunction = mapFunction;
		this.predicate = predicate;
		this.gate = gate;
	}

	Informer<T> informer() {
		return this.informer;
	}

	void register(Sink sink) {
		this.informer.addEventHandler(new InformerEventHandler<>() {

			@Override
			public void onAdd(T object, boolean inInitialList) {
				if (EventSource.this.gate.passes(new ObjectEvent(Type.ADD, null, object, false),
						() -> passes("create", object, () -> EventSource.this.predicate.create(object)))) {
					int priority = inInitialList ? WorkQueue.LOW_PRIORITY : WorkQueue.DEFAULT_PRIORITY;
					map(object).forEach((request) -> sink.add(request, priority));
				}
			}

			@Override
			public void onUpdate(T oldObject, T newObject) {
				if (EventSource.this.gate.passes(new ObjectEvent(Type.UPDATE, oldObject, newObject, false),
						() -> passes("update", newObject,
								() -> EventSource.this.predicate.update(oldObject, newObject)))) {
					// both: an owner reference or a mapped field may have moved from one
					// request to another. Each request once: a worker that took the first
					// add before the second would see the key dirty and reconcile it
					// twice.
					Set<Request> requests = new LinkedHashSet<>(map(oldObject));
					requests.addAll(map(newObject));
					int priority = unchanged(oldObject, newObject) ? WorkQueue.LOW_PRIORITY
							: WorkQueue.DEFAULT_PRIORITY;
					requests.forEach((request) -> sink.add(request, priority));
				}
			}

			@Override
			public void onDelete(T object, boolean deletedFinalStateUnknown) {
				if (EventSource.this.gate.passes(new ObjectEvent(Type.DELETE, null, object, deletedFinalStateUnknown),
						() -> passes("delete", object, () -> EventSource.this.predicate.delete(object)))) {
					map(object).forEach((request) -> sink.add(request, WorkQueue.DEFAULT_PRIORITY));
				}
			}

		});
	}

	/**
	 * Feeds every cached object through the mapping, as a freshly added handler would see
	 * them: adds of an initial list, at {@link WorkQueue#LOW_PRIORITY}.
	 */
	void replay(Sink sink) {
		for (T object : this.informer.list()) {
			if (passes("create", object, () -> this.predicate.create(object))) {
				map(object).forEach((request) -> sink.add(request, WorkQueue.LOW_PRIORITY));
			}
		}
	}

	/**
	 * Whether an update leaves the object as it was: the same instance (a resync) or the
	 * same resourceVersion (a relist that found it unchanged).
	 */
	private static boolean unchanged(KubernetesObject oldObject, KubernetesObject newObject) {
		if (oldObject == newObject) {
			return true;
		}
		String before = (oldObject.getMetadata() != null) ? oldObject.getMetadata().getResourceVersion() : null;
		String after = (newObject.getMetadata() != null) ? newObject.getMetadata().getResourceVersion() : null;
		return before != null && Objects.equals(before, after);
	}

	/**
	 * Asks the predicate; one that throws lets the event pass: a broken filter costs a
	 * reconcile, never a lost change.
	 */
	private boolean passes(String event, T object, BooleanSupplier decision) {
		try {
			return decision.getAsBoolean();
		}
		catch (RuntimeException ex) {
			logger.error("Event filter failed, event passes: controller={} informer={} event={} filter={} object={}",
					this.controller, this.informer.key(), event, this.predicate, describe(object), ex);
			return true;
		}
	}

	private Collection<Request> map(T object) {
		try {
			Collection<Request> requests = this.mapFunction.map(object);
			return (requests != null) ? requests : List.of();
		}
		catch (RuntimeException ex) {
			logger.error("Mapping an event to requests failed, event skipped: controller={} informer={} object={}",
					this.controller, this.informer.key(), describe(object), ex);
			return List.of();
		}
	}

	/**
	 * Where the requests of events go.
	 */
	@FunctionalInterface
	interface Sink {

		/**
		 * Takes a request.
		 * @param request the request
		 * @param priority its priority
		 */
		void add(Request request, int priority);

	}

	private static String describe(KubernetesObject object) {
		return (object.getMetadata() != null)
				? object.getMetadata().getNamespace() + "/" + object.getMetadata().getName() : "?";
	}

}
