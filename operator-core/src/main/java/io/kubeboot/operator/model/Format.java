package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The OpenAPI {@code format} of a field's schema in the CustomResourceDefinition that
 * {@code operator-crd-generator} writes, where the Java type does not say it already
 * ({@code OffsetDateTime} is a {@code date-time}, {@code Long} an {@code int64}). The API
 * server checks formats such as {@code uri}, {@code email}, {@code hostname},
 * {@code ipv4}, {@code ipv6}, {@code cidr}, {@code uuid} and {@code duration}:
 *
 * <pre class="code">
 * &#64;Format("hostname")
 * private String host;
 * </pre>
 *
 * Put it on the field or on its getter.
 */
@Target({ ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.CLASS)
@Documented
public @interface Format {

	/**
	 * The format.
	 * @return the format
	 */
	String value();

}
