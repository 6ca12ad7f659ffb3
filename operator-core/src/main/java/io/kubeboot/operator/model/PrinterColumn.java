package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A column that {@code kubectl get} shows for the kind, in the CustomResourceDefinition
 * that {@code operator-crd-generator} writes for a {@link KubernetesKind} class. Columns
 * appear in the order of the annotations; once a kind has columns, kubectl shows no
 * {@code Age} column of its own, so add one for {@code .metadata.creationTimestamp}:
 *
 * <pre class="code">
 * &#64;PrinterColumn(name = "Endpoint", jsonPath = ".spec.endpoint")
 * &#64;PrinterColumn(name = "Age", type = PrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
 * &#64;PrinterColumn(name = "Region", jsonPath = ".spec.region", priority = 1)
 * </pre>
 *
 * @see PrinterColumns
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.CLASS)
@Documented
@Repeatable(PrinterColumns.class)
public @interface PrinterColumn {

	/**
	 * The column's header, for example {@code Endpoint}.
	 * @return the name
	 */
	String name();

	/**
	 * The JSONPath of the value within an object, for example {@code .spec.endpoint} or
	 * {@code .status.conditions[?(@.type=="Available")].status}.
	 * @return the JSONPath
	 */
	String jsonPath();

	/**
	 * How kubectl shows the value.
	 * @return the type
	 */
	Type type() default Type.STRING;

	/**
	 * An OpenAPI format refining the type, for example {@code date-time}; empty for none.
	 * @return the format
	 */
	String format() default "";

	/**
	 * What the column shows, for people reading the CustomResourceDefinition; empty for
	 * none.
	 * @return the description
	 */
	String description() default "";

	/**
	 * 0 for a column {@code kubectl get} always shows, 1 or more for one it shows only
	 * with {@code -o wide}.
	 * @return the priority
	 */
	int priority() default 0;

	/**
	 * The types of a printer column.
	 */
	enum Type {

		/**
		 * Text.
		 */
		STRING,

		/**
		 * A whole number.
		 */
		INTEGER,

		/**
		 * A number.
		 */
		NUMBER,

		/**
		 * {@code true} or {@code false}.
		 */
		BOOLEAN,

		/**
		 * A timestamp, shown as its age (such as {@code 5m}).
		 */
		DATE

	}

}
