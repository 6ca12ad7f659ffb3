package io.kubeboot.operator.benchmarks.child;

import java.util.Map;

import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;

/**
 * Writes the status through the starter's own {@link Client}, as a reconciler on the
 * starter would.
 */
public final class ClientStatusPatch implements StatusPatch {

	private final Client client;

	/**
	 * Creates the writer.
	 * @param client the manager's client
	 */
	public ClientStatusPatch(Client client) {
		this.client = client;
	}

	@Override
	public void patch(Widget widget, long observedGeneration) {
		this.client.status()
			.patch(widget, Patch.merge(Map.of("status", Map.of("observedGeneration", observedGeneration))));
	}

}
