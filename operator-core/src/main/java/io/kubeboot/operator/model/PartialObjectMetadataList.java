package io.kubeboot.operator.model;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
import org.jspecify.annotations.Nullable;

/**
 * A list of objects with their metadata only, Kubernetes' {@code meta.k8s.io/v1}
 * {@code PartialObjectMetadataList}: what the API server answers a list request with the
 * {@code Accept} header
 * {@code application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1}.
 */
public class PartialObjectMetadataList implements KubernetesListObject {

	private @Nullable String apiVersion;

	private @Nullable String kind;

	private V1ListMeta metadata = new V1ListMeta();

	private List<PartialObjectMetadata> items = new ArrayList<>();

	@Override
	public @Nullable String getApiVersion() {
		return this.apiVersion;
	}

	public void setApiVersion(@Nullable String apiVersion) {
		this.apiVersion = apiVersion;
	}

	@Override
	public @Nullable String getKind() {
		return this.kind;
	}

	public void setKind(@Nullable String kind) {
		this.kind = kind;
	}

	@Override
	public V1ListMeta getMetadata() {
		return this.metadata;
	}

	public void setMetadata(V1ListMeta metadata) {
		this.metadata = metadata;
	}

	@Override
	public List<PartialObjectMetadata> getItems() {
		return this.items;
	}

	public void setItems(List<PartialObjectMetadata> items) {
		this.items = items;
	}

}
