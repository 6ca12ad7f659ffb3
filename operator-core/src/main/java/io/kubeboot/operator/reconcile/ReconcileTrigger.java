package io.kubeboot.operator.reconcile;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One reason a request was queued: an event of the reconciled kind, of an owned or
 * watched object, a resync, a periodic trigger, a request from outside the cluster, or a
 * requeue asked for by the previous reconcile. Every reconcile receives the triggers
 * queued since its key was last handed to a worker, oldest first, in its
 * {@link ReconcileContext}. Immutable.
 */
public final class ReconcileTrigger {

	private final Kind kind;

	private final @Nullable String objectKind;

	private final @Nullable Request object;

	private final Instant time;

	private final @Nullable String traceParent;

	private ReconcileTrigger(Kind kind, @Nullable String objectKind, @Nullable Request object,
			@Nullable String traceParent) {
		this.kind = Objects.requireNonNull(kind, "kind must not be null");
		this.objectKind = objectKind;
		this.object = object;
		this.time = Instant.now();
		this.traceParent = traceParent;
	}

	/**
	 * Returns a trigger of a kind that names no other object, queued now.
	 * @param kind what happened
	 * @return the trigger
	 */
	public static ReconcileTrigger of(Kind kind) {
		return new ReconcileTrigger(kind, null, null, null);
	}

	/**
	 * Returns a trigger queued now.
	 * @param kind what happened
	 * @param objectKind the kind of the owned or watched object that changed, with its
	 * API group ({@code Deployment.apps}; {@code ConfigMap} for the core group), or
	 * {@code null} if the trigger names no other object
	 * @param object the namespace and name of that object, or {@code null}
	 * @param traceParent for a creation, the trace context the create left on the object
	 * @return the trigger
	 */
	public static ReconcileTrigger of(Kind kind, @Nullable String objectKind, @Nullable Request object,
			@Nullable String traceParent) {
		return new ReconcileTrigger(kind, objectKind, object, traceParent);
	}

	/**
	 * Returns what happened.
	 * @return the kind of trigger
	 */
	public Kind kind() {
		return this.kind;
	}

	/**
	 * Returns the kind of the owned or watched object that changed, with its API group,
	 * as kubectl writes a kind of a group: {@code Deployment.apps}, {@code ConfigMap} for
	 * the core group.
	 * @return the kind, {@code null} for a trigger that names no other object
	 */
	public @Nullable String objectKind() {
		return this.objectKind;
	}

	/**
	 * Returns the namespace and name of the owned or watched object that changed.
	 * @return the object, {@code null} for a trigger that names no other object
	 */
	public @Nullable Request object() {
		return this.object;
	}

	/**
	 * Returns when the trigger was queued; for a requeue, when it was asked for.
	 * @return the time
	 */
	public Instant time() {
		return this.time;
	}

	/**
	 * Returns, for a creation, the W3C {@code traceparent} that the create left on the
	 * object, if its writer recorded one (see
	 * {@code io.kubeboot.operator.tracing.TraceContextAnnotation}).
	 * @return the trace context, {@code null} for every other trigger
	 */
	public @Nullable String traceParent() {
		return this.traceParent;
	}

	/**
	 * Returns {@code kind}, or {@code kind:ObjectKind/namespace/name} for an owned or
	 * watched object, the form logs and trace keys show.
	 */
	@Override
	public String toString() {
		if (this.object == null) {
			return this.kind.label();
		}
		return this.kind.label() + ":" + this.objectKind + "/" + this.object;
	}

	/**
	 * What queued a request.
	 */
	public enum Kind {

		/**
		 * The reconciled object was created (seen on the watch after the cache synced).
		 */
		CREATED("created"),

		/**
		 * The reconciled object's spec changed: its {@code metadata.generation} moved,
		 * or, for a kind without a generation (such as a ConfigMap), its content changed.
		 */
		SPEC_CHANGED("spec_changed"),

		/**
		 * The reconciled object's labels, annotations, finalizers or owner references
		 * changed, not its generation.
		 */
		METADATA_CHANGED("metadata_changed"),

		/**
		 * The reconciled object changed in neither its generation nor its metadata: its
		 * status. Passes only an event filter that lets such updates through (the
		 * default, generation-changed, drops them).
		 */
		STATUS_CHANGED("status_changed"),

		/**
		 * The reconciled object was deleted, or its deletion began (a deletion timestamp
		 * appeared).
		 */
		DELETED("deleted"),

		/**
		 * An object owned by the reconciled one changed; {@link #objectKind} and
		 * {@link #object} name it.
		 */
		OWNED_OBJECT("owned_object"),

		/**
		 * A watched object mapped to this request changed; {@link #objectKind} and
		 * {@link #object} name it.
		 */
		WATCHED_OBJECT("watched_object"),

		/**
		 * The object, or an object it owns or watches, was seen unchanged: the informer's
		 * periodic resync, a relist that found it as it was, an informer's initial list,
		 * or the controller's start. Names no object.
		 */
		RESYNC("resync"),

		/**
		 * A periodic trigger ({@code IntervalTrigger}, {@code @PeriodicTrigger}) fired.
		 */
		PERIODIC("periodic"),

		/**
		 * A request from outside the watches: {@code Controller.enqueue}, the
		 * {@code Enqueuer}, a {@code Channel} or another {@code Source}.
		 */
		ENQUEUED("enqueued"),

		/**
		 * The previous reconcile returned {@code Result.requeue()} or
		 * {@code Result.requeueAfter(...)}.
		 */
		REQUEUE("requeue"),

		/**
		 * The previous reconcile failed (threw, or its write conflicted or was throttled)
		 * and is retried.
		 */
		RETRY_AFTER_ERROR("retry_after_error");

		private final String label;

		Kind(String label) {
			this.label = label;
		}

		/**
		 * Returns the kind as logs, trace keys and the {@code trigger} label of
		 * {@code operator_reconcile_triggers_total} show it.
		 * @return the label, such as {@code spec_changed}
		 */
		public String label() {
			return this.label;
		}

	}

}
