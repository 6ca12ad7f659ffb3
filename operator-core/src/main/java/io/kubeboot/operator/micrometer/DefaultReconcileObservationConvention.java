package io.kubeboot.operator.micrometer;

import io.kubeboot.operator.reconcile.ReconcileContext;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names a reconcile's observation {@code operator.reconcile}, its span
 * {@code reconcile <controller>}, with the low-cardinality keys {@code controller} and
 * {@code result} (also the tags of the timer a meter handler makes of it) and the
 * high-cardinality keys {@code namespace}, {@code name}, {@code reconcile.id},
 * {@code reconcile.triggers} (such as
 * {@code spec_changed,owned_object:ConfigMap/default/settings}),
 * {@code reconcile.triggers.dropped} and {@code reconcile.queued} (seconds between the
 * first trigger and the start, the time in the queue kept apart from the span's own).
 * Replace it with a {@code GlobalObservationConvention} of
 * {@link ReconcileObservationContext}.
 */
public class DefaultReconcileObservationConvention implements ObservationConvention<ReconcileObservationContext> {

	/** The instance {@link ObservationTracing} uses. */
	public static final DefaultReconcileObservationConvention INSTANCE = new DefaultReconcileObservationConvention();

	@Override
	public String getName() {
		return "operator.reconcile";
	}

	@Override
	public String getContextualName(ReconcileObservationContext context) {
		return "reconcile " + context.getReconcile().controller();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ReconcileObservationContext context) {
		String result = context.getResult();
		return KeyValues.of("controller", context.getReconcile().controller(), "result",
				(result != null) ? result : "unknown");
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ReconcileObservationContext context) {
		ReconcileContext reconcile = context.getReconcile();
		String namespace = reconcile.request().namespace();
		return KeyValues.of("namespace", (namespace != null) ? namespace : "", "name", reconcile.request().name(),
				"reconcile.id", reconcile.reconcileId(), "reconcile.triggers", context.triggersValue(),
				"reconcile.triggers.dropped", Integer.toString(reconcile.droppedTriggers()), "reconcile.queued",
				context.queuedValue());
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof ReconcileObservationContext;
	}

}
