package io.kubeboot.operator.benchmarks.child;

import java.util.Objects;

import io.kubeboot.operator.benchmarks.model.Widget;

/**
 * The reconcile every implementation runs: given the widget read from its cache, write
 * {@code status.observedGeneration} with a merge patch of the status subresource when it
 * differs from {@code metadata.generation}. Only the write differs between the
 * implementations ({@link StatusPatch}); what is reported to the harness is the same.
 */
public final class WidgetWorkload {

	/**
	 * Reconciles in parallel per operator.
	 */
	public static final int WORKERS = 4;

	private final Probe probe;

	private final StatusPatch statusPatch;

	/**
	 * Creates the workload.
	 * @param probe where to report
	 * @param statusPatch how the implementation writes the status
	 */
	public WidgetWorkload(Probe probe, StatusPatch statusPatch) {
		this.probe = probe;
		this.statusPatch = statusPatch;
	}

	/**
	 * Marks the start of a reconcile; call it first thing.
	 * @return the start time in epoch milliseconds, for {@link #reconcile}
	 */
	public long started() {
		long now = System.currentTimeMillis();
		this.probe.reconcileStarted(now);
		return now;
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
		String namespace = widget.getMetadata().getNamespace();
		String name = widget.getMetadata().getName();
		Long generation = widget.getMetadata().getGeneration();
		Widget.Status status = widget.getStatus();
		if (status != null && Objects.equals(status.getObservedGeneration(), generation)) {
			return false;
		}
		this.statusPatch.patch(widget, generation);
		this.probe.statusWritten(namespace + "/" + name,
				(widget.getSpec() != null) ? widget.getSpec().getCreatedAt() : null, startedAt);
		return true;
	}

}
