package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The container of repeated {@link AdmissionPolicy} annotations; write the policies one
 * by one instead.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.CLASS)
@Documented
public @interface AdmissionPolicies {

	/**
	 * The policies, in the order they are written.
	 * @return the policies
	 */
	AdmissionPolicy[] value();

}
