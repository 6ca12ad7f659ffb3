package io.kubeboot.operator.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Holds the {@link RbacRule @RbacRule} annotations of a bean that declares several; the
 * compiler writes it when {@code @RbacRule} is repeated.
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RbacRules {

	/**
	 * The rules.
	 * @return the rules
	 */
	RbacRule[] value();

}
