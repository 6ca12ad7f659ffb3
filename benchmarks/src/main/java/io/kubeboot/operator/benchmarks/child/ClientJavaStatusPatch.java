package io.kubeboot.operator.benchmarks.child;

import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;

/**
 * Writes the status with client-java's {@link CustomObjectsApi} and {@link PatchUtils},
 * as a program on client-java alone would.
 */
public final class ClientJavaStatusPatch implements StatusPatch {

	private final ApiClient client;

	private final CustomObjectsApi api;

	/**
	 * Creates the writer.
	 * @param client the client to patch with
	 */
	public ClientJavaStatusPatch(ApiClient client) {
		this.client = client;
		this.api = new CustomObjectsApi(client);
	}

	@Override
	public void patch(Widget widget, long observedGeneration) throws ApiException {
		String namespace = widget.getMetadata().getNamespace();
		String name = widget.getMetadata().getName();
		V1Patch patch = new V1Patch("{\"status\":{\"observedGeneration\":" + observedGeneration + "}}");
		PatchUtils.patch(Widget.class,
				() -> this.api
					.patchNamespacedCustomObjectStatus(Widget.GROUP, Widget.VERSION, namespace, Widget.PLURAL, name,
							patch)
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
	}

}
