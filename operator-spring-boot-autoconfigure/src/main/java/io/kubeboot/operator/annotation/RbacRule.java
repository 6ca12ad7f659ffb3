package io.kubeboot.operator.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Declares something a {@link Reconciles @Reconciles} bean needs RBAC to allow beyond
 * what its controller does itself, the counterpart of a kubebuilder
 * {@code +kubebuilder:rbac} marker: its writes through the {@code Client}, its status
 * writes, its uncached reads. The controller already derives {@code list} and
 * {@code watch} of the kinds it reconciles, owns and watches, and {@code patch} of the
 * reconciled kind for its finalizer.
 * <p>
 * The rule applies in the controller's namespace (all namespaces unless it has one), or,
 * with {@link #grantedPerNamespace()}, in the namespaces where an administrator binds its
 * {@link #role()} with a RoleBinding. The manager's {@code requiredPermissions()} include
 * it, so the rendered RBAC holds it and the start-up self-check asks the API server for
 * it (or, granted per namespace, only lists it).
 *
 * <pre class="code">
 * &#64;Reconciles(StorageBucket.class)
 * &#64;RbacRule(subresource = "status", verbs = "patch")
 * &#64;RbacRule(kind = V1ConfigMap.class, verbs = { "create", "update" }, reason = "keeps each bucket's ConfigMap")
 * class StorageBucketReconciler { ... }
 * </pre>
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(RbacRules.class)
public @interface RbacRule {

	/**
	 * The kind: a client-java model class or a {@code @KubernetesKind} class; by default
	 * the kind the bean reconciles. Ignored when {@link #resource()} is set.
	 * @return the model class
	 */
	Class<? extends KubernetesObject> kind() default KubernetesObject.class;

	/**
	 * The API group of {@link #resource()}; empty for the core group.
	 * @return the group
	 */
	String group() default "";

	/**
	 * The plural resource name, for a kind without a model class, such as
	 * {@code deployments} (with {@code group = "apps"}); empty to name the
	 * {@link #kind()}.
	 * @return the resource
	 */
	String resource() default "";

	/**
	 * The subresource, such as {@code status} for writes through {@code client.status()};
	 * empty for the resource itself.
	 * @return the subresource
	 */
	String subresource() default "";

	/**
	 * The verbs, such as {@code get}, {@code create}, {@code update}, {@code patch},
	 * {@code delete}.
	 * @return the verbs
	 */
	String[] verbs();

	/**
	 * The names of the objects the rule is restricted to; empty for all.
	 * @return the names
	 */
	String[] resourceNames() default {};

	/**
	 * The role the rule goes to: empty for the operator's own roles, else the Role or
	 * ClusterRole {@code <name>-<role>}, a lowercase name (see
	 * {@code Permission.inRole}).
	 * @return the role suffix
	 */
	String role() default "";

	/**
	 * Whether the rule is granted namespace by namespace: for a controller of all
	 * namespaces its ClusterRole ({@link #role()}, required) is rendered without a
	 * ClusterRoleBinding, to be bound with a RoleBinding in each namespace that grants
	 * it, and the start-up self-check does not ask for it; the reconciler must cope with
	 * {@code 403 Forbidden} where it is not granted. For writes that RBAC cannot narrow
	 * by name, such as {@code create} of ConfigMaps or Secrets, which cluster-wide reach
	 * {@code kube-system} too (see {@code Permission.grantedPerNamespace}).
	 * @return {@code true} to grant it per namespace
	 */
	boolean grantedPerNamespace() default false;

	/**
	 * Why the reconciler needs it, one line: a comment above the rendered rule, and named
	 * when RBAC denies it.
	 * @return the reason
	 */
	String reason() default "";

}
