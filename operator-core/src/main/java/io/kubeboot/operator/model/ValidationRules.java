package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The container of repeated {@link ValidationRule} annotations; write the rules one by
 * one instead.
 */
@Target({ ElementType.TYPE, ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.CLASS)
@Documented
public @interface ValidationRules {

	/**
	 * The rules, in the order the API server checks them.
	 * @return the rules
	 */
	ValidationRule[] value();

}
