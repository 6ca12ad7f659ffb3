package io.kubeboot.operator.cache.internal;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.cache.CacheTransform;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.TransformFunc;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an informer does to each object before storing it: names the kind of an object
 * read as metadata only (the API server sends them as {@code PartialObjectMetadata}),
 * drops {@code metadata.managedFields} if asked to, applies the user's
 * {@link CacheTransform}, shares repeated strings ({@link MetadataDeduplicator}) and, for
 * an object cached as metadata only, makes its maps and lists compact immutable copies.
 * <p>
 * The user's transform may fail or misbehave; the informer must not. An exception,
 * {@code null} or an object of another class leaves the object as the transform left it
 * and is logged at most once a minute per informer; a changed namespace, name, uid or
 * resourceVersion, which the store, the reflector and the read-your-writes check rely on,
 * is put back and logged once.
 *
 * @param <T> the model type stored
 */
final class StoreTransform<T extends KubernetesObject> implements TransformFunc {

	private static final Logger logger = LoggerFactory.getLogger(StoreTransform.class);

	private static final long FAILURE_LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

	private final InformerKey key;

	private final Class<T> type;

	private final @Nullable String apiVersion;

	private final @Nullable String kind;

	private final boolean stripManagedFields;

	private final @Nullable CacheTransform<T> transform;

	private final MetadataDeduplicator deduplicator;

	private final AtomicBoolean identityReported = new AtomicBoolean();

	private final AtomicLong failureLoggedAt = new AtomicLong();

	private final AtomicLong unreportedFailures = new AtomicLong();

	/**
	 * Creates the transform of one informer.
	 * @param key the informer, for the log
	 * @param type the class objects are stored as
	 * @param apiVersion the apiVersion to give objects read as metadata only, or
	 * {@code null} to leave it
	 * @param kind the kind to give objects read as metadata only, or {@code null} to
	 * leave it
	 * @param stripManagedFields whether to drop {@code metadata.managedFields}
	 * @param transform the user's transform, or {@code null} for none
	 * @param deduplicator shares repeated strings
	 */
	StoreTransform(InformerKey key, Class<T> type, @Nullable String apiVersion, @Nullable String kind,
			boolean stripManagedFields, @Nullable CacheTransform<T> transform, MetadataDeduplicator deduplicator) {
		this.key = key;
		this.type = type;
		this.apiVersion = deduplicator.shared(apiVersion);
		this.kind = deduplicator.shared(kind);
		this.stripManagedFields = stripManagedFields;
		this.transform = transform;
		this.deduplicator = deduplicator;
	}

	@Override
	public KubernetesObject transform(KubernetesObject object) {
		if (object instanceof PartialObjectMetadata partial && this.kind != null) {
			partial.typeMeta(this.apiVersion, this.kind);
		}
		if (this.stripManagedFields && object.getMetadata() != null) {
			object.getMetadata().setManagedFields(null);
		}
		// not of the type: a tombstone of a relist, wrapping an object transformed when
		// it was stored
		KubernetesObject transformed = (this.transform != null && this.type.isInstance(object))
				? applyTransform(this.type.cast(object)) : object;
		KubernetesObject stored = this.deduplicator.deduplicate(transformed);
		if (stored instanceof PartialObjectMetadata partial && partial.getMetadata() != null) {
			this.deduplicator.compact(partial.getMetadata());
		}
		return stored;
	}

	private T applyTransform(T object) {
		CacheTransform<T> user = Objects.requireNonNull(this.transform);
		Identity before = Identity.of(object.getMetadata());
		T result;
		try {
			result = user.transform(object);
		}
		catch (RuntimeException ex) {
			failed(object, before, "it threw " + ex, ex);
			return object;
		}
		if (!this.type.isInstance(result)) {
			failed(object, before, "it returned " + ((result != null) ? "a " + result.getClass().getName() : "null")
					+ " instead of a " + this.type.getName(), null);
			return object;
		}
		V1ObjectMeta after = result.getMetadata();
		if (after == null) {
			failed(object, before, "it returned an object without metadata", null);
			return object;
		}
		if (before != null && !before.equals(Identity.of(after))) {
			before.restore(after);
			if (this.identityReported.compareAndSet(false, true)) {
				logger.warn("Cache transform changed an object's namespace, name, uid or resourceVersion, restored: "
						+ "informer={} object={}", this.key, before.describe());
			}
		}
		return result;
	}

	private void failed(T object, @Nullable Identity identity, String problem, @Nullable Throwable error) {
		long now = System.nanoTime();
		long last = this.failureLoggedAt.get();
		if (last != 0 && now - last < FAILURE_LOG_INTERVAL_NANOS || !this.failureLoggedAt.compareAndSet(last, now)) {
			this.unreportedFailures.incrementAndGet();
			return;
		}
		long unreported = this.unreportedFailures.getAndSet(0);
		String described = (identity != null) ? identity.describe() : String.valueOf(object.getMetadata());
		if (error != null) {
			logger.error("Cache transform failed, object cached as the transform left it: informer={} object={} "
					+ "unreportedFailures={} error=\"{}\"", this.key, described, unreported, problem, error);
		}
		else {
			logger.error("Cache transform failed, object cached as the transform left it: informer={} object={} "
					+ "unreportedFailures={} error=\"{}\"", this.key, described, unreported, problem);
		}
	}

	/**
	 * What a transform must not change.
	 */
	private record Identity(@Nullable String namespace, @Nullable String name, @Nullable String uid,
			@Nullable String resourceVersion) {

		static @Nullable Identity of(@Nullable V1ObjectMeta metadata) {
			return (metadata != null) ? new Identity(metadata.getNamespace(), metadata.getName(), metadata.getUid(),
					metadata.getResourceVersion()) : null;
		}

		void restore(V1ObjectMeta metadata) {
			metadata.setNamespace(this.namespace);
			metadata.setName(this.name);
			metadata.setUid(this.uid);
			metadata.setResourceVersion(this.resourceVersion);
		}

		String describe() {
			return ((this.namespace != null) ? this.namespace + "/" : "") + this.name;
		}

	}

}
