package io.kubeboot.operator.model;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * The base of a custom resource's model class: metadata, a typed spec and a typed status,
 * with {@code apiVersion} and {@code kind} taken from the subclass's
 * {@link KubernetesKind}. A custom resource is then its spec and status classes plus one
 * annotated class, and needs no list class (the framework reads lists as
 * {@link CustomResourceList}):
 *
 * <pre class="code">
 * &#64;KubernetesKind(group = "storage.example.com", version = "v1alpha1", kind = "StorageBucket")
 * public class StorageBucket extends CustomResource&lt;StorageBucketSpec, StorageBucketStatus&gt; {
 * }
 *
 * StorageBucket bucket = new StorageBucket().metadata(new V1ObjectMeta().name("photos"))
 * 	.spec(new StorageBucketSpec().endpoint("https://photos.example.com/health"));
 * </pre>
 *
 * The spec and status classes are plain classes that client-java's Gson reads and writes
 * field by field, as its own model classes are.
 *
 * @param <S> the spec's type
 * @param <T> the status's type
 */
public abstract class CustomResource<S, T> implements KubernetesObject {

	private static final ClassValue<String[]> DECLARED = new ClassValue<>() {

		@Override
		protected String[] computeValue(Class<?> type) {
			KubernetesKind kind = type.getAnnotation(KubernetesKind.class);
			if (kind == null) {
				return new String[] { null, null };
			}
			String apiVersion = kind.group().isEmpty() ? kind.version() : kind.group() + "/" + kind.version();
			return new String[] { apiVersion, kind.kind() };
		}

	};

	private @Nullable String apiVersion;

	private @Nullable String kind;

	private V1ObjectMeta metadata = new V1ObjectMeta();

	private @Nullable S spec;

	private @Nullable T status;

	/**
	 * Creates a custom resource with empty metadata and the {@code apiVersion} and
	 * {@code kind} of the subclass's {@link KubernetesKind}.
	 */
	protected CustomResource() {
		String[] declared = DECLARED.get(getClass());
		this.apiVersion = declared[0];
		this.kind = declared[1];
	}

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

	public @Nullable S getSpec() {
		return this.spec;
	}

	public void setSpec(@Nullable S spec) {
		this.spec = spec;
	}

	public @Nullable T getStatus() {
		return this.status;
	}

	public void setStatus(@Nullable T status) {
		this.status = status;
	}

	/**
	 * Sets the metadata, for chained calls.
	 * @param <R> the custom resource's class, inferred from where the result goes
	 * @param metadata the metadata
	 * @return this object
	 */
	public <R extends CustomResource<S, T>> R metadata(V1ObjectMeta metadata) {
		setMetadata(metadata);
		return self();
	}

	/**
	 * Sets the spec, for chained calls.
	 * @param <R> the custom resource's class, inferred from where the result goes
	 * @param spec the spec
	 * @return this object
	 */
	public <R extends CustomResource<S, T>> R spec(@Nullable S spec) {
		setSpec(spec);
		return self();
	}

	/**
	 * Sets the status, for chained calls.
	 * @param <R> the custom resource's class, inferred from where the result goes
	 * @param status the status
	 * @return this object
	 */
	public <R extends CustomResource<S, T>> R status(@Nullable T status) {
		setStatus(status);
		return self();
	}

	@SuppressWarnings("unchecked")
	private <R extends CustomResource<S, T>> R self() {
		return (R) this;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		if (other == null || getClass() != other.getClass()) {
			return false;
		}
		CustomResource<?, ?> that = (CustomResource<?, ?>) other;
		return Objects.equals(this.apiVersion, that.apiVersion) && Objects.equals(this.kind, that.kind)
				&& Objects.equals(this.metadata, that.metadata) && Objects.equals(this.spec, that.spec)
				&& Objects.equals(this.status, that.status);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.apiVersion, this.kind, this.metadata, this.spec, this.status);
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + "{apiVersion=" + this.apiVersion + ", kind=" + this.kind + ", metadata="
				+ this.metadata + ", spec=" + this.spec + ", status=" + this.status + "}";
	}

}
