package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A field of a custom resource that keeps its value once set: in the
 * CustomResourceDefinition that {@code operator-crd-generator} writes, the transition
 * rule {@code self == oldSelf} on the field and, unless the field is required, the rule
 * {@code !has(oldSelf.<field>) || has(self.<field>)} on the object holding it, so that
 * the API server refuses an update that changes or removes it:
 *
 * <pre class="code">
 * &#64;Immutable
 * private String bucketName;
 * </pre>
 *
 * A field left out when the object is created can still be set by a later update, once: a
 * transition rule runs only where there is an old value. To fix a field's presence at
 * creation too, add {@code @ValidationRule("has(self.x) == has(oldSelf.x)")} to the class
 * holding it. Removing the object that holds the field is up to that object's own rules.
 * Put it on the field or on its getter.
 */
@Target({ ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.CLASS)
@Documented
public @interface Immutable {

	/**
	 * The message the API server answers with when an update changes or removes the
	 * field, after the field's path ({@code spec.bucketName: Invalid value: "string": is
	 * immutable}).
	 * @return the message
	 */
	String message() default "is immutable";

}
