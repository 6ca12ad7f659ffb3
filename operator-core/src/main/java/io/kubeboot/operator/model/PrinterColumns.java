package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The container of repeated {@link PrinterColumn} annotations; write the columns one by
 * one instead.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.CLASS)
@Documented
public @interface PrinterColumns {

	/**
	 * The columns, in the order kubectl shows them.
	 * @return the columns
	 */
	PrinterColumn[] value();

}
