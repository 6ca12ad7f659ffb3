package io.kubeboot.operator.cache.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.jspecify.annotations.Nullable;

/**
 * Makes the strings that repeat across cached objects share one instance: apiVersion,
 * kind, namespace, label keys and values, annotation keys, owner references' apiVersion
 * and kind. JSON parsing creates a new string for each, and in a cache of thousands of
 * objects of one kind in a few namespaces with the same labels they add up to a few
 * hundred bytes per object. Names, uids, resource versions, annotation values and spec
 * and status fields are left alone: they rarely repeat.
 * <p>
 * The pool is a fixed table of {@value #SLOTS} slots indexed by hash, so it never grows:
 * a string that repeats stays in its slot, one that does not is soon replaced. Races
 * between threads cost at most a missed deduplication (strings are immutable, so sharing
 * them is always safe). The objects stay equal to what the API server sent.
 */
final class MetadataDeduplicator {

	private static final int SLOTS = 4096;

	/** Longer strings are unlikely to repeat and costly to compare. */
	private static final int MAX_LENGTH = 256;

	private final String[] pool = new String[SLOTS];

	/** Looked up once per model class, without a lock on the informers' hot path. */
	private static final ClassValue<Optional<ApiVersionAndKind>> ACCESSORS = new ClassValue<>() {

		@Override
		protected Optional<ApiVersionAndKind> computeValue(Class<?> type) {
			return Optional.ofNullable(ApiVersionAndKind.find(type));
		}

	};

	/**
	 * Deduplicates the repeating strings of an object in place.
	 * @param object a freshly parsed object, not yet shared with other threads
	 * @param <T> the model type
	 * @return the same object
	 */
	<T extends KubernetesObject> T deduplicate(T object) {
		ACCESSORS.get(object.getClass()).ifPresent((accessor) -> accessor.deduplicate(object, this));
		V1ObjectMeta metadata = object.getMetadata();
		if (metadata != null) {
			if (metadata.getNamespace() != null) {
				metadata.setNamespace(shared(metadata.getNamespace()));
			}
			if (metadata.getLabels() != null) {
				shareEntries(metadata.getLabels(), true);
			}
			if (metadata.getAnnotations() != null) {
				shareEntries(metadata.getAnnotations(), false);
			}
			List<V1OwnerReference> owners = metadata.getOwnerReferences();
			if (owners != null) {
				for (V1OwnerReference owner : owners) {
					owner.setApiVersion(shared(owner.getApiVersion()));
					owner.setKind(shared(owner.getKind()));
				}
			}
		}
		return object;
	}

	/**
	 * Replaces an object's metadata maps and lists with immutable copies, empty ones with
	 * the shared empty instances: a map of two labels as parsed costs some 200 bytes, its
	 * immutable copy some 70, and every object parsed carries empty lists of finalizers
	 * and owner references and an empty map of annotations. For objects cached as
	 * metadata only, whose metadata is all they are; the objects stay equal to what was
	 * parsed.
	 * @param metadata freshly parsed metadata, not yet shared with other threads
	 */
	void compact(V1ObjectMeta metadata) {
		try {
			metadata.setLabels(compact(metadata.getLabels()));
			metadata.setAnnotations(compact(metadata.getAnnotations()));
			metadata.setFinalizers(compact(metadata.getFinalizers()));
			metadata.setOwnerReferences(compact(metadata.getOwnerReferences()));
			metadata.setManagedFields(compact(metadata.getManagedFields()));
		}
		catch (NullPointerException ex) {
			// a null key, value or element, which immutable copies refuse: the rest stays
			// as parsed
		}
	}

	private static <K, V> @Nullable Map<K, V> compact(@Nullable Map<K, V> map) {
		return (map != null) ? Map.copyOf(map) : null;
	}

	private static <E> @Nullable List<E> compact(@Nullable List<E> list) {
		return (list != null) ? List.copyOf(list) : null;
	}

	/**
	 * Returns the pooled instance equal to a string, pooling this one if there is none.
	 * @param value the string
	 * @return an equal string, possibly the same
	 */
	@Nullable String shared(@Nullable String value) {
		if (value == null || value.length() > MAX_LENGTH) {
			return value;
		}
		int hash = value.hashCode();
		int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
		String pooled = this.pool[slot];
		if (value.equals(pooled)) {
			return pooled;
		}
		this.pool[slot] = value;
		return value;
	}

	/**
	 * Pools the keys (and values) of a map in place, keeping its type and order.
	 */
	private void shareEntries(Map<String, String> entries, boolean values) {
		int size = entries.size();
		if (size == 0) {
			return;
		}
		String[] keys = new String[size];
		String[] pairedValues = new String[size];
		int i = 0;
		for (Map.Entry<String, String> entry : entries.entrySet()) {
			keys[i] = shared(entry.getKey());
			pairedValues[i] = values ? shared(entry.getValue()) : entry.getValue();
			i++;
		}
		try {
			entries.clear();
			for (i = 0; i < size; i++) {
				entries.put(keys[i], pairedValues[i]);
			}
		}
		catch (UnsupportedOperationException ex) {
			// an immutable map: not parsed from JSON, left alone
		}
	}

	/**
	 * The apiVersion and kind properties of a model class: client-java's models and
	 * custom ones have them, but {@link KubernetesObject} declares only the getters.
	 */
	private record ApiVersionAndKind(MethodHandle getApiVersion, MethodHandle setApiVersion, MethodHandle getKind,
			MethodHandle setKind) {

		static @Nullable ApiVersionAndKind find(Class<?> type) {
			MethodHandles.Lookup lookup = MethodHandles.publicLookup();
			try {
				return new ApiVersionAndKind(
						lookup.findVirtual(type, "getApiVersion", MethodType.methodType(String.class)),
						lookup.findVirtual(type, "setApiVersion", MethodType.methodType(void.class, String.class)),
						lookup.findVirtual(type, "getKind", MethodType.methodType(String.class)),
						lookup.findVirtual(type, "setKind", MethodType.methodType(void.class, String.class)));
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				return null; // not settable: left alone
			}
		}

		void deduplicate(Object object, MetadataDeduplicator deduplicator) {
			try {
				this.setApiVersion.invoke(object, deduplicator.shared((String) this.getApiVersion.invoke(object)));
				this.setKind.invoke(object, deduplicator.shared((String) this.getKind.invoke(object)));
			}
			catch (Throwable ex) {
				// a setter with side effects that failed: leave the object as it is
			}
		}

	}

}
