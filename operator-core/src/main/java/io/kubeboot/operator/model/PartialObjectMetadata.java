package io.kubeboot.operator.model;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * An object of any kind with its metadata only, Kubernetes' {@code meta.k8s.io/v1}
 * {@code PartialObjectMetadata}, which client-java has no model for. The API server sends
 * objects in this form when asked to (the {@code Accept} header
 * {@code application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1}), leaving out the
 * spec, the status, a Secret's or ConfigMap's data, everything but the metadata.
 * <p>
 * A metadata-only cache holds its objects as this class, the counterpart of
 * controller-runtime's metadata-only watches: a controller that only needs to know that
 * its Secrets exist, who owns them and what they are labelled caches a few hundred bytes
 * per Secret instead of its data. {@code apiVersion} and {@code kind} name the object's
 * own kind (for example {@code v1} and {@code Secret}), not
 * {@code PartialObjectMetadata}, as controller-runtime sets them. The class names no kind
 * itself: ask for the metadata of a kind by its model class, such as
 * {@code cache.getMetadata(V1Secret.class, request)}. The cache's instances are shared
 * and read-only, like every cached object; to keep them small, their labels, annotations,
 * finalizers and owner references are immutable collections.
 */
public class PartialObjectMetadata implements KubernetesObject {

	private @Nullable String apiVersion;

	private @Nullable String kind;

	private V1ObjectMeta metadata = new V1ObjectMeta();

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
	public V1ObjectMeta getMetadata() {
		return this.metadata;
	}

	public void setMetadata(V1ObjectMeta metadata) {
		this.metadata = metadata;
	}

	/**
	 * Sets the apiVersion and kind, for chained calls.
	 * @param apiVersion the apiVersion, such as {@code v1} or {@code apps/v1}
	 * @param kind the kind, such as {@code Secret}
	 * @return this object
	 */
	public PartialObjectMetadata typeMeta(@Nullable String apiVersion, @Nullable String kind) {
		this.apiVersion = apiVersion;
		this.kind = kind;
		return this;
	}

	/**
	 * Sets the metadata, for chained calls.
	 * @param metadata the metadata
	 * @return this object
	 */
	public PartialObjectMetadata metadata(V1ObjectMeta metadata) {
		this.metadata = metadata;
		return this;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		if (other == null || getClass() != other.getClass()) {
			return false;
		}
		PartialObjectMetadata that = (PartialObjectMetadata) other;
		return Objects.equals(this.apiVersion, that.apiVersion) && Objects.equals(this.kind, that.kind)
				&& Objects.equals(this.metadata, that.metadata);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.apiVersion, this.kind, this.metadata);
	}

	@Override
	public String toString() {
		return "PartialObjectMetadata{apiVersion=" + this.apiVersion + ", kind=" + this.kind + ", metadata="
				+ this.metadata + "}";
	}

}
