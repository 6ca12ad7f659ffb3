package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1ResourceRule;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import io.kubernetes.client.openapi.models.V1SelfSubjectRulesReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectRulesReviewSpec;
import io.kubernetes.client.openapi.models.V1SubjectAccessReviewStatus;
import io.kubernetes.client.openapi.models.V1SubjectRulesReviewStatus;
import okhttp3.Call;
import org.jspecify.annotations.Nullable;

/**
 * Asks the API server what a client's own identity may do
 * ({@code SelfSubjectAccessReview}, or {@code SelfSubjectRulesReview} for many questions
 * about one namespace), so that missing RBAC can be named before a request fails with a
 * bare {@code 403}.
 */
public final class AccessReviews {

	private AccessReviews() {
	}

	/**
	 * Whether the client's identity may do what the attributes describe.
	 * @param client the client
	 * @param attributes the verb, group, resource and, where it matters, namespace and
	 * name
	 * @return {@code true} if RBAC allows it
	 * @throws ApiException if the review cannot be made
	 */
	public static boolean isAllowed(ApiClient client, V1ResourceAttributes attributes) throws ApiException {
		return isAllowed(client, attributes, null);
	}

	/**
	 * Whether the client's identity may do what the attributes describe, asked within a
	 * timeout: a call still unanswered then is cancelled, which ends it at once, where an
	 * interrupt would not (and, on a shared HTTP/2 connection, could break it).
	 * @param client the client
	 * @param attributes the verb, group, resource and, where it matters, namespace and
	 * name
	 * @param timeout how long the call may take, {@code null} for the client's timeouts
	 * @return {@code true} if RBAC allows it
	 * @throws ApiException if the review cannot be made in time
	 */
	public static boolean isAllowed(ApiClient client, V1ResourceAttributes attributes, @Nullable Duration timeout)
			throws ApiException {
		V1SelfSubjectAccessReview review = new V1SelfSubjectAccessReview()
			.spec(new V1SelfSubjectAccessReviewSpec().resourceAttributes(attributes));
		Call call = limited(new AuthorizationV1Api(client).createSelfSubjectAccessReview(review).buildCall(null),
				timeout);
		V1SelfSubjectAccessReview answer = Answers
			.<V1SelfSubjectAccessReview>execute("create selfsubjectaccessreviews", ModelReading.gson(client), call,
					V1SelfSubjectAccessReview.class)
			.data();
		V1SubjectAccessReviewStatus status = (answer != null) ? answer.getStatus() : null;
		return status != null && Boolean.TRUE.equals(status.getAllowed());
	}

	/**
	 * Returns every rule the client's identity has in a namespace
	 * ({@code SelfSubjectRulesReview}): one request answers for any number of
	 * {@link #isAllowed} questions about that namespace.
	 * @param client the client
	 * @param namespace the namespace
	 * @return the rules, or {@code null} if the API server says they are incomplete (an
	 * authorizer that cannot list rules, such as a webhook, may allow more)
	 * @throws ApiException if the review cannot be made
	 */
	public static @Nullable List<V1ResourceRule> rulesIn(ApiClient client, String namespace) throws ApiException {
		return rulesIn(client, namespace, null);
	}

	/**
	 * Returns every rule the client's identity has in a namespace, asked within a timeout
	 * as {@link #isAllowed(ApiClient, V1ResourceAttributes, Duration)} is.
	 * @param client the client
	 * @param namespace the namespace
	 * @param timeout how long the call may take, {@code null} for the client's timeouts
	 * @return the rules, or {@code null} if the API server says they are incomplete
	 * @throws ApiException if the review cannot be made in time
	 */
	public static @Nullable List<V1ResourceRule> rulesIn(ApiClient client, String namespace, @Nullable Duration timeout)
			throws ApiException {
		V1SelfSubjectRulesReview review = new V1SelfSubjectRulesReview()
			.spec(new V1SelfSubjectRulesReviewSpec().namespace(namespace));
		Call call = limited(new AuthorizationV1Api(client).createSelfSubjectRulesReview(review).buildCall(null),
				timeout);
		V1SelfSubjectRulesReview answer = Answers
			.<V1SelfSubjectRulesReview>execute("create selfsubjectrulesreviews", ModelReading.gson(client), call,
					V1SelfSubjectRulesReview.class)
			.data();
		V1SubjectRulesReviewStatus status = (answer != null) ? answer.getStatus() : null;
		if (status == null || !Boolean.FALSE.equals(status.getIncomplete()) || status.getResourceRules() == null) {
			return null;
		}
		return status.getResourceRules();
	}

	/**
	 * Whether a rule of a {@link #rulesIn rules review} allows what the attributes
	 * describe, matched as RBAC matches a request: {@code *} for any verb, group or
	 * resource, {@code *}/subresource for that subresource of any resource, and no names
	 * for any name.
	 * @param rule the rule
	 * @param attributes the verb, group, resource, subresource and name
	 * @return {@code true} if the rule allows it
	 */
	public static boolean allows(V1ResourceRule rule, V1ResourceAttributes attributes) {
		String subresource = (attributes.getSubresource() != null) ? attributes.getSubresource() : "";
		String resource = subresource.isEmpty() ? attributes.getResource()
				: attributes.getResource() + "/" + subresource;
		return matches(rule.getVerbs(), attributes.getVerb())
				&& matches(rule.getApiGroups(), (attributes.getGroup() != null) ? attributes.getGroup() : "")
				&& (matches(rule.getResources(), resource)
						|| (!subresource.isEmpty() && contains(rule.getResources(), "*/" + subresource)))
				&& (rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
						|| (attributes.getName() != null && rule.getResourceNames().contains(attributes.getName())));
	}

	private static Call limited(Call call, @Nullable Duration timeout) {
		if (timeout != null) {
			call.timeout().timeout(Math.max(1, timeout.toNanos()), TimeUnit.NANOSECONDS);
		}
		return call;
	}

	private static boolean matches(@Nullable List<String> values, String value) {
		return contains(values, "*") || contains(values, value);
	}

	private static boolean contains(@Nullable List<String> values, String value) {
		return values != null && values.contains(value);
	}

}
