package io.kubeboot.operator.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Reconciles on a timer, for state outside the cluster that sends no events (an object
 * store, a DNS record, a cloud API).
 * <ul>
 * <li>On a {@link Reconciles @Reconciles} class: every interval, every cached object of
 * its kind is reconciled.</li>
 * <li>On a method of any bean that takes no parameters and returns a {@code Request}, a
 * {@code Collection<Request>} or a {@code Stream<Request>}: every interval, the method's
 * requests are reconciled by the controller of the kind named in {@link #kind()} (or the
 * controller named in {@link #controller()}; by default, the bean's own controller if the
 * bean is a {@code @Reconciles}).</li>
 * </ul>
 * Requests go through the controller's work queue: a request still waiting from the
 * previous tick is not queued again, and ticks never pile up behind a slow reconciler.
 * The trigger runs only on the leader (unless {@link #leaderOnly()} is {@code false}) and
 * stops with the manager. Invalid values fail start-up naming the bean.
 *
 * <pre class="code">
 * &#64;Reconciles(StorageBucket.class)
 * &#64;PeriodicTrigger(interval = "${buckets.probe-interval:30s}")
 * class StorageBucketReconciler { ... }
 * </pre>
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface PeriodicTrigger {

	/**
	 * Time between ticks: {@code 30s}, {@code 5m}, {@code PT1M}, or a {@code ${...}}
	 * placeholder resolving to one.
	 * @return the interval
	 */
	String interval();

	/**
	 * Time before the first tick, in the same forms; empty waits one interval (a
	 * controller reconciles every object when it starts anyway).
	 * @return the initial delay
	 */
	String initialDelay() default "";

	/**
	 * How much each wait may randomly differ from the interval, as a fraction of it (0 to
	 * 1), so that many replicas or triggers do not fire in step.
	 * @return the jitter
	 */
	double jitter() default 0.1;

	/**
	 * The kind whose controller reconciles the requests, checked by the compiler; the
	 * default ({@code KubernetesObject.class}) means none. Start-up fails if no
	 * controller or several reconcile the kind. Use this or {@link #controller()} on
	 * methods of beans that are no reconcilers.
	 * @return the reconciled model class
	 */
	Class<? extends KubernetesObject> kind() default KubernetesObject.class;

	/**
	 * The name of the controller to reconcile with, for controllers that share a kind;
	 * empty means the controller of {@link #kind()}, else the annotated
	 * {@code @Reconciles} bean's own controller.
	 * @return the controller's name
	 */
	String controller() default "";

	/**
	 * Whether the trigger runs only on the leader.
	 * @return {@code true} (the default) for leader-only
	 */
	boolean leaderOnly() default true;

}
