package io.kubeboot.operator.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.kubeboot.operator.predicate.EventFilter;
import io.kubernetes.client.common.KubernetesObject;

/**
 * Marks a method of a {@link Reconciles @Reconciles} bean that maps a changed object of
 * another kind to the requests of the reconciled kind, the counterpart of
 * controller-runtime's {@code Watches(source, EnqueueRequestsFromMapFunc(fn))}.
 * <p>
 * The method takes the changed object as its single parameter and returns a
 * {@code Request}, a {@code Collection<Request>}, a {@code Stream<Request>} or
 * {@code null}. It is called on the informer's event thread for every add, update (old
 * and new object) and delete, so it must be fast and must not block; read other objects
 * from the {@code Cache}, never from the API server. An exception is logged and the event
 * is skipped.
 *
 * <pre class="code">
 * &#64;Watches(V1Secret.class)
 * List&lt;Request&gt; appsUsingSecret(V1Secret secret) { ... }
 * </pre>
 *
 * To find the reconciled objects that refer to the changed one, look them up in an index
 * of the reconciled kind rather than visiting every cached object: declare a
 * {@code CacheIndex} bean and read
 * {@code cache.list(App.class, secret.getMetadata().getNamespace(), index.matching(secret.getMetadata().getName()))}.
 * <p>
 * With {@link #metadataOnly()} the watched kind is cached as metadata only and the method
 * takes a {@code PartialObjectMetadata}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Watches {

	/**
	 * The watched kind.
	 * @return the model class of the watched kind
	 */
	Class<? extends KubernetesObject> value();

	/**
	 * The namespace to watch; empty uses the controller's namespace; {@code "*"}
	 * ({@code Cache.ALL_NAMESPACES}) watches all namespaces, whatever the operator's
	 * {@code operator.namespaces}. Supports {@code ${...}} placeholders.
	 * @return the namespace
	 */
	String namespace() default "";

	/**
	 * A label selector restricting the watched objects; empty selects all. Supports
	 * {@code ${...}} placeholders.
	 * @return the label selector
	 */
	String labelSelector() default "";

	/**
	 * A field selector restricting the watched objects, for example
	 * {@code spec.nodeName=node-1} for Pods; empty selects all. The API server selects,
	 * as for {@link Reconciles#fieldSelector()}, and supports only some fields for each
	 * kind: a field it does not support fails start-up naming the controller. A watched
	 * object that stops matching reaches the method as a deletion. Supports
	 * {@code ${...}} placeholders.
	 * @return the field selector
	 */
	String fieldSelector() default "";

	/**
	 * Which changes of the watched kind are mapped: an event passes when every predicate
	 * listed passes it (by default every change). A predicate class is taken from the
	 * application context if it has a bean of that type, and created by it otherwise.
	 * @return the predicate classes
	 */
	@SuppressWarnings("rawtypes")
	Class<? extends EventFilter>[] eventFilters() default {};

	/**
	 * Whether the watched kind is cached as metadata only
	 * ({@code io.kubeboot.operator.model.PartialObjectMetadata}: owner references,
	 * labels, annotations, finalizers and versions, without spec, status or data), the
	 * counterpart of controller-runtime's {@code builder.OnlyMetadata}. The method then
	 * takes a {@code PartialObjectMetadata}; read other objects of the kind with
	 * {@code Cache.getMetadata} and {@code Cache.listMetadata}.
	 * @return whether only the metadata is cached
	 */
	boolean metadataOnly() default false;

	/**
	 * Whether the kind is watched in the home cluster of a fleet rather than in each of
	 * its clusters: for a {@code @Reconciles} bean that implements
	 * {@code io.kubeboot.operator.cluster.FleetReconciler} only. Each change of a home
	 * object maps to requests queued in every engaged cluster (a hub's description of
	 * what every member must hold, say), and a cluster engaged later gets the requests of
	 * every cached home object. {@link #namespace()} and {@link #labelSelector()} narrow
	 * the home informer; a field selector, event filters and {@link #metadataOnly()} are
	 * not supported here.
	 * @return whether the kind is the home cluster's
	 */
	boolean home() default false;

}
