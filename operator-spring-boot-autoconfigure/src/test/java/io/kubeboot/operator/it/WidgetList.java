package io.kubeboot.operator.it;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;

/**
 * The list type of {@link Widget}.
 */
public class WidgetList implements KubernetesListObject {

	private String apiVersion;

	private String kind;

	private V1ListMeta metadata = new V1ListMeta();

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
