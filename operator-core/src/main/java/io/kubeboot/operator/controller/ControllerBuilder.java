package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.cache.internal.InformerCache;
import io.kubeboot.operator.client.internal.FieldSelector;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.handler.MapFunction;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.manager.ControllerDefaults;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.predicate.EventFilter;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.predicate.GenerationChangedPredicate;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Cleaner;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.source.Channel;
import io.kubeboot.operator.source.IntervalTrigger;
import io.kubeboot.operator.source.Source;
import io.kubeboot.operator.workqueue.RateLimiter;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * Builds a controller, the counterpart of controller-runtime's
 * {@code ctrl.NewControllerManagedBy(mgr).For(...).Owns(...).Watches(...).Complete(r)}:
 *
 * <pre class="code">
 * Controller.builder(manager, V1ReplicaSet.class)
 *     .owns(V1Pod.class)
 *     .watches(V1ConfigMap.class, (configMap) -&gt; replicaSetsUsing(configMap))
 *     .complete(reconciler);
 * </pre>
 *
 * Only changes of the reconciled kind that pass its event filter are reconciled: by
 * default a {@link GenerationChangedPredicate}, which drops the updates that change
 * neither the spec nor the deletion state (a status write by the reconciler itself comes
 * back on the watch, and would otherwise reconcile the object a second time); see
 * {@link #withEventFilter}. Owned and watched kinds pass every change unless given a
 * filter.
 * <p>
 * An owned or watched kind whose spec the reconciler does not need can be cached as
 * metadata only ({@link #ownsMetadataOnly}, {@link #watchesMetadataOnly}), the
 * counterpart of controller-runtime's {@code builder.OnlyMetadata}: its objects arrive as
 * {@link PartialObjectMetadata} and are read with {@code Cache.getMetadata} and
 * {@code Cache.listMetadata}.
 * <p>
 * Each kind can be restricted to the objects that match a label selector and a field
 * selector ({@link #labelSelector}, {@link #fieldSelector}, and the selectors of
 * {@link #owns(Class, String, String, EventFilter) owns} and
 * {@link #watches(Class, String, String, String, MapFunction, EventFilter) watches}),
 * controller-runtime's {@code cache.ByObject} selectors: the API server selects, so the
 * cache holds only the matching objects. An object that stops matching leaves the cache
 * as a deleted one does: the controller sees it deleted, and a reconcile of it finds it
 * missing from the cache. The API server decides which fields can select a kind (see
 * {@link #fieldSelector}); one it does not support fails the manager's start-up with an
 * {@link io.kubeboot.operator.cache.FieldSelectorNotSupportedException} naming the
 * controller.
 * <p>
 * Not thread-safe; use one builder from one thread.
 *
 * @param <T> the reconciled model type
 */
public final class ControllerBuilder<T extends KubernetesObject> {

	private final Class<T> forType;

	private final Manager manager;

	private final Cache cache;

	private final ControllerDefaults defaults;

	private @Nullable String name;

	private @Nullable String namespace;

	private @Nullable String labelSelector;

	private @Nullable String fieldSelector;

	private int maxConcurrentReconciles;

	private @Nullable Boolean priorityQueue;

	private @Nullable Duration reconcileTimeout;

	private @Nullable Supplier<RateLimiter<Request>> rateLimiter;

	private final List<OtherKind> otherKinds = new ArrayList<>();

	private final List<Permission> permissions = new ArrayList<>();

	private final List<Source> requestSources = new ArrayList<>();

	private EventFilter<? super T> eventFilter = GenerationChangedPredicate.INSTANCE;

	private @Nullable String finalizer;

	private @Nullable Cleaner cleaner;

	private WorkGate.@Nullable Factory gate;

	ControllerBuilder(Manager manager, Class<T> forType) {
		this.manager = Objects.requireNonNull(manager, "manager must not be null");
		this.forType = Objects.requireNonNull(forType, "forType must not be null");
		KindResolver.declaredKind(forType);
		this.cache = manager.cache();
		this.defaults = manager.controllerDefaults();
	}

	/**
	 * Names the controller; by default the lower-cased kind.
	 * @param name a name unique within the manager
	 * @return this builder
	 */
	public ControllerBuilder<T> named(String name) {
		this.name = name;
		return this;
	}

	/**
	 * Restricts the controller to one namespace; by default it watches the manager's
	 * namespaces (all namespaces unless the manager watches a set, which it then follows
	 * as the set changes: see {@code Manager.namespaces()}). {@link Cache#ALL_NAMESPACES}
	 * watches all namespaces whatever the manager's.
	 * @param namespace the namespace, {@link Cache#ALL_NAMESPACES}, or {@code null} for
	 * the default
	 * @return this builder
	 */
	public ControllerBuilder<T> namespace(@Nullable String namespace) {
		this.namespace = namespace;
		return this;
	}

	/**
	 * Restricts the reconciled objects to those matching a label selector.
	 * @param labelSelector a selector such as {@code app=web}, or {@code null} for all
	 * @return this builder
	 */
	public ControllerBuilder<T> labelSelector(@Nullable String labelSelector) {
		this.labelSelector = labelSelector;
		return this;
	}

	/**
	 * Restricts the reconciled objects to those matching a field selector, which the API
	 * server applies to the lists and watches of the reconciled kind, as it does a label
	 * selector: only matching objects are cached, an object that stops matching leaves
	 * the cache as if it were deleted (a controller with a finalizer then cleans it up
	 * and removes the finalizer, as for an object that leaves its label selector), and
	 * one that starts matching is reconciled as if it were created.
	 * <p>
	 * The API server supports selecting a kind by some fields only: every kind by
	 * {@code metadata.name} and {@code metadata.namespace}; a custom resource by the
	 * fields its CustomResourceDefinition declares in {@code selectableFields} (the JSON
	 * path without its leading dot, such as {@code spec.color} for {@code .spec.color});
	 * a built-in kind by the few fields the API server supports for it, such as
	 * {@code type} of Secrets and {@code spec.nodeName} or {@code status.phase} of Pods.
	 * Any other field fails the manager's start-up with a
	 * {@link io.kubeboot.operator.cache.FieldSelectorNotSupportedException}.
	 * @param fieldSelector a selector such as {@code spec.color=blue} or
	 * {@code status.phase!=Succeeded} ({@code =}, {@code ==} and {@code !=}, separated by
	 * commas), or {@code null} for all objects
	 * @return this builder
	 * @throws IllegalArgumentException if the selector cannot be parsed
	 */
	public ControllerBuilder<T> fieldSelector(@Nullable String fieldSelector) {
		this.fieldSelector = parsed(fieldSelector);
		return this;
	}

	/**
	 * Sets how many requests may be reconciled at once.
	 * @param maxConcurrentReconciles a positive number; zero or less uses the manager's
	 * default
	 * @return this builder
	 */
	public ControllerBuilder<T> maxConcurrentReconciles(int maxConcurrentReconciles) {
		this.maxConcurrentReconciles = maxConcurrentReconciles;
		return this;
	}

	/**
	 * Sets whether the controller's work queue is a priority queue, overriding the
	 * manager's default (on, as in controller-runtime): requests that carry no news
	 * (every cached object when the controller starts, the adds of an informer's initial
	 * list, updates that did not change the object, periodic triggers) wait behind the
	 * changes seen on the watches. Off, the queue is first in, first out.
	 * @param priorityQueue whether to use a priority queue
	 * @return this builder
	 */
	public ControllerBuilder<T> priorityQueue(boolean priorityQueue) {
		this.priorityQueue = priorityQueue;
		return this;
	}

	/**
	 * Sets how long one reconcile may run, overriding the manager's default (none, as in
	 * controller-runtime, whose {@code ReconciliationTimeout} this is). At the deadline
	 * the client cancels the reconcile's calls to the API server in flight and refuses
	 * every call it makes from then on, reads included (work handed to a pool is bound
	 * only when wrapped with {@link io.kubeboot.operator.client.Fences}), and the worker
	 * is interrupted, once out of its call to the API server if it is in one. The
	 * reconcile counts in {@code controller_runtime_reconcile_timeouts_total}; its
	 * outcome is its own, as in controller-runtime: a result it returned is kept, a
	 * {@code TerminalException} stays terminal, any other exception is an error retried
	 * with backoff. A reconcile that ignores the interruption keeps its worker, and its
	 * request, until it returns, but changes nothing through the client after the
	 * deadline; Events it records are still written.
	 * @param timeout the timeout, zero for none, or {@code null} for the manager's
	 * default
	 * @return this builder
	 * @throws IllegalArgumentException if the timeout is negative
	 */
	public ControllerBuilder<T> reconcileTimeout(@Nullable Duration timeout) {
		if (timeout != null && timeout.isNegative()) {
			throw new IllegalArgumentException("reconcileTimeout must not be negative, was " + timeout);
		}
		this.reconcileTimeout = timeout;
		return this;
	}

	/**
	 * Sets the rate limiter used for retries and {@code Result.requeue()}.
	 * @param rateLimiter creates a fresh limiter each time the controller starts
	 * @return this builder
	 */
	public ControllerBuilder<T> rateLimiter(Supplier<RateLimiter<Request>> rateLimiter) {
		this.rateLimiter = rateLimiter;
		return this;
	}

	/**
	 * Reconciles the controlling owner of every object of another kind, found through its
	 * owner reference with {@code controller: true} that points at the reconciled kind.
	 * @param <O> the owned model type
	 * @param ownedType the owned kind
	 * @return this builder
	 */
	public <O extends KubernetesObject> ControllerBuilder<T> owns(Class<O> ownedType) {
		return owns(ownedType, EventFilters.all());
	}

	/**
	 * Reconciles the controlling owner of every object of another kind whose change
	 * passes an event filter.
	 * @param <O> the owned model type
	 * @param ownedType the owned kind
	 * @param eventFilter which changes of owned objects reconcile their owner
	 * @return this builder
	 */
	public <O extends KubernetesObject> ControllerBuilder<T> owns(Class<O> ownedType,
			EventFilter<? super O> eventFilter) {
		return owns(ownedType, null, eventFilter);
	}

	/**
	 * Reconciles the controlling owner of every object of another kind that matches a
	 * label selector and whose change passes an event filter. Owned objects are cached
	 * only in the controller's namespace and, with a selector, only if they match it: an
	 * operator that labels the Secrets it creates does not cache every Secret.
	 * @param <O> the owned model type
	 * @param ownedType the owned kind
	 * @param labelSelector a selector such as
	 * {@code app.kubernetes.io/managed-by=my-operator}, or {@code null} for all objects
	 * @param eventFilter which changes of owned objects reconcile their owner
	 * @return this builder
	 */
	public <O extends KubernetesObject> ControllerBuilder<T> owns(Class<O> ownedType, @Nullable String labelSelector,
			EventFilter<? super O> eventFilter) {
		return owns(ownedType, labelSelector, null, eventFilter);
	}

	/**
	 * Reconciles the controlling owner of every object of another kind that matches a
	 * label selector and a field selector and whose change passes an event filter. Owned
	 * objects are cached only in the controller's namespace and only if they match the
	 * selectors; an owned object that stops matching leaves the cache as if it were
	 * deleted, reconciling its owner. See {@link #fieldSelector} for the fields the API
	 * server supports.
	 * @param <O> the owned model type
	 * @param ownedType the owned kind
	 * @param labelSelector a selector such as
	 * {@code app.kubernetes.io/managed-by=my-operator}, or {@code null} for all objects
	 * @param fieldSelector a selector such as {@code type=kubernetes.io/tls}, or
	 * {@code null} for all objects
	 * @param eventFilter which changes of owned objects reconcile their owner
	 * @return this builder
	 * @throws IllegalArgumentException if the field selector cannot be parsed
	 */
	public <O extends KubernetesObject> ControllerBuilder<T> owns(Class<O> ownedType, @Nullable String labelSelector,
			@Nullable String fieldSelector, EventFilter<? super O> eventFilter) {
		Objects.requireNonNull(eventFilter, "eventFilter must not be null");
		KindResolver.declaredKind(ownedType);
		String selector = (labelSelector != null && !labelSelector.isBlank()) ? labelSelector : null;
		String fields = parsed(fieldSelector);
		this.otherKinds.add(new OtherKind("owns", selector, fields,
				(ns) -> new EventSource<>(controllerName(), this.cache.informer(ownedType, ns, selector, fields),
						new OwnerMapFunction<>(this.cache, this.forType), eventFilter, EventSource.Relation.OWNED,
						kindName(ownedType))));
		return this;
	}

	/**
	 * Reconciles the controlling owner of every object of another kind, like
	 * {@link #owns(Class)}, caching only the owned objects' metadata: the owner
	 * references, labels, annotations, finalizers and versions, without spec, status or
	 * data. For owned kinds the reconciler only needs to know exist, such as Secrets or
	 * ConfigMaps it creates, this keeps their contents out of memory; read them with
	 * {@code Cache.getMetadata(ownedType, request)}.
	 * @param ownedType the owned kind
	 * @return this builder
	 */
	public ControllerBuilder<T> ownsMetadataOnly(Class<? extends KubernetesObject> ownedType) {
		return ownsMetadataOnly(ownedType, null, EventFilters.all());
	}

	/**
	 * Reconciles the controlling owner of every object of another kind that matches a
	 * label selector and whose change passes an event filter, like
	 * {@link #owns(Class, String, EventFilter)}, caching only the owned objects'
	 * metadata.
	 * @param ownedType the owned kind
	 * @param labelSelector a selector such as
	 * {@code app.kubernetes.io/managed-by=my-operator}, or {@code null} for all objects
	 * @param eventFilter which changes of owned objects reconcile their owner
	 * @return this builder
	 */
	public ControllerBuilder<T> ownsMetadataOnly(Class<? extends KubernetesObject> ownedType,
			@Nullable String labelSelector, EventFilter<? super PartialObjectMetadata> eventFilter) {
		return ownsMetadataOnly(ownedType, labelSelector, null, eventFilter);
	}

	/**
	 * Reconciles the controlling owner of every object of another kind that matches a
	 * label selector and a field selector and whose change passes an event filter, like
	 * {@link #owns(Class, String, String, EventFilter)}, caching only the owned objects'
	 * metadata. The API server selects by the field selector on the whole objects, so it
	 * may name fields of the spec or status that the cache does not hold.
	 * @param ownedType the owned kind
	 * @param labelSelector a selector such as
	 * {@code app.kubernetes.io/managed-by=my-operator}, or {@code null} for all objects
	 * @param fieldSelector a selector such as {@code type=kubernetes.io/tls}, or
	 * {@code null} for all objects
	 * @param eventFilter which changes of owned objects reconcile their owner
	 * @return this builder
	 * @throws IllegalArgumentException if the field selector cannot be parsed
	 */
	public ControllerBuilder<T> ownsMetadataOnly(Class<? extends KubernetesObject> ownedType,
			@Nullable String labelSelector, @Nullable String fieldSelector,
			EventFilter<? super PartialObjectMetadata> eventFilter) {
		Objects.requireNonNull(eventFilter, "eventFilter must not be null");
		KindResolver.declaredKind(ownedType);
		String selector = (labelSelector != null && !labelSelector.isBlank()) ? labelSelector : null;
		String fields = parsed(fieldSelector);
		this.otherKinds.add(new OtherKind("owns", selector, fields,
				(ns) -> new EventSource<>(controllerName(),
						this.cache.metadataInformer(ownedType, ns, selector, fields),
						new OwnerMapFunction<>(this.cache, this.forType), eventFilter, EventSource.Relation.OWNED,
						kindName(ownedType))));
		return this;
	}

	/**
	 * Sets which changes of the reconciled kind are reconciled, replacing the default
	 * {@link GenerationChangedPredicate}: pass {@link EventFilters#all()} to reconcile
	 * every change, status-only and metadata-only ones included, or combine predicates
	 * with {@link EventFilter#or} and {@link EventFilter#and}.
	 * @param eventFilter the filter
	 * @return this builder
	 */
	public ControllerBuilder<T> withEventFilter(EventFilter<? super T> eventFilter) {
		this.eventFilter = Objects.requireNonNull(eventFilter, "eventFilter must not be null");
		return this;
	}

	/**
	 * Reconciles the requests a mapping function returns for every change to an object of
	 * another kind, in the controller's namespace.
	 * @param <W> the watched model type
	 * @param watchedType the watched kind
	 * @param mapFunction maps a changed object to requests
	 * @return this builder
	 */
	public <W extends KubernetesObject> ControllerBuilder<T> watches(Class<W> watchedType, MapFunction<W> mapFunction) {
		return watches(watchedType, null, null, mapFunction);
	}

	/**
	 * Reconciles the requests a mapping function returns for every change to an object of
	 * another kind, with its own namespace and label selector.
	 * @param <W> the watched model type
	 * @param watchedType the watched kind
	 * @param namespace the namespace, or {@code null} for the controller's
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @param mapFunction maps a changed object to requests
	 * @return this builder
	 */
	public <W extends KubernetesObject> ControllerBuilder<T> watches(Class<W> watchedType, @Nullable String namespace,
			@Nullable String labelSelector, MapFunction<W> mapFunction) {
		return watches(watchedType, namespace, labelSelector, mapFunction, EventFilters.all());
	}

	/**
	 * Reconciles the requests a mapping function returns for every change to an object of
	 * another kind that passes an event filter, with its own namespace and label
	 * selector.
	 * @param <W> the watched model type
	 * @param watchedType the watched kind
	 * @param namespace the namespace, or {@code null} for the controller's
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @param mapFunction maps a changed object to requests
	 * @param eventFilter which changes are mapped
	 * @return this builder
	 */
	public <W extends KubernetesObject> ControllerBuilder<T> watches(Class<W> watchedType, @Nullable String namespace,
			@Nullable String labelSelector, MapFunction<W> mapFunction, EventFilter<? super W> eventFilter) {
		return watches(watchedType, namespace, labelSelector, null, mapFunction, eventFilter);
	}

	/**
	 * Reconciles the requests a mapping function returns for every change to an object of
	 * another kind that passes an event filter, with its own namespace, label selector
	 * and field selector. A watched object that stops matching the selectors leaves the
	 * cache as if it were deleted: the mapping function receives it as a deletion. See
	 * {@link #fieldSelector} for the fields the API server supports.
	 * @param <W> the watched model type
	 * @param watchedType the watched kind
	 * @param namespace the namespace, or {@code null} for the controller's
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @param fieldSelector the field selector, such as {@code spec.nodeName=node-1}, or
	 * {@code null} for all objects
	 * @param mapFunction maps a changed object to requests
	 * @param eventFilter which changes are mapped
	 * @return this builder
	 * @throws IllegalArgumentException if the field selector cannot be parsed
	 */
	public <W extends KubernetesObject> ControllerBuilder<T> watches(Class<W> watchedType, @Nullable String namespace,
			@Nullable String labelSelector, @Nullable String fieldSelector, MapFunction<W> mapFunction,
			EventFilter<? super W> eventFilter) {
		Objects.requireNonNull(eventFilter, "eventFilter must not be null");
		KindResolver.declaredKind(watchedType);
		Objects.requireNonNull(mapFunction, "mapFunction must not be null");
		String fields = parsed(fieldSelector);
		this.otherKinds
			.add(new OtherKind("watches", labelSelector, fields,
					(ns) -> new EventSource<>(controllerName(), this.cache.informer(watchedType,
							(namespace != null && !namespace.isBlank()) ? namespace : ns, labelSelector, fields),
							mapFunction, eventFilter, EventSource.Relation.WATCHED, kindName(watchedType))));
		return this;
	}

	/**
	 * Reconciles the requests a mapping function returns for every change to an object of
	 * another kind, like {@link #watches(Class, MapFunction)}, caching only the watched
	 * objects' metadata: the mapping function receives them as
	 * {@link PartialObjectMetadata}.
	 * @param watchedType the watched kind
	 * @param mapFunction maps a changed object's metadata to requests
	 * @return this builder
	 */
	public ControllerBuilder<T> watchesMetadataOnly(Class<? extends KubernetesObject> watchedType,
			MapFunction<PartialObjectMetadata> mapFunction) {
		return watchesMetadataOnly(watchedType, null, null, mapFunction, EventFilters.all());
	}

	/**
	 * Reconciles the requests a mapping function returns for every change to an object of
	 * another kind that passes an event filter, with its own namespace and label
	 * selector, caching only the watched objects' metadata.
	 * @param watchedType the watched kind
	 * @param namespace the namespace, or {@code null} for the controller's
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @param mapFunction maps a changed object's metadata to requests
	 * @param eventFilter which changes are mapped
	 * @return this builder
	 */
	public ControllerBuilder<T> watchesMetadataOnly(Class<? extends KubernetesObject> watchedType,
			@Nullable String namespace, @Nullable String labelSelector, MapFunction<PartialObjectMetadata> mapFunction,
			EventFilter<? super PartialObjectMetadata> eventFilter) {
		return watchesMetadataOnly(watchedType, namespace, labelSelector, null, mapFunction, eventFilter);
	}

	/**
	 * Reconciles the requests a mapping function returns for every change to an object of
	 * another kind that passes an event filter, with its own namespace, label selector
	 * and field selector, caching only the watched objects' metadata. The API server
	 * selects by the field selector on the whole objects, so it may name fields of the
	 * spec or status that the cache does not hold.
	 * @param watchedType the watched kind
	 * @param namespace the namespace, or {@code null} for the controller's
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @param fieldSelector the field selector, such as {@code type=kubernetes.io/tls}, or
	 * {@code null} for all objects
	 * @param mapFunction maps a changed object's metadata to requests
	 * @param eventFilter which changes are mapped
	 * @return this builder
	 * @throws IllegalArgumentException if the field selector cannot be parsed
	 */
	public ControllerBuilder<T> watchesMetadataOnly(Class<? extends KubernetesObject> watchedType,
			@Nullable String namespace, @Nullable String labelSelector, @Nullable String fieldSelector,
			MapFunction<PartialObjectMetadata> mapFunction, EventFilter<? super PartialObjectMetadata> eventFilter) {
		Objects.requireNonNull(eventFilter, "eventFilter must not be null");
		KindResolver.declaredKind(watchedType);
		Objects.requireNonNull(mapFunction, "mapFunction must not be null");
		String fields = parsed(fieldSelector);
		this.otherKinds
			.add(new OtherKind("watches", labelSelector, fields,
					(ns) -> new EventSource<>(controllerName(), this.cache.metadataInformer(watchedType,
							(namespace != null && !namespace.isBlank()) ? namespace : ns, labelSelector, fields),
							mapFunction, eventFilter, EventSource.Relation.WATCHED, kindName(watchedType))));
		return this;
	}

	/**
	 * Gives the reconciled kind a finalizer: the controller adds it to every object
	 * before its first reconcile, calls the cleaner instead of the reconciler while an
	 * object is being deleted, and removes the finalizer once the cleanup is done (see
	 * {@link Cleaner}).
	 * @param finalizer the finalizer, a qualified name such as
	 * {@code storage.example.com/deregister}
	 * @param cleaner the cleanup
	 * @return this builder
	 * @throws IllegalArgumentException if the finalizer is not a qualified name
	 */
	public ControllerBuilder<T> withFinalizer(String finalizer, Cleaner cleaner) {
		this.finalizer = FinalizingReconciler.requireQualifiedName(finalizer);
		this.cleaner = Objects.requireNonNull(cleaner, "cleaner must not be null");
		return this;
	}

	/**
	 * Declares something the reconciler needs RBAC to allow beyond what the controller
	 * does itself (list and watch of its kinds, the finalizer's patches), the counterpart
	 * of a kubebuilder {@code +kubebuilder:rbac} marker: its writes through the
	 * {@code Client}, status writes, uncached reads. The manager's
	 * {@link Manager#requiredPermissions()} includes it, so the rendered RBAC holds it
	 * and the start-up self-check asks for it. A permission placed in no namespace goes
	 * to the controller's namespace (all namespaces unless the controller has one).
	 *
	 * <pre class="code">
	 * .requires(Permission.of(StorageBucket.class, "patch").subresource("status"))
	 * .requires(Permission.of(V1ConfigMap.class, "create", "update").because("keeps each bucket's ConfigMap"))
	 * </pre>
	 * @param permission the permission
	 * @return this builder
	 */
	public ControllerBuilder<T> requires(Permission permission) {
		this.permissions.add(Objects.requireNonNull(permission, "permission must not be null"));
		return this;
	}

	/**
	 * Reconciles the requests a source hands over, such as a {@link Channel} fed from
	 * outside the cluster or an {@link IntervalTrigger}.
	 * @param source the source
	 * @return this builder
	 */
	public ControllerBuilder<T> watches(Source source) {
		this.requestSources.add(Objects.requireNonNull(source, "source must not be null"));
		return this;
	}

	/**
	 * Gates the controller: the gate decides whether and when its requests are worked on,
	 * and whether it runs on the leader only. A {@code ShardRing} is one: it shares the
	 * reconciled objects over a ring of replicas instead of reconciling all of them on
	 * the leader (the controller runs on every replica, each reconciling only the objects
	 * the ring gives it; owned and watched objects map to their owner's request as usual,
	 * so they follow it).
	 * @param gate the factory of the controller's gate
	 * @return this builder
	 */
	public ControllerBuilder<T> gatedBy(WorkGate.Factory gate) {
		this.gate = Objects.requireNonNull(gate, "gate must not be null");
		return this;
	}

	/**
	 * Builds the controller and adds it to the manager as a leader-only runnable named
	 * {@code controller-<name>} (an every-replica one if its gate says so, as a sharded
	 * controller's does).
	 * @param reconciler the reconciler
	 * @return the controller, a handle for enqueuing requests and reading its state
	 * @throws IllegalArgumentException if the manager has a controller of the same name
	 */
	public Controller complete(Reconciler reconciler) {
		Objects.requireNonNull(reconciler, "reconciler must not be null");
		String ns = (this.namespace != null && !this.namespace.isBlank()) ? this.namespace : null;
		List<EventSource<?>> sources = new ArrayList<>();
		WorkGate workGate = (this.gate != null) ? this.gate
			.create(new WorkGate.Target(controllerName(), this.forType, ns, this.labelSelector, this.manager.client()))
				: LeaderOnly.INSTANCE;
		sources.add(new EventSource<>(controllerName(),
				this.cache.informer(this.forType, ns, workGate.cacheSelector(this.labelSelector), this.fieldSelector),
				(object) -> List.of(Request.of(object)), this.eventFilter, workGate));
		this.otherKinds.forEach((other) -> sources.add(other.source().apply(ns)));
		int workers = (this.maxConcurrentReconciles > 0) ? this.maxConcurrentReconciles
				: this.defaults.maxConcurrentReconciles();
		Reconciler effective = (this.finalizer != null && this.cleaner != null) ? new FinalizingReconciler(this.forType,
				this.finalizer, reconciler, this.cleaner, this.manager.client(), this.labelSelector, this.fieldSelector)
				: reconciler;
		ControllerMetrics metrics = this.defaults.metrics().apply(controllerName());
		effective = TimeoutReconciler.of(controllerName(), effective,
				(this.reconcileTimeout != null) ? this.reconcileTimeout : this.defaults.reconcileTimeout(),
				metrics::timedOut);
		boolean prioritized = (this.priorityQueue != null) ? this.priorityQueue : this.defaults.priorityQueue();
		Controller controller = new Controller(controllerName(), this.forType, effective, workers, prioritized,
				(this.rateLimiter != null) ? this.rateLimiter : this.defaults.rateLimiter(),
				this.defaults.queueMetrics(), metrics, sources, this.defaults.cacheSyncTimeout(),
				permissions(ns, sources, workGate), workGate, namespaceFilter(sources), this.defaults.tracing());
		this.requestSources.forEach(controller::watch);
		if (this.finalizer != null && this.cleaner != null && controller.followsNamespaceSet()
				&& this.manager.cache() instanceof InformerCache informers) {
			informers.onNamespacesLeaving(
					new StrandedFinalizers(controllerName(), this.finalizer, sources.get(0).informer()));
		}
		try {
			this.manager.add(Controller.RUNNABLE_PREFIX + controller.name(), controller);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("A controller named '" + controller.name()
					+ "' already exists: give one of them another name with named(...)", ex);
		}
		this.manager.addCheck(Check.liveness("workers", controller::checkWorkersAlive));
		return controller;
	}

	/**
	 * The filter that keeps the controller to the manager's namespace set, if it follows
	 * it: through every informer asked for without a namespace.
	 */
	private NamespaceFilter namespaceFilter(List<EventSource<?>> sources) {
		WatchedNamespaces namespaces = this.manager.namespaces();
		List<Informer<?>> followers = sources.stream()
			.<Informer<?>>map(EventSource::informer)
			.filter(this::followsNamespaceSet)
			.toList();
		if (namespaces.watchesAll() || followers.isEmpty()) {
			return NamespaceFilter.NONE;
		}
		InformerCache informers = (InformerCache) this.manager.cache();
		NamespaceFilter filter = new NamespaceFilter(namespaces, followers, informers::keysOf);
		informers.onNamespacesLeaving(filter::left);
		return filter;
	}

	/**
	 * Whether an informer follows the manager's namespace set (one asked for without a
	 * namespace, not for {@link Cache#ALL_NAMESPACES}).
	 */
	private boolean followsNamespaceSet(Informer<?> informer) {
		return this.manager.cache() instanceof InformerCache informers && informers.followsNamespaceSet(informer);
	}

	/**
	 * What the controller needs RBAC to allow: list and watch of every informer, the
	 * finalizer's patches (and, with a label or field selector, the uncached read of an
	 * object that left it), and what the reconciler declared, placed in the controller's
	 * namespace unless placed already: in the manager's namespaces, as they are when
	 * asked for, if the controller names none.
	 */
	private Supplier<List<Permission>> permissions(@Nullable String namespace, List<EventSource<?>> sources,
			WorkGate workGate) {
		String name = controllerName();
		String kind = KindResolver.declaredKind(this.forType).kind();
		List<Permission> needed = new ArrayList<>();
		needed.add(listAndWatch(sources.get(0).informer(), "controller " + name + " reconciles " + kind + " objects"
				+ selected(this.labelSelector, this.fieldSelector) + ": its informer lists and watches them"));
		for (int i = 0; i < this.otherKinds.size(); i++) {
			OtherKind other = this.otherKinds.get(i);
			Informer<?> informer = sources.get(i + 1).informer();
			InformerKey key = informer.key();
			needed.add(listAndWatch(informer,
					"controller " + name + " " + other.relation() + " " + KindResolver.declaredKind(key.type()).kind()
							+ " objects" + selected(other.labelSelector(), other.fieldSelector())
							+ ": its informer lists and watches them"));
		}
		needed.addAll(workGate.requiredPermissions());
		if (this.finalizer != null) {
			needed.add(Permission.of(this.forType, "patch")
				.because("controller " + name + " adds and removes its finalizer " + this.finalizer
						+ " with merge patches"));
			boolean labels = this.labelSelector != null && !this.labelSelector.isBlank();
			if (labels || this.fieldSelector != null) {
				String selector = !labels ? "field selector"
						: (this.fieldSelector != null) ? "label or field selector" : "label selector";
				needed.add(Permission.of(this.forType, "get")
					.because("controller " + name + " reads an object that left its " + selector + " uncached, to "
							+ "remove its finalizer"));
			}
		}
		for (Permission permission : this.permissions) {
			needed.add(permission.because(permission.reason().isEmpty() ? "declared by controller " + name
					: "controller " + name + ": " + permission.reason()));
		}
		WatchedNamespaces watched = this.manager.namespaces();
		return () -> needed.stream().flatMap((permission) -> placed(permission, namespace, watched)).toList();
	}

	private static Stream<Permission> placed(Permission permission, @Nullable String namespace,
			WatchedNamespaces watched) {
		if (permission.isPlaced()) {
			return Stream.of(permission);
		}
		if (Cache.ALL_NAMESPACES.equals(namespace)) {
			return Stream.of(permission.inAllNamespaces());
		}
		if (namespace != null) {
			return Stream.of(permission.inNamespace(namespace));
		}
		return watched.watchesAll() ? Stream.of(permission.inAllNamespaces())
				: watched.current().stream().map(permission::inNamespace);
	}

	/**
	 * Lists and watches an informer's kind: in its namespace, in all namespaces for one
	 * of all namespaces, or, for one without that follows the manager's set, where the
	 * controller works.
	 */
	private Permission listAndWatch(Informer<?> informer, String reason) {
		InformerKey key = informer.key();
		Permission permission = Permission.of(key.type(), "list", "watch").because(reason);
		if (key.namespace() != null) {
			return permission.inNamespace(key.namespace());
		}
		return followsNamespaceSet(informer) ? permission : permission.inAllNamespaces();
	}

	private static String selected(@Nullable String labelSelector, @Nullable String fieldSelector) {
		return ((labelSelector != null && !labelSelector.isBlank()) ? " labelled " + labelSelector.trim() : "")
				+ ((fieldSelector != null) ? " with fields " + fieldSelector : "");
	}

	/**
	 * Returns a field selector once it parses, {@code null} for none, so that a malformed
	 * one fails where it is given.
	 */
	private static @Nullable String parsed(@Nullable String fieldSelector) {
		if (fieldSelector == null || fieldSelector.isBlank()) {
			return null;
		}
		FieldSelector.parse(fieldSelector.trim());
		return fieldSelector.trim();
	}

	/**
	 * The kind of an owned or watched type with its API group, as its triggers name it
	 * ({@code Deployment.apps}, {@code ConfigMap}): declared, or asked of the cache once
	 * its informer resolved the kind (the informer's events come after that).
	 */
	private Supplier<String> kindName(Class<? extends KubernetesObject> type) {
		KindResolver.DeclaredKind declared = KindResolver.declaredKind(type);
		if (declared.group() != null) {
			String name = groupKind(declared.kind(), declared.group());
			return () -> name;
		}
		Cache resolver = this.cache;
		AtomicReference<String> resolved = new AtomicReference<>();
		return () -> {
			String name = resolved.get();
			if (name == null) {
				try {
					GroupVersionKind kind = resolver.groupVersionKind(type);
					name = groupKind(kind.getKind(), kind.getGroup());
				}
				catch (RuntimeException ex) {
					// not resolved: the kind alone, asked again next time
					return declared.kind();
				}
				resolved.set(name);
			}
			return name;
		};
	}

	private static String groupKind(String kind, @Nullable String group) {
		return (group == null || group.isEmpty()) ? kind : kind + "." + group;
	}

	private String controllerName() {
		return (this.name != null && !this.name.isBlank()) ? this.name
				: KindResolver.declaredKind(this.forType).kind().toLowerCase(Locale.ROOT);
	}

	/**
	 * An owned or watched kind: how it relates to the reconciled kind, its label and
	 * field selectors, and its event source in a namespace.
	 */
	private record OtherKind(String relation, @Nullable String labelSelector, @Nullable String fieldSelector,
			Function<String, EventSource<?>> source) {
	}

}
