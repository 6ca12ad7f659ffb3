package io.kubeboot.operator.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A CEL check the API server runs on requests for a custom resource, for what a
 * {@link ValidationRule} cannot see: a ValidatingAdmissionPolicy
 * ({@code admissionregistration.k8s.io/v1}, Kubernetes 1.30 or later) and its
 * ValidatingAdmissionPolicyBinding, which {@code operator-crd-generator} writes beside
 * the CustomResourceDefinition, to
 * {@code META-INF/kubeboot/policies/<plural>.<group>.yaml}. Put it on the
 * {@link KubernetesKind} class; it repeats, one policy each:
 *
 * <pre class="code">
 * &#64;AdmissionPolicy(name = "protected", operations = AdmissionPolicy.Operation.DELETE,
 *         expression = "!has(oldObject.metadata.labels) || oldObject.metadata.labels['protected'] != 'true'",
 *         message = "a protected bucket cannot be deleted", reason = AdmissionPolicy.Reason.FORBIDDEN)
 * public class Bucket extends CustomResource&lt;BucketSpec, BucketStatus&gt; { ... }
 * </pre>
 *
 * A {@link ValidationRule} is part of the schema and sees one object (and, on an update,
 * its old self) on create and update: prefer it for what the object alone decides. Use a
 * policy where the check needs more: a deletion (a rule never runs on one), who asks
 * ({@code request.userInfo}), the namespace ({@code namespaceObject}), what the user may
 * do ({@code authorizer}), or the operation. The expression, true to let the request
 * through, sees:
 * <ul>
 * <li>{@code object}: the object of the request, {@code null} on DELETE;</li>
 * <li>{@code oldObject}: the object before an update, the object being deleted on DELETE,
 * {@code null} on CREATE;</li>
 * <li>{@code request}: the admission request: {@code operation}, {@code name},
 * {@code namespace}, {@code userInfo} ({@code username}, {@code uid}, {@code groups},
 * {@code extra}), {@code dryRun}, {@code options}, {@code kind}, {@code resource},
 * ...;</li>
 * <li>{@code namespaceObject}: the object's Namespace ({@code metadata.labels}, ...),
 * {@code null} for a cluster-scoped kind;</li>
 * <li>{@code authorizer}: what the requesting user may do, such as
 * {@code authorizer.group('').resource('secrets').check('get').allowed()};</li>
 * <li>{@code variables}: the {@link #variables()} by name.</li>
 * </ul>
 * Objects are plain JSON there: select fields by their names as they are
 * ({@code object.spec['my-field']} for a name with a dash), not escaped as in a
 * {@link ValidationRule}.
 * <p>
 * The API server evaluates the policy, through its binding, in every namespace and for
 * whoever asks (members of {@code system:masters} too) as soon as it has both: apply the
 * policy file with the CRD. The build fails on an expression that does not parse, uses
 * another name ({@code params} too: the policy has no parameters), selects a field of
 * {@code object} or {@code oldObject} that a version of the kind does not have, or of
 * {@code request} or {@code namespaceObject} that they do not have, or uses
 * {@code object} in a policy of DELETE alone, {@code oldObject} in one without UPDATE or
 * DELETE, or {@code namespaceObject} for a cluster-scoped kind, where they are
 * {@code null}.
 *
 * @see AdmissionPolicies
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.CLASS)
@Documented
@Repeatable(AdmissionPolicies.class)
public @interface AdmissionPolicy {

	/**
	 * The policy's name among the kind's, a DNS label such as {@code protected}: the
	 * policy and its binding are named {@code <name>.<plural>.<group>}.
	 * @return the name
	 */
	String name();

	/**
	 * The check: a CEL expression that is {@code true} for a request to let through, such
	 * as {@code request.userInfo.username == object.spec.owner}.
	 * @return the expression
	 */
	String expression();

	/**
	 * The message the API server refuses a request with, one line, after
	 * {@code ValidatingAdmissionPolicy '<policy>' with binding '<binding>' denied request:};
	 * empty for its default, {@code failed expression: <expression>} (give one for an
	 * expression of several lines).
	 * @return the message
	 */
	String message() default "";

	/**
	 * A CEL expression that gives the message (a string), such as
	 * {@code 'owned by ' + oldObject.spec.owner}; it sees what {@link #expression()} sees
	 * but {@code authorizer}, and takes precedence over {@link #message()}, which remains
	 * the message when it fails. Empty for none.
	 * @return the message expression
	 */
	String messageExpression() default "";

	/**
	 * What the API server answers a refused request with.
	 * @return the reason
	 */
	Reason reason() default Reason.INVALID;

	/**
	 * The operations the policy checks.
	 * @return the operations, at least one
	 */
	Operation[] operations() default { Operation.CREATE, Operation.UPDATE };

	/**
	 * Preconditions: the policy checks only requests for which every one is {@code true}.
	 * They see what {@link #expression()} sees but {@code variables}.
	 * @return the conditions, none by default
	 */
	MatchCondition[] matchConditions() default {};

	/**
	 * Named CEL expressions the expression (and the message expression, and later
	 * variables) use as {@code variables.<name>}, each evaluated at most once per
	 * request.
	 * @return the variables, none by default
	 */
	Variable[] variables() default {};

	/**
	 * What happens to a request when the policy cannot decide: its expression fails (a
	 * missing field, a {@code null}), or the policy is misconfigured.
	 * @return the failure policy
	 */
	FailurePolicy failurePolicy() default FailurePolicy.FAIL;

	/**
	 * What a refused request is answered with: the status's {@code reason} and its HTTP
	 * status.
	 */
	enum Reason {

		/**
		 * {@code Invalid}: HTTP 422 Unprocessable Entity, the API server's default.
		 */
		INVALID,

		/**
		 * {@code Forbidden}: HTTP 403.
		 */
		FORBIDDEN,

		/**
		 * {@code RequestEntityTooLarge}: HTTP 413.
		 */
		REQUEST_ENTITY_TOO_LARGE

	}

	/**
	 * The operations of requests a policy checks.
	 */
	enum Operation {

		/**
		 * Creating an object: {@code oldObject} is {@code null}.
		 */
		CREATE,

		/**
		 * Updating an object (or its status, or patching it): both {@code object} and
		 * {@code oldObject} are there.
		 */
		UPDATE,

		/**
		 * Deleting an object: {@code oldObject} is the object, {@code object} is
		 * {@code null}.
		 */
		DELETE,

		/**
		 * Connecting to a subresource, as {@code kubectl exec} does to a Pod's: custom
		 * resources serve none, so it matches no request of theirs.
		 */
		CONNECT

	}

	/**
	 * What happens to a request when a policy cannot decide.
	 */
	enum FailurePolicy {

		/**
		 * The request is refused.
		 */
		FAIL,

		/**
		 * The request goes through.
		 */
		IGNORE

	}

	/**
	 * A precondition of a policy: an entry of its {@code matchConditions}.
	 */
	@Target({})
	@Retention(RetentionPolicy.CLASS)
	@Documented
	@interface MatchCondition {

		/**
		 * The condition's name, unique in the policy: letters, digits, {@code -},
		 * {@code _} and {@code .}, such as {@code exclude-operator}.
		 * @return the name
		 */
		String name();

		/**
		 * The condition, true for a request the policy checks, such as
		 * {@code request.userInfo.username != 'system:serviceaccount:ops:operator'}.
		 * @return the expression
		 */
		String expression();

	}

	/**
	 * A named expression of a policy: an entry of its {@code variables}.
	 */
	@Target({})
	@Retention(RetentionPolicy.CLASS)
	@Documented
	@interface Variable {

		/**
		 * The variable's name, a CEL identifier unique in the policy, such as
		 * {@code owner}.
		 * @return the name
		 */
		String name();

		/**
		 * The expression giving its value; it may use the variables declared before it.
		 * @return the expression
		 */
		String expression();

	}

}
