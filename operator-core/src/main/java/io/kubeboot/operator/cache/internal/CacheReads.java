package io.kubeboot.operator.cache.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import io.kubeboot.operator.cache.NamespaceNotWatchedException;
import io.kubeboot.operator.client.MatchingIndex;
import io.kubeboot.operator.client.internal.WrittenVersions;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * The reads of a cache: an object or a list of a kind, by index too, from every
 * registered informer of the kind in the form asked for (whole objects or metadata only),
 * each object once (informers of the same kind with other selectors may hold the same
 * object), never older than this process's own last write of it, and refused for a
 * namespace that no informer of the kind holds while the cache watches a set of
 * namespaces ({@link NamespaceNotWatchedException}). Each read goes to a snapshot of the
 * registered informers.
 */
final class CacheReads {

	private final InformerRegistry registry;

	private final NamespaceSetInformers namespaceSet;

	private final WrittenVersions written;

	CacheReads(InformerRegistry registry, NamespaceSetInformers namespaceSet, WrittenVersions written) {
		this.registry = registry;
		this.namespaceSet = namespaceSet;
		this.written = written;
	}

	/**
	 * Returns a cached object, waiting briefly for the cache to catch up with this
	 * process's last write of it.
	 * @param <T> the model type stored
	 * @param type the model class of the kind
	 * @param request the object's namespace and name
	 * @param metadataOnly whether to read the informers of metadata only
	 * @return the object, if cached
	 */
	<T extends KubernetesObject> Optional<T> get(Class<?> type, Request request, boolean metadataOnly) {
		List<ScopedInformer<T>> candidates = covering(type, request.namespace(), informersOf(type, metadataOnly));
		try {
			return Optional.ofNullable(this.written.read(type, request.namespace(), request.name(), () -> {
				for (ScopedInformer<T> informer : candidates) {
					Optional<T> found = informer.get(request.namespace(), request.name());
					if (found.isPresent()) {
						return found.get();
					}
				}
				return null;
			}));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for the cache to see this process's write", ex);
		}
	}

	/**
	 * Returns the cached objects of a kind.
	 * @param <T> the model type stored
	 * @param type the model class of the kind
	 * @param namespace the namespace, {@code null} for all the informers hold
	 * @param metadataOnly whether to read the informers of metadata only
	 * @return a new list
	 */
	<T extends KubernetesObject> List<T> list(Class<?> type, @Nullable String namespace, boolean metadataOnly) {
		return merged(covering(type, namespace, informersOf(type, metadataOnly)),
				(informer) -> (namespace != null) ? informer.list(namespace) : informer.list());
	}

	/**
	 * Returns the objects that a kind's index files under a key, read from the index of
	 * each informer of the kind's whole objects, not by visiting its objects.
	 * @param <T> the model type
	 * @param type the model class of the kind
	 * @param namespace the namespace, {@code null} for all the informers hold
	 * @param matching the index and key
	 * @return a new list
	 * @throws IllegalStateException if the kind has no such index, or no informer caches
	 * it whole
	 */
	<T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace, MatchingIndex matching) {
		List<ScopedInformer<T>> informers = covering(type, namespace, informersOf(type, false));
		List<String> indexes = this.registry.indexNames(type);
		if (!indexes.contains(matching.index())) {
			throw new IllegalStateException("No index '" + matching.index() + "' of " + type.getSimpleName() + " ("
					+ (indexes.isEmpty() ? "it has none" : "it has " + String.join(", ", indexes))
					+ "): declare it with cache.addIndex(CacheIndex.of(" + type.getSimpleName() + ".class, \""
					+ matching.index() + "\", ...)), or with Spring as a CacheIndex bean");
		}
		return merged(informers, (informer) -> informer.byIndex(matching.index(), namespace, matching.key()));
	}

	/**
	 * Returns what each informer gives, each object once.
	 */
	private static <T extends KubernetesObject> List<T> merged(List<ScopedInformer<T>> informers,
			Function<ScopedInformer<T>, List<T>> read) {
		if (informers.size() == 1) {
			return read.apply(informers.get(0));
		}
		Map<String, T> unique = new LinkedHashMap<>();
		for (ScopedInformer<T> informer : informers) {
			for (T object : read.apply(informer)) {
				unique.putIfAbsent(object.getMetadata().getNamespace() + "/" + object.getMetadata().getName(), object);
			}
		}
		return new ArrayList<>(unique.values());
	}

	/**
	 * Returns the informers a read of a namespace goes to, refusing it when the cache
	 * watches a set of namespaces and none of them holds that namespace: an empty answer
	 * would say its objects do not exist. A cache of all namespaces answers as before.
	 * @throws NamespaceNotWatchedException if no informer holds the namespace
	 */
	private <T extends KubernetesObject> List<ScopedInformer<T>> covering(Class<?> type, @Nullable String namespace,
			List<ScopedInformer<T>> informers) {
		if (namespace == null || this.namespaceSet.watchesAll()) {
			return informers;
		}
		for (ScopedInformer<T> informer : informers) {
			String held = informer.key().namespace();
			if (held == null || held.equals(namespace)) {
				return informers;
			}
		}
		throw new NamespaceNotWatchedException(type, namespace, this.namespaceSet.current());
	}

	@SuppressWarnings("unchecked")
	private <T extends KubernetesObject> List<ScopedInformer<T>> informersOf(Class<?> type, boolean metadataOnly) {
		List<ScopedInformer<T>> found = new ArrayList<>();
		boolean otherForm = false;
		for (ScopedInformer<?> informer : this.registry.informers()) {
			if (informer.key().type() == type) {
				if (informer.key().metadataOnly() == metadataOnly) {
					found.add((ScopedInformer<T>) informer);
				}
				else {
					otherForm = true;
				}
			}
		}
		if (found.isEmpty() && this.namespaceSet.caches(type, metadataOnly)) {
			return found; // the namespace set is empty now
		}
		if (found.isEmpty()) {
			String kind = type.getSimpleName();
			if (otherForm) {
				throw new IllegalStateException(metadataOnly
						? "No informer caches the metadata of " + kind + ": it is "
								+ "cached whole; read it with get or list, or cache its metadata only with "
								+ "metadataInformer(), ownsMetadataOnly or watchesMetadataOnly"
						: "No informer caches " + kind + " whole: it is cached as metadata only; read it with "
								+ "getMetadata or listMetadata, or cache it whole: reconcile, own or watch the kind "
								+ "without metadata only, or register it with informer()");
			}
			throw new IllegalStateException(metadataOnly
					? "No informer caches the metadata of " + kind
							+ ": own or watch the kind as metadata only in a controller (ownsMetadataOnly, "
							+ "watchesMetadataOnly), or register it with metadataInformer()"
					: "No informer caches " + kind + ": reconcile, own or watch the kind in a controller, or "
							+ "register it with InformerCache.informer()");
		}
		return found;
	}

}
