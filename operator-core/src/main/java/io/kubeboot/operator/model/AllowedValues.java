package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The values a string field of a custom resource may take, where the field is no Java
 * enum: the {@code enum} of the field's schema in the CustomResourceDefinition that
 * {@code operator-crd-generator} writes, which the API server enforces. A Java enum field
 * needs no annotation (its constants are the values).
 *
 * <pre class="code">
 * &#64;AllowedValues({ "True", "False", "Unknown" })
 * private String status;
 * </pre>
 *
 * Put it on the field or on its getter.
 */
@Target({ ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.CLASS)
@Documented
public @interface AllowedValues {

	/**
	 * The allowed values.
	 * @return the values
	 */
	String[] value();

}
