package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A field of a custom resource that lists and watches can select objects by, as
 * {@code kubectl get --field-selector spec.color=red} does: an entry of the version's
 * {@code selectableFields} in the CustomResourceDefinition that
 * {@code operator-crd-generator} writes, controller-gen's
 * {@code +kubebuilder:selectablefield} (Kubernetes 1.31 or later). On a field (or its
 * getter) it declares that field, with no value; on the {@link KubernetesKind} class it
 * names the field by its JSON path:
 *
 * <pre class="code">
 * &#64;SelectableField(".spec.color")
 * public class Widget extends CustomResource&lt;WidgetSpec, WidgetStatus&gt; { ... }
 *
 * public class WidgetSpec {
 *     &#64;SelectableField
 *     private String size;
 * }
 * </pre>
 *
 * The field must be a string, integer or boolean, reached from the object through fields
 * only (not in a list or map); a version has at most 8. The build fails on a path the
 * schema does not have.
 *
 * @see SelectableFields
 */
@Target({ ElementType.TYPE, ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.CLASS)
@Documented
@Repeatable(SelectableFields.class)
public @interface SelectableField {

	/**
	 * On the kind class, the field's JSON path, such as {@code .spec.color}; on a field,
	 * empty.
	 * @return the JSON path
	 */
	String value() default "";

}
