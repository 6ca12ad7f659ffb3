package io.kubeboot.operator.model;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
import org.jspecify.annotations.Nullable;

/**
 * A list of custom resources as the API server answers a list request. The framework
 * reads the lists of every {@link CustomResource} subclass as this class, typed by the
 * item class, so a custom resource needs no list class of its own. Code that needs a
 * {@code Class} for the list, such as client-java's {@code GenericKubernetesApi}, can
 * declare one in a line: {@code class StorageBucketList extends
 * CustomResourceList<StorageBucket> {}}.
 *
 * @param <R> the custom resource's type
 */
public class CustomResourceList<R extends CustomResource<?, ?>> implements KubernetesListObject {

	private @Nullable String apiVersion;

	private @Nullable String kind;

	private V1ListMeta metadata = new V1ListMeta();

	private List<R> items = new ArrayList<>();

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
	public List<R> getItems() {
		return this.items;
	}

	public void setItems(List<R> items) {
		this.items = items;
	}

}
