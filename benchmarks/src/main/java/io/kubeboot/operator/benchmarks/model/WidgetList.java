package io.kubeboot.operator.benchmarks.model;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;

/**
 * A list of {@link Widget widgets}, as the API server returns it.
 */
public class WidgetList implements KubernetesListObject {

	private String apiVersion = Widget.GROUP + "/" + Widget.VERSION;

	private String kind = Widget.KIND + "List";

	private V1ListMeta metadata;

	private List<Widget> items = new ArrayList<>();

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	@Override
	public V1ListMeta getMetadata() {
		return this.metadata;
	}

	@Override
	public List<Widget> getItems() {
		return this.items;
	}

}
