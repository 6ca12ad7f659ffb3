package io.kubeboot.operator.cache;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import io.kubeboot.operator.client.Reader;
import io.kubeboot.operator.client.internal.LabelSelector;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * Reads objects from the manager's informer caches: the state the API server had a few
 * milliseconds ago, without a request to it. Only kinds that a controller watches (or
 * that were registered through {@link #informer}) are cached; asking for another kind
 * throws {@link IllegalStateException} naming it.
 * <p>
 * A kind may also be cached as metadata only ({@link #metadataInformer}, or a
 * controller's {@code ownsMetadataOnly} and {@code watchesMetadataOnly}),
 * controller-runtime's metadata-only watches: its objects are read with
 * {@link #getMetadata} and {@link #listMetadata} as {@link PartialObjectMetadata},
 * without spec, status or data, and cost a fraction of the memory. Such a cache is
 * separate from a cache of whole objects of the same kind: {@link #get} and {@link #list}
 * read only the latter.
 * <p>
 * The returned objects are the cache's own instances, shared with every other reader:
 * never modify them; build a new object (or a patch) to change anything. All methods are
 * thread-safe and never block on the network.
 * <p>
 * An informer holds only the objects of its namespace that match its label and field
 * selectors ({@link InformerKey}): reads find nothing else, whatever exists. An informer
 * asked for without a namespace ({@code null}) watches the manager's namespaces: all of
 * them, unless the manager was built with a set ({@link WatchedNamespaces}), which it
 * then follows as it changes, with one list and watch per namespace. While it watches a
 * set, a read of a namespace that no informer of the kind holds (outside the set, and not
 * watched by name) fails with a {@link NamespaceNotWatchedException} rather than finding
 * nothing; reads of all namespaces ({@code null}) read those the informers hold.
 * <p>
 * A kind's objects can be indexed ({@link #addIndex}, controller-runtime's
 * {@code IndexField}) and looked up by key with
 * {@link #list(Class, String, io.kubeboot.operator.client.MatchingIndex)}: "which Apps
 * name this Secret?" then reads the Apps filed under its name instead of visiting every
 * App.
 */
public interface Cache extends Reader {

	/**
	 * The namespace that asks for an informer of every namespace whatever the manager's
	 * namespace set, controller-runtime's {@code cache.AllNamespaces}: for a kind to be
	 * watched cluster-wide by an operator that watches a set of namespaces otherwise. It
	 * needs {@code list} and {@code watch} of the kind in all namespaces (a ClusterRole).
	 * Its key ({@link InformerKey#namespace()}) has no namespace; an operator of all
	 * namespaces treats it as {@code null}.
	 */
	String ALL_NAMESPACES = "*";

	/**
	 * Returns the informer of a kind in a namespace with a label selector, registering it
	 * if it is new: registered before the manager starts, it starts and syncs with the
	 * cache; registered later, it starts at once.
	 * @param <T> the model type
	 * @param type the model class of the kind
	 * @param namespace the namespace, {@code null} for the manager's namespaces (all
	 * namespaces unless it watches a set), or {@link #ALL_NAMESPACES} for all namespaces
	 * whatever the manager's
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @return the informer, the same instance for the same arguments
	 * @throws IllegalArgumentException if the class declares no Kubernetes kind or has no
	 * list class (see {@link io.kubeboot.operator.model.KubernetesKind#listType()})
	 */
	<T extends KubernetesObject> Informer<T> informer(Class<T> type, @Nullable String namespace,
			@Nullable String labelSelector);

	/**
	 * Returns the informer of a kind in a namespace with a label selector and a field
	 * selector, registering it if it is new, like
	 * {@link #informer(Class, String, String)}. The API server selects the objects by
	 * both selectors in every list and watch, so the informer holds only the objects that
	 * match them; an object that stops matching leaves it as if it were deleted (its
	 * handlers receive a delete), and one that starts matching enters it as if it were
	 * created. The API server decides which fields can select a kind: every kind
	 * {@code metadata.name} and {@code metadata.namespace}, a custom resource also the
	 * fields its CustomResourceDefinition declares in {@code selectableFields}, a
	 * built-in kind the few fields the API server supports for it (such as {@code type}
	 * of Secrets, {@code spec.nodeName} and {@code status.phase} of Pods). A field it
	 * does not support fails the manager's start-up with a
	 * {@link FieldSelectorNotSupportedException}; an informer registered later retries
	 * its list, logging the refusal as an ERROR.
	 * <p>
	 * This default supports no field selector: it delegates to
	 * {@link #informer(Class, String, String)} without one and throws
	 * {@link UnsupportedOperationException} with one.
	 * @param <T> the model type
	 * @param type the model class of the kind
	 * @param namespace the namespace, {@code null} for the manager's namespaces, or
	 * {@link #ALL_NAMESPACES}
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @param fieldSelector the field selector, such as {@code spec.nodeName=node-1}, or
	 * {@code null} for all objects
	 * @return the informer, the same instance for the same arguments
	 * @throws IllegalArgumentException if the class declares no Kubernetes kind or has no
	 * list class, or the field selector cannot be parsed
	 */
	default <T extends KubernetesObject> Informer<T> informer(Class<T> type, @Nullable String namespace,
			@Nullable String labelSelector, @Nullable String fieldSelector) {
		if (fieldSelector == null || fieldSelector.isBlank()) {
			return informer(type, namespace, labelSelector);
		}
		throw new UnsupportedOperationException(getClass().getName() + " does not support field selectors");
	}

	/**
	 * Returns the informer that caches the metadata only of a kind in a namespace with a
	 * label selector, registering it if it is new, like {@link #informer}. It lists and
	 * watches the kind as {@link PartialObjectMetadata} (the API server leaves out
	 * everything but the metadata), with the {@code apiVersion} and {@code kind} of the
	 * kind; the same list and watch permissions are needed.
	 * @param type the model class of the kind
	 * @param namespace the namespace, {@code null} for the manager's namespaces, or
	 * {@link #ALL_NAMESPACES}
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @return the informer, the same instance for the same arguments, never the informer
	 * of whole objects
	 * @throws IllegalArgumentException if the class declares no Kubernetes kind
	 */
	Informer<PartialObjectMetadata> metadataInformer(Class<? extends KubernetesObject> type, @Nullable String namespace,
			@Nullable String labelSelector);

	/**
	 * Returns the informer that caches the metadata only of a kind in a namespace with a
	 * label selector and a field selector, registering it if it is new, like
	 * {@link #metadataInformer(Class, String, String)}. The API server selects by the
	 * field selector as for {@link #informer(Class, String, String, String)}, on the
	 * whole objects: an informer of metadata only can be selected by fields of the spec
	 * or status it does not cache.
	 * <p>
	 * This default supports no field selector: it delegates to
	 * {@link #metadataInformer(Class, String, String)} without one and throws
	 * {@link UnsupportedOperationException} with one.
	 * @param type the model class of the kind
	 * @param namespace the namespace, {@code null} for the manager's namespaces, or
	 * {@link #ALL_NAMESPACES}
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @param fieldSelector the field selector, such as {@code type=kubernetes.io/tls}, or
	 * {@code null} for all objects
	 * @return the informer, the same instance for the same arguments, never the informer
	 * of whole objects
	 * @throws IllegalArgumentException if the class declares no Kubernetes kind, or the
	 * field selector cannot be parsed
	 */
	default Informer<PartialObjectMetadata> metadataInformer(Class<? extends KubernetesObject> type,
			@Nullable String namespace, @Nullable String labelSelector, @Nullable String fieldSelector) {
		if (fieldSelector == null || fieldSelector.isBlank()) {
			return metadataInformer(type, namespace, labelSelector);
		}
		throw new UnsupportedOperationException(getClass().getName() + " does not support field selectors");
	}

	/**
	 * Declares an index of a kind's cached objects (see {@link CacheIndex}), the
	 * counterpart of controller-runtime's {@code FieldIndexer.IndexField}. Every informer
	 * of the kind's whole objects keeps it, in its store, with every add, update and
	 * delete, through relists and the watchdog's restarts; informers of the kind's
	 * metadata only do not. Unlike controller-runtime, which refuses an index once the
	 * kind's informer started, an index may be added at any time: a running informer
	 * builds it from the objects it holds before this returns, so a lookup never misses
	 * an object that was cached before it was declared. Declaring the same instance again
	 * does nothing but wait for a build under way. Declare an index before the code that
	 * looks it up runs: a lookup made while it is being built fails.
	 * <p>
	 * This default keeps no index and throws {@link UnsupportedOperationException}.
	 * @param index the index
	 * @throws IllegalArgumentException if the kind has another index of the same name
	 */
	default void addIndex(CacheIndex<?> index) {
		throw new UnsupportedOperationException(getClass().getName() + " keeps no index");
	}

	/**
	 * Gives back an informer asked for with {@link #informer} or
	 * {@link #metadataInformer} by code that no longer needs it, such as a leader-only
	 * runnable whose term ended. Once it was given back as often as it was asked for, it
	 * stops listing and watching and drops its objects; it keeps its handlers and starts
	 * again when it is asked for next, its first list reaching them as adds of an initial
	 * list. An informer that a controller, or any code that never gives it back, asked
	 * for keeps running. This default keeps every informer running.
	 * @param informer an informer this cache returned
	 */
	default void release(Informer<?> informer) {
	}

	/**
	 * Returns the metadata of an object of a kind cached as metadata only.
	 * @param type the model class of the kind, such as {@code V1Secret.class}
	 * @param request the namespace and name
	 * @return the metadata, or empty if the object does not exist
	 * @throws IllegalStateException if no informer caches the kind's metadata
	 */
	Optional<PartialObjectMetadata> getMetadata(Class<? extends KubernetesObject> type, Request request);

	/**
	 * Returns the metadata of the objects of a kind cached as metadata only.
	 * @param type the model class of the kind, such as {@code V1Secret.class}
	 * @param namespace the namespace, or {@code null} for all namespaces (and for
	 * cluster-scoped kinds)
	 * @return a new list, in no particular order
	 * @throws IllegalStateException if no informer caches the kind's metadata
	 */
	List<PartialObjectMetadata> listMetadata(Class<? extends KubernetesObject> type, @Nullable String namespace);

	/**
	 * Returns the metadata of the objects of a kind cached as metadata only that match a
	 * label selector.
	 * @param type the model class of the kind, such as {@code V1Secret.class}
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector a selector such as {@code app=web,tier!=cache,env in (a,b)}
	 * @return a new list of the matching objects
	 * @throws IllegalStateException if no informer caches the kind's metadata
	 * @throws IllegalArgumentException if the selector cannot be parsed
	 */
	default List<PartialObjectMetadata> listMetadata(Class<? extends KubernetesObject> type, @Nullable String namespace,
			String labelSelector) {
		LabelSelector selector = LabelSelector.parse(labelSelector);
		return listMetadata(type, namespace).stream()
			.filter((object) -> selector.matches(object.getMetadata().getLabels()))
			.toList();
	}

	/**
	 * Returns every registered informer: one per namespace for an informer of the
	 * manager's namespace set, each keyed by its namespace.
	 * @return a new list
	 */
	List<Informer<?>> informers();

	/**
	 * Calls a listener for every informer registered so far and, from now on, for every
	 * informer as it is registered (metrics use it to add series per informer).
	 * @param listener the listener; called under the cache's lock, it must not block
	 */
	void onInformerRegistered(Consumer<Informer<?>> listener);

	/**
	 * Calls a listener for every informer removed from now on: the informer of a
	 * namespace that left the manager's namespace set, stopped with its objects (metrics
	 * use it to remove the informer's series). This default removes none.
	 * @param listener the listener; called under the cache's lock, it must not block
	 */
	default void onInformerUnregistered(Consumer<Informer<?>> listener) {
	}

	/**
	 * Returns the group, version and kind of a model class as the API server serves it,
	 * the counterpart of controller-runtime's {@code client.GroupVersionKindFor}.
	 * @param type the model class
	 * @return the group (empty for the core group), version and kind
	 * @throws IllegalStateException if the API server cannot be asked or does not serve
	 * the kind
	 */
	GroupVersionKind groupVersionKind(Class<? extends KubernetesObject> type);

	/**
	 * Whether objects of a kind live in namespaces, the counterpart of
	 * controller-runtime's {@code client.IsObjectNamespaced}.
	 * @param type the model class
	 * @return {@code true} for a namespaced kind, {@code false} for a cluster-scoped one
	 * @throws IllegalStateException if the API server cannot be asked or does not serve
	 * the kind
	 */
	boolean isNamespaced(Class<? extends KubernetesObject> type);

}
