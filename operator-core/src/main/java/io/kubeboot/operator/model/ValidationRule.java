package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A CEL rule the API server checks objects of a custom resource with: an entry of
 * {@code x-kubernetes-validations} in the CustomResourceDefinition that
 * {@code operator-crd-generator} writes, controller-gen's
 * {@code +kubebuilder:validation:XValidation}. On a class the rule sits at the schema of
 * that class's objects (on the {@link KubernetesKind} class: the whole object), on a
 * field (or its getter) at the field's schema; {@code self} is the value there:
 *
 * <pre class="code">
 * &#64;ValidationRule(value = "self.minReplicas &lt;= self.maxReplicas", message = "minReplicas must not exceed maxReplicas",
 *         fieldPath = ".minReplicas")
 * public class ScalingSpec { ... }
 * </pre>
 *
 * A rule that uses {@code oldSelf} is a transition rule: it runs on updates only, with
 * {@code oldSelf} the value before the update, and only where the value exists before and
 * after it (unless {@link #optionalOldSelf()}); {@link Immutable} is one. The build fails
 * on a rule that does not parse, or that names a field of {@code self} or {@code oldSelf}
 * the schema does not have.
 *
 * @see ValidationRules
 */
@Target({ ElementType.TYPE, ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.CLASS)
@Documented
@Repeatable(ValidationRules.class)
public @interface ValidationRule {

	/**
	 * The rule: a CEL expression that is {@code true} for a valid value, such as
	 * {@code self.startsWith('https://')}.
	 * @return the rule
	 */
	String value();

	/**
	 * The message the API server answers with when the rule is broken, one line; empty
	 * for its default, {@code failed rule: <rule>}.
	 * @return the message
	 */
	String message() default "";

	/**
	 * A CEL expression that gives the message (a string), such as
	 * {@code 'replicas ' + string(self.replicas) + ' is too many'}; it takes precedence
	 * over {@link #message()}, which remains the message when it fails. Empty for none.
	 * @return the message expression
	 */
	String messageExpression() default "";

	/**
	 * The kind of error the API server reports when the rule is broken (its HTTP status
	 * is 422 in every case).
	 * @return the reason
	 */
	Reason reason() default Reason.FIELD_VALUE_INVALID;

	/**
	 * Where the API server reports a broken rule, relative to where the rule sits, such
	 * as {@code .minReplicas} or {@code .labels['app']}; empty for where the rule sits.
	 * It must name fields the schema has and cannot go into a list.
	 * @return the field path
	 */
	String fieldPath() default "";

	/**
	 * Whether a transition rule also runs when there is no old value (on create, or when
	 * the field was absent), with {@code oldSelf} then a CEL {@code optional}: write
	 * {@code oldSelf.hasValue()}, {@code oldSelf.value()} or
	 * {@code oldSelf.orValue(...)}. Only for rules that use {@code oldSelf}.
	 * @return whether {@code oldSelf} is optional
	 */
	boolean optionalOldSelf() default false;

	/**
	 * The kinds of error a broken rule is reported as.
	 */
	enum Reason {

		/**
		 * {@code FieldValueInvalid}, the API server's default: {@code Invalid value}.
		 */
		FIELD_VALUE_INVALID,

		/**
		 * {@code FieldValueForbidden}: {@code Forbidden}.
		 */
		FIELD_VALUE_FORBIDDEN,

		/**
		 * {@code FieldValueRequired}: {@code Required value}.
		 */
		FIELD_VALUE_REQUIRED,

		/**
		 * {@code FieldValueDuplicate}: {@code Duplicate value} (the API server then
		 * reports no message).
		 */
		FIELD_VALUE_DUPLICATE

	}

}
