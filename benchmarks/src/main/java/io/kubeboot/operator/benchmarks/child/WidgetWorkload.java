package io.kubeboot.operator.benchmarks.child;

import io.kubeboot.operator.benchmarks.model.Widget;

/**
 * The reconcile every implementation runs ({@link Workload}) on the client-java model of
 * the widget: given the widget read from its cache, write
 * {@code status.observedGeneration} with a merge patch of the status subresource when it
 * differs from {@code metadata.generation}. Only the write differs between the
 * implementations ({@link StatusPatch}); what is reported to the harness is the same.
 */
public final class WidgetWorkload {

	/**
	 * Reconciles in parallel per operator.
	 */
	public static final int WORKERS = Workload.WORKERS;

	private final Workload workload;

	private final StatusPatch statusPatch;

	/**
	 * Creates the workload.
	 * @param probe where to report
	 * @param statusPatch how the implementation writes the status
	 */
	public WidgetWorkload(Probe probe, StatusPatch statusPatch) {
		this.workload = new Workload(probe);
		this.statusPatch = statusPatch;
	}

	/**
	 * Marks the start of a reconcile; call it first thing.
	 * @return the start time in epoch milliseconds, for {@link #reconcile}
	 */
	public long started() {
		return this.workload.started();
	}

	/**
	 * Brings the widget's status up to date.
	 * @param widget the widget from the cache, or {@code null} if it is gone
	 * @param startedAt what {@link #started()} returned
	 * @return whether the status was written
	 * @throws Exception if the patch failed
	 */
	public boolean reconcile(Widget widget, long startedAt) throws Exception {
		if (widget == null) {
			return false;
		}
		Widget.Status status = widget.getStatus();
		Widget.Spec spec = widget.getSpec();
		return this.workload.reconcile(widget.getMetadata().getNamespace(), widget.getMetadata().getName(),
				widget.getMetadata().getGeneration(), (status != null) ? status.getObservedGeneration() : null,
				(spec != null) ? spec.getCreatedAt() : null, startedAt,
				(generation) -> this.statusPatch.patch(widget, generation));
	}

}
