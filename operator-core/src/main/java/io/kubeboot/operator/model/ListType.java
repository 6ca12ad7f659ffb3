package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How the API server treats a list field of a custom resource when several writers apply
 * it (server-side apply) and which items it accepts: the {@code x-kubernetes-list-type}
 * (and {@code x-kubernetes-list-map-keys}) of the field's schema in the
 * CustomResourceDefinition that {@code operator-crd-generator} writes. Conditions, for
 * example, are a map keyed by their type:
 *
 * <pre class="code">
 * &#64;ListType(value = ListType.Type.MAP, mapKeys = "type")
 * private List&lt;Condition&gt; conditions;
 * </pre>
 *
 * Put it on the field or on its getter.
 */
@Target({ ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.CLASS)
@Documented
public @interface ListType {

	/**
	 * The list type.
	 * @return the list type
	 */
	Type value();

	/**
	 * With {@link Type#MAP}, the fields of an item that identify it; each must be a
	 * required field of the item class.
	 * @return the key fields
	 */
	String[] mapKeys() default {};

	/**
	 * The list types of the Kubernetes API.
	 */
	enum Type {

		/**
		 * The list is one value, replaced as a whole (the default of a list without this
		 * annotation).
		 */
		ATOMIC,

		/**
		 * The items are scalars and unique; writers own items individually.
		 */
		SET,

		/**
		 * The items are objects, unique by their {@link ListType#mapKeys() keys}; writers
		 * own items individually.
		 */
		MAP

	}

}
