package io.kubeboot.operator.webhook;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How the API server calls an {@link AdmissionValidator} or {@link Defaulter}: what
 * becomes its entry in the generated {@code ValidatingWebhookConfiguration} or
 * {@code MutatingWebhookConfiguration} (see {@code operator-deploy-generator}). Put it on
 * the validator's or defaulter's class, or on the {@code @Bean} method that makes it;
 * without it the webhook gets the defaults below. It changes nothing in how the operator
 * serves the webhook: the path and the kind come from the kind.
 *
 * <pre class="code">
 * &#64;Webhook(matchConditions = &#64;Webhook.MatchCondition(name = "endpoint-changed",
 *         expression = "request.operation != 'UPDATE' || object.spec.endpoint != oldObject.spec.endpoint"))
 * class StorageBucketValidator implements AdmissionValidator&lt;StorageBucket&gt; { ... }
 * </pre>
 *
 * The API server checks the whole entry, the CEL of the match conditions included, when
 * the configuration is applied, and refuses it with the reason.
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Webhook {

	/**
	 * The operations the API server sends. Empty (the default): {@code CREATE} and
	 * {@code UPDATE}, and {@code DELETE} too for a validator whose class overrides
	 * {@link AdmissionValidator#validateDelete(io.kubernetes.client.common.KubernetesObject)
	 * validateDelete}, so a deletion check is never left uncalled.
	 * @return the operations
	 */
	Operation[] operations() default {};

	/**
	 * What the API server does when the webhook cannot answer (the operator is down, the
	 * handler failed or timed out): {@code FAIL} refuses the request, {@code IGNORE} lets
	 * it through unchecked.
	 * @return the policy
	 */
	FailurePolicy failurePolicy() default FailurePolicy.FAIL;

	/**
	 * How long the API server waits for an answer, 1 to 30 seconds. Keep it above
	 * {@code operator.webhook.handler-timeout} (10s by default), or the API server gives
	 * up before the operator answers and applies the {@link #failurePolicy()} to a
	 * request the operator was about to decide: the generated manifests refuse a timeout
	 * that is not above it.
	 * @return the timeout in seconds
	 */
	int timeoutSeconds() default 15;

	/**
	 * CEL conditions that must all hold for the API server to call the webhook (at most
	 * 64), so requests that cannot change what it decides never reach the operator. They
	 * see {@code object}, {@code oldObject}, {@code request} and {@code authorizer}, as
	 * an admission policy does.
	 * @return the conditions
	 */
	MatchCondition[] matchConditions() default {};

	/**
	 * Which namespaces' objects the API server sends, as a label selector of the
	 * namespace in Kubernetes' string form: {@code k=v}, {@code k!=v},
	 * {@code k in (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k}, separated by
	 * commas ({@code environment in (production,qa),!kubeboot.io/skip-webhooks}). Every
	 * namespace carries its name as the label {@code kubernetes.io/metadata.name}.
	 * <p>
	 * The generated configuration adds to it: while the operator watches one namespace
	 * (the chart's {@code watchNamespaces}), only that namespace; otherwise, for a kind
	 * that is not one of the operator's own CRDs (a ConfigMap, a Pod, another operator's
	 * kind), every namespace but {@code kube-system} and the operator's own, so that a
	 * webhook that does not answer cannot stop the cluster's system components nor the
	 * operator's own pods. Empty (the default): nothing more.
	 * @return the selector
	 */
	String namespaceSelector() default "";

	/**
	 * Which objects the API server sends, as a label selector of the object (of the old
	 * object too on updates and deletions) in Kubernetes' string form, as
	 * {@link #namespaceSelector()}. Empty (the default): every object.
	 * @return the selector
	 */
	String objectSelector() default "";

	/**
	 * An operation on an object.
	 */
	enum Operation {

		/** A creation. */
		CREATE,

		/**
		 * An update of the object, patches included; not of its subresources, such as
		 * status writes, which the generated rule does not name.
		 */
		UPDATE,

		/** A deletion. */
		DELETE

	}

	/**
	 * What the API server does when the webhook cannot answer.
	 */
	enum FailurePolicy {

		/** Refuse the request. */
		FAIL,

		/** Let the request through. */
		IGNORE

	}

	/**
	 * A condition for calling the webhook.
	 */
	@Target({})
	@Retention(RetentionPolicy.RUNTIME)
	@interface MatchCondition {

		/**
		 * The condition's name, unique in the webhook, such as {@code endpoint-changed}:
		 * a qualified name of Kubernetes.
		 * @return the name
		 */
		String name();

		/**
		 * The CEL expression, {@code true} to call the webhook.
		 * @return the expression
		 */
		String expression();

	}

}
