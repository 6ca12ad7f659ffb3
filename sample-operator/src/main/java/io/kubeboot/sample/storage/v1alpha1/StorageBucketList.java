package io.kubeboot.sample.storage.v1alpha1;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;

/**
 * A list of {@link StorageBucket}s, as the API server answers a list request. The starter
 * finds it by its name: the model class's name followed by {@code List}.
 */
public class StorageBucketList implements KubernetesListObject {

	private String apiVersion = StorageBucket.GROUP + "/" + StorageBucket.VERSION;

	private String kind = StorageBucket.KIND + "List";

	private V1ListMeta metadata = new V1ListMeta();

	private List<StorageBucket> items = new ArrayList<>();

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
	public List<StorageBucket> getItems() {
		return this.items;
	}

}
