package io.kubeboot.operator.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.predicate.EventFilter;
import io.kubeboot.operator.predicate.GenerationChangedPredicate;
import io.kubernetes.client.common.KubernetesObject;
import org.springframework.stereotype.Component;

/**
 * Makes a bean a controller: the auto-configured manager reconciles every object of
 * {@link #value() one kind} with it, and every object of the kinds it {@link #owns()}
 * mapped to their controlling owner.
 * <p>
 * The bean either implements {@link io.kubeboot.operator.reconcile.Reconciler} or
 * declares exactly one public method {@code Result reconcile(Request)}. Anything else
 * fails start-up with a message naming the bean. The annotation is also a
 * {@link Component} stereotype, so an annotated class found by component scanning becomes
 * a bean.
 *
 * <pre class="code">
 * &#64;Reconciles(V1ConfigMap.class)
 * class ConfigMapReconciler {
 *
 *     Result reconcile(Request request) { ... }
 *
 * }
 * </pre>
 *
 * Other kinds are watched through methods of the bean annotated with {@link Watches},
 * which map a changed object to the requests to reconcile.
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
public @interface Reconciles {

	/**
	 * The kind this controller reconciles: a client-java model class such as
	 * {@code V1ConfigMap}, or a custom resource class annotated with
	 * {@link KubernetesKind}.
	 * @return the model class of the reconciled kind
	 */
	Class<? extends KubernetesObject> value();

	/**
	 * Kinds whose objects are owned by the reconciled kind: a change to one of them
	 * reconciles the owner named by its controller owner reference.
	 * @return the model classes of owned kinds
	 */
	Class<? extends KubernetesObject>[] owns() default {};

	/**
	 * Kinds owned by the reconciled kind, like {@link #owns()}, whose objects are cached
	 * as metadata only: owner references, labels, annotations, finalizers and versions,
	 * without spec, status or data (controller-runtime's {@code builder.OnlyMetadata}).
	 * For owned kinds the reconciler only needs to know exist, such as the Secrets it
	 * creates, this keeps their contents out of memory. Read them with
	 * {@code Cache.getMetadata(V1Secret.class, request)} and {@code Cache.listMetadata};
	 * a kind listed here and in {@link #owns()} fails start-up.
	 * @return the model classes of owned kinds cached as metadata only
	 */
	Class<? extends KubernetesObject>[] ownsMetadataOnly() default {};

	/**
	 * A label selector restricting the cached and watched objects of every {@link #owns()
	 * owned kind} ({@link #ownsMetadataOnly()} included), for example
	 * {@code app.kubernetes.io/managed-by=storage-operator}; empty selects all. Owned
	 * kinds are cached only in the reconciled kind's namespace either way; with a
	 * selector, an operator that labels the Secrets it creates does not cache every
	 * Secret of that namespace. Supports {@code ${...}} placeholders.
	 * @return the label selector of owned kinds
	 */
	String ownsLabelSelector() default "";

	/**
	 * A field selector restricting the cached and watched objects of every {@link #owns()
	 * owned kind} ({@link #ownsMetadataOnly()} included), for example
	 * {@code type=kubernetes.io/tls} for owned Secrets; empty selects all. The API server
	 * selects, as for {@link #fieldSelector()}, and supports only some fields for each
	 * kind: a field it does not support fails start-up naming the controller. An owned
	 * object that stops matching leaves the cache as if it were deleted, reconciling its
	 * owner. Supports {@code ${...}} placeholders.
	 * @return the field selector of owned kinds
	 */
	String ownsFieldSelector() default "";

	/**
	 * Which changes of {@link #owns() owned objects} ({@link #ownsMetadataOnly()}
	 * included) reconcile their owner: an event passes when every predicate listed passes
	 * it, such as {@code LabelsChangedPredicate.class}; by default every change does
	 * (controller-runtime's {@code Owns(..., builder.WithPredicates(...))}). A predicate
	 * class is taken from the application context if it has a bean of that type, and
	 * created by it otherwise. A predicate of metadata-only kinds sees a
	 * {@code PartialObjectMetadata}.
	 * @return the predicate classes
	 */
	@SuppressWarnings("rawtypes")
	Class<? extends EventFilter>[] ownsEventFilters() default {};

	/**
	 * The controller's name, used in logs, metrics and properties
	 * ({@code operator.controllers.<name>.*}); by default the lower-cased kind, as
	 * controller-runtime does.
	 * @return the name
	 */
	String name() default "";

	/**
	 * The namespace to watch; empty watches the namespaces of {@code operator.namespaces}
	 * (all namespaces by default), following them as they change; {@code "*"}
	 * ({@code Cache.ALL_NAMESPACES}) watches all namespaces whatever they are. Supports
	 * {@code ${...}} placeholders.
	 * @return the namespace
	 */
	String namespace() default "";

	/**
	 * A label selector restricting the watched objects of the reconciled kind, for
	 * example {@code app=web,tier!=cache}; empty selects all. Supports {@code ${...}}
	 * placeholders.
	 * @return the label selector
	 */
	String labelSelector() default "";

	/**
	 * A field selector restricting the watched objects of the reconciled kind, for
	 * example {@code spec.color=blue} or {@code status.phase!=Succeeded} ({@code =},
	 * {@code ==} and {@code !=}, separated by commas); empty selects all. The API server
	 * selects, so only matching objects are cached; an object that stops matching leaves
	 * the cache as if it were deleted (with a {@link #finalizer()}, it is cleaned up and
	 * loses the finalizer, as one that leaves the {@link #labelSelector()}), and one that
	 * starts matching is reconciled as if it were created.
	 * <p>
	 * The API server supports selecting a kind by some fields only: every kind by
	 * {@code metadata.name} and {@code metadata.namespace}; a custom resource by the
	 * fields its CustomResourceDefinition declares in {@code selectableFields} (the JSON
	 * path without its leading dot: {@code spec.color} for {@code .spec.color}); a
	 * built-in kind by the few fields the API server supports for it, such as
	 * {@code type} of Secrets, {@code spec.nodeName} and {@code status.phase} of Pods. A
	 * field it does not support fails start-up with a message naming the field selector,
	 * the kind and the controller. Supports {@code ${...}} placeholders.
	 * @return the field selector
	 */
	String fieldSelector() default "";

	/**
	 * How many requests may be reconciled at once; zero or less uses
	 * {@code operator.controller.max-concurrent-reconciles}.
	 * @return the number of workers
	 */
	int maxConcurrentReconciles() default 0;

	/**
	 * How long one reconcile may run, as a duration such as {@code 30s} or {@code 2m}
	 * ({@code ${...}} placeholders allowed); empty uses
	 * {@code operator.controller.reconcile-timeout} (no limit by default), {@code 0} sets
	 * no limit. At the deadline the reconcile's worker is interrupted and the
	 * {@code Client} refuses every further call the reconcile makes, reads included, and
	 * cuts off one in flight; the reconcile is counted in
	 * {@code controller_runtime_reconcile_timeouts_total}, and if it then fails, retried
	 * with backoff (a result it returns is kept, as in controller-runtime).
	 * {@code operator.controllers.<name>.reconcile-timeout} overrides it.
	 * @return the timeout
	 */
	String reconcileTimeout() default "";

	/**
	 * A finalizer for the reconciled kind, a qualified name such as
	 * {@code storage.example.com/deregister} ({@code ${...}} placeholders allowed): the
	 * controller adds it before an object's first reconcile and, once the object is being
	 * deleted, calls the bean's cleanup (it implements
	 * {@link io.kubeboot.operator.reconcile.Cleaner} or declares one method
	 * {@code Result cleanup(Request)}) instead of its reconcile, removing the finalizer
	 * only after the cleanup is done. Empty (the default) for none.
	 * @return the finalizer
	 */
	String finalizer() default "";

	/**
	 * Which changes of the reconciled kind are reconciled: an event passes when every
	 * predicate listed passes it. By default {@link GenerationChangedPredicate}, which
	 * drops updates that change neither the spec nor the deletion state (such as the
	 * reconciler's own status writes coming back on the watch); {@code {}} reconciles
	 * every change. A predicate class is taken from the application context if it has a
	 * bean of that type, and created by it (constructor injection) otherwise.
	 * @return the predicate classes
	 */
	@SuppressWarnings("rawtypes")
	Class<? extends EventFilter>[] eventFilters() default GenerationChangedPredicate.class;

}
