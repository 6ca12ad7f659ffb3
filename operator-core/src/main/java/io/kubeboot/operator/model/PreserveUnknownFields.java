package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Keeps whatever a client writes into a field of a custom resource, unchecked: its schema
 * in the CustomResourceDefinition that {@code operator-crd-generator} writes is
 * {@code x-kubernetes-preserve-unknown-fields: true} (with {@code type: object} for a
 * class or map) instead of the field's properties, so the API server prunes nothing below
 * it. For free-form data, and for a class that refers to itself, which a schema cannot
 * describe:
 *
 * <pre class="code">
 * &#64;PreserveUnknownFields
 * private Map&lt;String, Object&gt; settings;
 * </pre>
 *
 * Put it on the field or on its getter.
 */
@Target({ ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.CLASS)
@Documented
public @interface PreserveUnknownFields {

}
