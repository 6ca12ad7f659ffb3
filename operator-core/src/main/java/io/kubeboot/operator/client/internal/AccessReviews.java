package io.kubeboot.operator.client.internal;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import io.kubernetes.client.openapi.models.V1SubjectAccessReviewStatus;

/**
 * Asks the API server what a client's own identity may do
 * ({@code SelfSubjectAccessReview}), so that missing RBAC can be named before a request
 * fails with a bare {@code 403}.
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
		V1SelfSubjectAccessReview review = new V1SelfSubjectAccessReview()
			.spec(new V1SelfSubjectAccessReviewSpec().resourceAttributes(attributes));
		V1SubjectAccessReviewStatus status = new AuthorizationV1Api(client).createSelfSubjectAccessReview(review)
			.execute()
			.getStatus();
		return status != null && Boolean.TRUE.equals(status.getAllowed());
	}

}
