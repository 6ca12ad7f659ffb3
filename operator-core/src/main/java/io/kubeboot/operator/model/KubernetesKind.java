package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.kubernetes.client.common.KubernetesListObject;

/**
 * Declares which Kubernetes kind a model class of a custom resource stands for. Built-in
 * kinds of client-java ({@code V1Pod}, {@code V1ConfigMap}, ...) need no annotation.
 * <p>
 * The resource's plural name and scope are read from the API server's discovery when the
 * manager starts; start-up fails with a message naming the class if the API server does
 * not serve the kind (for example when its CustomResourceDefinition is not installed).
 * <p>
 * With {@code operator-crd-generator} on the compiler's annotation processor path, the
 * build writes the kind's CustomResourceDefinition from this annotation and the class's
 * fields: {@link #plural()}, {@link #singular()}, {@link #shortNames()},
 * {@link #categories()}, {@link #scope()}, {@link #served()} and {@link #storage()} say
 * what goes into it, and are not read at run time.
 *
 * <pre class="code">
 * &#64;KubernetesKind(group = "storage.example.com", version = "v1alpha1", kind = "StorageBucket")
 * public class StorageBucket implements KubernetesObject { ... }
 * </pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface KubernetesKind {

	/**
	 * The API group, for example {@code storage.example.com}; empty for the core group.
	 * @return the group
	 */
	String group();

	/**
	 * The API version within the group, for example {@code v1alpha1}.
	 * @return the version
	 */
	String version();

	/**
	 * The kind, for example {@code StorageBucket}.
	 * @return the kind
	 */
	String kind();

	/**
	 * The plural resource name, for example {@code storagebuckets}; empty to read it from
	 * the API server's discovery.
	 * @return the plural resource name
	 */
	String plural() default "";

	/**
	 * The list model class; by default the class of the same name with a {@code List}
	 * suffix in the same package.
	 * @return the list class
	 */
	Class<? extends KubernetesListObject> listType() default KubernetesListObject.class;

	/**
	 * The singular resource name of the generated CustomResourceDefinition, for example
	 * {@code storagebucket}; empty for the kind in lower case.
	 * @return the singular resource name
	 */
	String singular() default "";

	/**
	 * Short names of the generated CustomResourceDefinition, which {@code kubectl get}
	 * accepts in place of the plural, for example {@code sb}.
	 * @return the short names
	 */
	String[] shortNames() default {};

	/**
	 * Categories of the generated CustomResourceDefinition, for example {@code all}:
	 * {@code kubectl get <category>} lists the kind with the others of the category.
	 * @return the categories
	 */
	String[] categories() default {};

	/**
	 * Whether the generated CustomResourceDefinition makes the kind namespaced (the
	 * default) or cluster-scoped.
	 * @return the scope
	 */
	Scope scope() default Scope.NAMESPACED;

	/**
	 * Whether the API server serves this version, in the generated
	 * CustomResourceDefinition.
	 * @return whether the version is served
	 */
	boolean served() default true;

	/**
	 * Whether objects are stored in etcd in this version, in the generated
	 * CustomResourceDefinition. Exactly one version of a kind is the storage version:
	 * when several classes model versions of one kind, all but one say {@code false}.
	 * @return whether this is the storage version
	 */
	boolean storage() default true;

	/**
	 * The scope of a custom resource's objects.
	 */
	enum Scope {

		/**
		 * Objects live in a namespace.
		 */
		NAMESPACED,

		/**
		 * Objects belong to the cluster, in no namespace.
		 */
		CLUSTER

	}

}
