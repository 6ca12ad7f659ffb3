package io.kubeboot.operator.cache;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Changes each object before the cache stores it, the counterpart of client-go's
 * {@code SetTransform} and controller-runtime's {@code cache.Options.DefaultTransform}
 * and {@code ByObject[...].Transform}: drop what no reconciler reads (a large annotation,
 * a field of the spec or status) and the cache holds less. Registered per kind with
 * {@code ManagerBuilder.cacheTransform(V1ConfigMap.class, ...)}, or for every kind
 * without one of its own with {@code ManagerBuilder.defaultCacheTransform(...)}; with
 * Spring, a bean of type {@code CacheTransform<V1ConfigMap>} (or
 * {@code CacheTransform<KubernetesObject>} for the default). A transform for
 * {@code PartialObjectMetadata} applies to every kind cached as metadata only.
 * <p>
 * It is called on the informer's event thread for every object of a list and of a watch
 * event (deletions included), before the object is stored and handed to the event
 * handlers, so handlers, predicates and reads all see the transformed object. It receives
 * a freshly decoded object that nothing else references yet: it may change it in place
 * and return it, or return another object of the same class. It must be fast, must not
 * block and must not call the API server; the informers of several kinds (and an informer
 * and the watchdog's replacement of it) call it at once, so one that keeps state must be
 * thread-safe. It must keep the object's identity: should it change the namespace, name,
 * uid or resourceVersion, the cache puts them back (and logs a warning once per
 * informer); should it throw or return {@code null} or an object of another class, the
 * object is cached as the transform left it and the failure is logged (at most once a
 * minute per informer). What it removes is gone for everything that reads the cache:
 * labels the informers select by, owner references that map an owned object to its owner,
 * finalizers and the deletion timestamp a controller acts on must stay.
 *
 * @param <T> the model type
 */
@FunctionalInterface
public interface CacheTransform<T extends KubernetesObject> {

	/**
	 * Transforms an object before it is cached. With sharding by label, the labels and
	 * annotations whose keys begin with {@code shard.sharding.kubeboot.io/},
	 * {@code drain.sharding.kubeboot.io/} and {@code term.sharding.kubeboot.io/} must be
	 * kept: the sharder and the sharded controllers decide by them.
	 * @param object a freshly decoded object, not yet shared
	 * @return the object to cache: the same, changed in place, or another of its class
	 */
	T transform(T object);

	/**
	 * Returns a transform that drops annotations by key, for example
	 * {@code kubectl.kubernetes.io/last-applied-configuration}, which
	 * {@code kubectl apply} adds and which repeats the whole object as a string.
	 * @param <T> the model type
	 * @param keys the annotation keys to drop
	 * @return the transform
	 */
	static <T extends KubernetesObject> CacheTransform<T> removeAnnotations(String... keys) {
		List<String> removed = List.copyOf(Arrays.asList(keys));
		return (object) -> {
			Map<String, String> annotations = (object.getMetadata() != null) ? object.getMetadata().getAnnotations()
					: null;
			if (annotations != null && !annotations.isEmpty()) {
				removed.forEach(annotations::remove);
			}
			return object;
		};
	}

}
