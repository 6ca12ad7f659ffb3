package io.kubeboot.operator.tracing;

/**
 * The annotation that carries a trace from the operator that writes an object to the one
 * that reconciles it: {@value #NAME}, a W3C {@code traceparent}
 * ({@code 00-<trace id>-<span id>-<flags>}). With
 * {@code operator.tracing.annotate-objects} (off by default) the manager's client writes
 * the trace context of each create into it, in the same write; the reconcile of the
 * created object continues that trace. Updates, patches and applies never carry it:
 * whether they change anything only the API server knows, and a fresh value would turn a
 * no-op into a write, or conflict with another field manager under server-side apply.
 * <p>
 * A change of the annotation alone never triggers a reconcile: a controller drops an
 * update whose only difference is this annotation (and the resourceVersion and managed
 * fields that come with any write), whatever its event filters, and
 * {@code AnnotationsChangedPredicate} does not count it.
 */
public final class TraceContextAnnotation {

	/** The annotation's name. */
	public static final String NAME = "tracing.kubeboot.io/traceparent";

	/** Whether the client writes the annotation unless configured: no. */
	public static final boolean DEFAULT_WRITTEN = false;

	private TraceContextAnnotation() {
	}

	/**
	 * Which writes of a client carry the annotation.
	 */
	public enum Written {

		/** None. */
		NEVER,

		/**
		 * Creates, in the body they send; updates, patches, applies, status writes and
		 * deletes never do.
		 */
		ON_CREATE

	}

}
