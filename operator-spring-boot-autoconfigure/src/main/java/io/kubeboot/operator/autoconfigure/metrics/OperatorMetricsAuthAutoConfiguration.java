package io.kubeboot.operator.autoconfigure.metrics;

import java.time.Duration;

import io.kubeboot.operator.autoconfigure.ManagerBuilderCustomizer;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.OperatorMetricsAuthProperties;
import io.kubeboot.operator.client.ApiClients;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.rbac.Permission;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AuthenticationV1Api;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With {@code operator.metrics.auth.enabled=true}, the access reviews that guard the
 * metrics endpoints (the filter itself is registered where the endpoints are served, by
 * {@link OperatorMetricsAuthManagementContextConfiguration}) and what they need RBAC to
 * allow, {@code create} on {@code tokenreviews} and {@code subjectaccessreviews}, added
 * to the manager's required permissions in a ClusterRole of their own
 * ({@code <name>-metrics-auth}, as kubebuilder's {@code metrics-auth-role}).
 */
@AutoConfiguration(after = OperatorAutoConfiguration.class)
@ConditionalOnClass({ ApiClient.class, Manager.class })
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("operator.metrics.auth.enabled")
public final class OperatorMetricsAuthAutoConfiguration {

	/**
	 * The role of the access reviews' rules.
	 */
	static final String ROLE = "metrics-auth";

	/**
	 * How long one review may take, controller-runtime's TokenAccessReviewTimeout.
	 */
	private static final Duration REVIEW_TIMEOUT = Duration.ofSeconds(10);

	@Bean
	@ConditionalOnBean(ApiClient.class)
	@ConditionalOnMissingBean
	TokenAccessReviews operatorTokenAccessReviews(ApiClient apiClient, OperatorMetricsAuthProperties properties) {
		ApiClient client = ApiClients.withTimeouts(apiClient, REVIEW_TIMEOUT, REVIEW_TIMEOUT);
		return new TokenAccessReviews(new AuthenticationV1Api(client), new AuthorizationV1Api(client),
				properties.getAudiences(), properties.getAllowedCacheTtl(), properties.getDeniedCacheTtl(),
				properties.getCacheSize(), System::nanoTime);
	}

	@Bean
	ManagerBuilderCustomizer operatorMetricsAuthPermissions() {
		return (builder) -> builder.requires(
				Permission.of("authentication.k8s.io", "tokenreviews", "create")
					.inAllNamespaces()
					.inRole(ROLE)
					.because("the metrics endpoint authenticates the bearer token of each caller with a TokenReview"),
				Permission.of("authorization.k8s.io", "subjectaccessreviews", "create")
					.inAllNamespaces()
					.inRole(ROLE)
					.because("the metrics endpoint asks a SubjectAccessReview whether the caller may get its path"));
	}

}
