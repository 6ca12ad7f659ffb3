package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The value the API server writes into a field of a custom resource that an object leaves
 * out: the {@code default} of the field's schema in the CustomResourceDefinition that
 * {@code operator-crd-generator} writes, controller-gen's {@code +kubebuilder:default}.
 * The value is JSON of the field's type; a string field also takes its text as it is:
 *
 * <pre class="code">
 * &#64;Default("3")
 * private Integer replicas;
 *
 * &#64;Default("Retain")
 * private String reclaimPolicy;
 *
 * &#64;Default("{\"enabled\": true, \"paths\": [\"/\"]}")
 * private Probe probe;
 * </pre>
 *
 * The build fails on a value that is not JSON of the field's type, is not one of its
 * allowed values, or names a field an object does not have. The API server applies
 * defaults when it reads an object, before it validates it: a defaulted field may be
 * {@code @NotNull}. Put it on the field or on its getter.
 */
@Target({ ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.CLASS)
@Documented
public @interface Default {

	/**
	 * The default as JSON, such as {@code 3}, {@code true}, {@code "fast"},
	 * {@code ["a", "b"]} or {@code {"enabled": true}}; for a string field also the text
	 * alone, such as {@code fast}.
	 * @return the default
	 */
	String value();

}
