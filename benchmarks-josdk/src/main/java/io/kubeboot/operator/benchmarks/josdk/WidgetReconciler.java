package io.kubeboot.operator.benchmarks.josdk;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kubeboot.operator.benchmarks.child.Workload;

/**
 * The benchmark's reconcile on JOSDK: the widget JOSDK hands over comes from its informer
 * cache; when its status is out of date it is written with the same merge patch of the
 * status subresource the other implementations send, through the fabric8 client of the
 * context. {@code UpdateControl.patchStatus} is not used: without server-side apply it
 * sends a JSON Patch computed from the whole object rather than a merge patch of one
 * field.
 */
final class WidgetReconciler implements Reconciler<Widget> {

	private static final PatchContext MERGE_PATCH = PatchContext.of(PatchType.JSON_MERGE);

	private final Workload workload;

	WidgetReconciler(Workload workload) {
		this.workload = workload;
	}

	@Override
	public UpdateControl<Widget> reconcile(Widget widget, Context<Widget> context) throws Exception {
		long started = this.workload.started();
		ObjectMeta metadata = widget.getMetadata();
		Widget.Status status = widget.getStatus();
		Widget.Spec spec = widget.getSpec();
		this.workload.reconcile(metadata.getNamespace(), metadata.getName(), metadata.getGeneration(),
				(status != null) ? status.getObservedGeneration() : null, (spec != null) ? spec.getCreatedAt() : null,
				started,
				(generation) -> context.getClient()
					.resources(Widget.class)
					.inNamespace(metadata.getNamespace())
					.withName(metadata.getName())
					.subresource("status")
					.patch(MERGE_PATCH, "{\"status\":{\"observedGeneration\":" + generation + "}}"));
		return UpdateControl.noUpdate();
	}

}
