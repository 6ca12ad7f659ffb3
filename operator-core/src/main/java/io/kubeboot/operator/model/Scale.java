package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives a custom resource the {@code scale} subresource, through which
 * {@code kubectl scale}, the HorizontalPodAutoscaler and PodDisruptionBudgets read and
 * write its replicas as they do a Deployment's: {@code subresources.scale} of the version
 * in the CustomResourceDefinition that {@code operator-crd-generator} writes,
 * controller-gen's {@code +kubebuilder:subresource:scale}. Put it on the
 * {@link KubernetesKind} class:
 *
 * <pre class="code">
 * &#64;Scale(labelSelectorPath = ".status.selector")
 * public class Workers extends CustomResource&lt;WorkersSpec, WorkersStatus&gt; { ... }
 * </pre>
 *
 * The build fails when a path names a field the schema does not have: the replicas must
 * be integer fields, the label selector a string field.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.CLASS)
@Documented
public @interface Scale {

	/**
	 * The JSON path of the desired replicas, an integer field under {@code .spec}.
	 * @return the path
	 */
	String specReplicasPath() default ".spec.replicas";

	/**
	 * The JSON path of the observed replicas, an integer field under {@code .status}.
	 * @return the path
	 */
	String statusReplicasPath() default ".status.replicas";

	/**
	 * The JSON path of the label selector of the pods counted in the status replicas, in
	 * its string form ({@code app=web,tier!=cache}), under {@code .status} or
	 * {@code .spec}: what an HorizontalPodAutoscaler needs; empty for none.
	 * @return the path
	 */
	String labelSelectorPath() default "";

}
