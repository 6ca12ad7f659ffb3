package io.kubeboot.operator.benchmarks.child;

import java.util.Objects;

import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;

/**
 * The reconcile every implementation runs: given the widget read from its cache, write
 * {@code status.observedGeneration} with a merge patch of the status subresource when it
 * differs from {@code metadata.generation}.
 */
public final class WidgetWorkload {

	/**
	 * Reconciles in parallel per operator.
	 */
	public static final int WORKERS = 4;

	private final Probe probe;

	private final ApiClient client;

	private final CustomObjectsApi api;

	/**
	 * Creates the workload.
	 * @param probe where to report
	 * @param client the client to patch with
	 */
	public WidgetWorkload(Probe probe, ApiClient client) {
		this.probe = probe;
		this.client = client;
		this.api = new CustomObjectsApi(client);
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
	 * @throws ApiException if the patch failed
	 */
	public boolean reconcile(Widget widget, long startedAt) throws ApiException {
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
		V1Patch patch = new V1Patch("{\"status\":{\"observedGeneration\":" + generation + "}}");
		PatchUtils.patch(Widget.class,
				() -> this.api
					.patchNamespacedCustomObjectStatus(Widget.GROUP, Widget.VERSION, namespace, Widget.PLURAL, name,
							patch)
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
		this.probe.statusWritten(namespace + "/" + name,
				(widget.getSpec() != null) ? widget.getSpec().getCreatedAt() : null, startedAt);
		return true;
	}

}
