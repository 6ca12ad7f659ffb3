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

}
