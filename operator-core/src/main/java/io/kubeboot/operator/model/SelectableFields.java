package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The container of repeated {@link SelectableField} annotations; write them one by one
 * instead.
 */
@Target({ ElementType.TYPE, ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.CLASS)
@Documented
public @interface SelectableFields {

	/**
	 * The selectable fields.
	 * @return the fields
	 */
	SelectableField[] value();

}
