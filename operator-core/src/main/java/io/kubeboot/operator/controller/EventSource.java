package io.kubeboot.operator.controller;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerEventHandler;
import io.kubeboot.operator.client.internal.ModelReading;
import io.kubeboot.operator.controller.WorkGate.ObjectEvent;
import io.kubeboot.operator.controller.WorkGate.ObjectEvent.Type;
import io.kubeboot.operator.handler.MapFunction;
import io.kubeboot.operator.predicate.EventFilter;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubeboot.operator.tracing.internal.TraceContexts;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
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
 * <p>
 * Each request goes with its {@link ReconcileTrigger}: for the reconciled kind what
 * happened to the object (created, its spec, metadata or status changed, deleted, or seen
 * unchanged), for an owned or watched kind which object changed. An object of any kind
 * seen unchanged (an initial list, the controller's start, a resync, a relist) is a
 * {@code resync} that names no object: it tells no change, and an owner of many objects
 * gets one, not one per object. An update that changed nothing but the
 * {@link TraceContextAnnotation} is dropped as if the event filter had dropped it,
 * whatever the filter: a write's trace context never causes a reconcile by itself, and
 * the gate still sees the update, as it sees every event.
 *
 * @param <T> the watched model type
 */
final class EventSource<T extends KubernetesObject> {

	private static final Logger logger = LoggerFactory.getLogger(EventSource.class);

	private static final Gson gson = ModelReading.gson(new JSON().getGson());

	private final String controller;

	private final Informer<T> informer;

	private final MapFunction<T> mapFunction;

	private final EventFilter<? super T> predicate;

	/** The controller's gate, for the reconciled kind; one that passes all otherwise. */
	private final WorkGate gate;

	/** How this kind relates to the reconciled one. */
	private final Relation relation;

	/**
	 * The kind's name with its API group for the triggers of owned and watched objects,
	 * such as {@code Deployment.apps}.
	 */
	private final Supplier<String> kindName;

	EventSource(String controller, Informer<T> informer, MapFunction<T> mapFunction) {
		this(controller, informer, mapFunction, EventFilters.all());
	}

	EventSource(String controller, Informer<T> informer, MapFunction<T> mapFunction, EventFilter<? super T> predicate) {
		this(controller, informer, mapFunction, predicate, new WorkGate() {
		});
	}

	/**
	 * Creates the source of an owned or watched kind.
	 */
	EventSource(String controller, Informer<T> informer, MapFunction<T> mapFunction, EventFilter<? super T> predicate,
			Relation relation, Supplier<String> kindName) {
		this(controller, informer, mapFunction, predicate, new WorkGate() {
		}, relation, kindName);
	}

	/**
	 * Creates the source of the reconciled kind of a controller: its gate sees every
	 * event before the event filter, and may let an event pass that the filter would
	 * drop, or drop one the filter would pass.
	 */
	EventSource(String controller, Informer<T> informer, MapFunction<T> mapFunction, EventFilter<? super T> predicate,
			WorkGate gate) {
		this(controller, informer, mapFunction, predicate, gate, Relation.RECONCILED, () -> "");
	}

	private EventSource(String controller, Informer<T> informer, MapFunction<T> mapFunction,
			EventFilter<? super T> predicate, WorkGate gate, Relation relation, Supplier<String> kindName) {
		this.controller = controller;
		this.informer = informer;
		this.mapFunction = mapFunction;
		this.predicate = predicate;
		this.gate = gate;
		this.relation = relation;
		this.kindName = kindName;
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
					ReconcileTrigger trigger = inInitialList ? trigger(ReconcileTrigger.Kind.RESYNC, object, null)
							: trigger(ReconcileTrigger.Kind.CREATED, object, TraceContexts.read(object));
					map(object).forEach((request) -> sink.add(request, priority, trigger));
				}
			}

			@Override
			public void onUpdate(T oldObject, T newObject) {
				// the gate sees it, as every event; the filter never passes it
				if (EventSource.this.gate.passes(new ObjectEvent(Type.UPDATE, oldObject, newObject, false),
						() -> !TraceContexts.isOnlyChange(oldObject, newObject) && passes("update", newObject,
								() -> EventSource.this.predicate.update(oldObject, newObject)))) {
					// both: an owner reference or a mapped field may have moved from one
					// request to another. Each request once: a worker that took the first
					// add before the second would see the key dirty and reconcile it
					// twice.
					Set<Request> requests = new LinkedHashSet<>(map(oldObject));
					requests.addAll(map(newObject));
					int priority = unchanged(oldObject, newObject) ? WorkQueue.LOW_PRIORITY
							: WorkQueue.DEFAULT_PRIORITY;
					// what changed matters for the reconciled object only: the others
					// are named, or a resync
					ReconcileTrigger.Kind kind;
					if (EventSource.this.relation == Relation.RECONCILED) {
						kind = updateKind(oldObject, newObject);
					}
					else {
						kind = unchanged(oldObject, newObject) ? ReconcileTrigger.Kind.RESYNC
								: ReconcileTrigger.Kind.SPEC_CHANGED;
					}
					ReconcileTrigger trigger = trigger(kind, newObject, null);
					requests.forEach((request) -> sink.add(request, priority, trigger));
				}
			}

			@Override
			public void onDelete(T object, boolean deletedFinalStateUnknown) {
				if (EventSource.this.gate.passes(new ObjectEvent(Type.DELETE, null, object, deletedFinalStateUnknown),
						() -> passes("delete", object, () -> EventSource.this.predicate.delete(object)))) {
					ReconcileTrigger trigger = trigger(ReconcileTrigger.Kind.DELETED, object, null);
					map(object).forEach((request) -> sink.add(request, WorkQueue.DEFAULT_PRIORITY, trigger));
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
				ReconcileTrigger trigger = trigger(ReconcileTrigger.Kind.RESYNC, object, null);
				map(object).forEach((request) -> sink.add(request, WorkQueue.LOW_PRIORITY, trigger));
			}
		}
	}

	/**
	 * Returns the trigger of an event: what happened to the reconciled object, which
	 * owned or watched object changed, or a resync.
	 */
	private ReconcileTrigger trigger(ReconcileTrigger.Kind kind, T object, @Nullable String traceParent) {
		if (this.relation == Relation.RECONCILED || kind == ReconcileTrigger.Kind.RESYNC) {
			return ReconcileTrigger.of(kind, null, null, traceParent);
		}
		ReconcileTrigger.Kind related = (this.relation == Relation.OWNED) ? ReconcileTrigger.Kind.OWNED_OBJECT
				: ReconcileTrigger.Kind.WATCHED_OBJECT;
		V1ObjectMeta metadata = object.getMetadata();
		Request named = null;
		if (metadata != null && metadata.getName() != null) {
			try {
				named = Request.of(metadata.getNamespace(), metadata.getName());
			}
			catch (IllegalArgumentException ex) {
				// a name no Request can hold: the trigger names no object
			}
		}
		return ReconcileTrigger.of(related, this.kindName.get(), named, traceParent);
	}

	/**
	 * Returns what an update of the reconciled kind changed: a deletion that began, the
	 * generation (the spec), the metadata, or neither (the status); for a kind without a
	 * generation, a change of anything but the metadata counts as a spec change, whether
	 * the metadata changed too or not.
	 */
	static ReconcileTrigger.Kind updateKind(KubernetesObject oldObject, KubernetesObject newObject) {
		if (unchanged(oldObject, newObject)) {
			return ReconcileTrigger.Kind.RESYNC;
		}
		V1ObjectMeta before = oldObject.getMetadata();
		V1ObjectMeta after = newObject.getMetadata();
		if (before == null || after == null) {
			return ReconcileTrigger.Kind.SPEC_CHANGED;
		}
		if (after.getDeletionTimestamp() != null && before.getDeletionTimestamp() == null) {
			return ReconcileTrigger.Kind.DELETED;
		}
		if (before.getGeneration() != null && !before.getGeneration().equals(after.getGeneration())) {
			return ReconcileTrigger.Kind.SPEC_CHANGED;
		}
		if (before.getGeneration() == null) {
			// no generation to tell a spec change: compare what is not metadata, only
			// when the metadata changed (otherwise something else did)
			return (!metadataChanged(before, after) || contentChanged(oldObject, newObject))
					? ReconcileTrigger.Kind.SPEC_CHANGED : ReconcileTrigger.Kind.METADATA_CHANGED;
		}
		return metadataChanged(before, after) ? ReconcileTrigger.Kind.METADATA_CHANGED
				: ReconcileTrigger.Kind.STATUS_CHANGED;
	}

	/** Whether anything but the metadata differs between two versions of an object. */
	private static boolean contentChanged(KubernetesObject oldObject, KubernetesObject newObject) {
		JsonObject before = gson.toJsonTree(oldObject).getAsJsonObject();
		JsonObject after = gson.toJsonTree(newObject).getAsJsonObject();
		before.remove("metadata");
		after.remove("metadata");
		return !before.equals(after);
	}

	private static boolean metadataChanged(V1ObjectMeta before, V1ObjectMeta after) {
		return !Objects.equals(orEmpty(before.getLabels()), orEmpty(after.getLabels()))
				|| !Objects.equals(withoutTraceContext(before.getAnnotations()),
						withoutTraceContext(after.getAnnotations()))
				|| !Objects.equals(orEmpty(before.getFinalizers()), orEmpty(after.getFinalizers()))
				|| !Objects.equals(orEmpty(before.getOwnerReferences()), orEmpty(after.getOwnerReferences()));
	}

	private static Map<String, String> orEmpty(@Nullable Map<String, String> map) {
		return (map != null) ? map : Map.of();
	}

	private static <E> List<E> orEmpty(@Nullable List<E> list) {
		return (list != null) ? list : List.of();
	}

	private static Map<String, String> withoutTraceContext(@Nullable Map<String, String> annotations) {
		if (annotations == null || !annotations.containsKey(TraceContextAnnotation.NAME)) {
			return orEmpty(annotations);
		}
		Map<String, String> others = new HashMap<>(annotations);
		others.remove(TraceContextAnnotation.NAME);
		return others;
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
		 * @param trigger why it is queued
		 */
		void add(Request request, int priority, ReconcileTrigger trigger);

	}

	/**
	 * How a kind relates to the one a controller reconciles.
	 */
	enum Relation {

		/** The reconciled kind itself. */
		RECONCILED,

		/** A kind whose objects the reconciled objects own. */
		OWNED,

		/** A kind whose objects map to requests through a function. */
		WATCHED

	}

	private static String describe(KubernetesObject object) {
		return (object.getMetadata() != null)
				? object.getMetadata().getNamespace() + "/" + object.getMetadata().getName() : "?";
	}

}
