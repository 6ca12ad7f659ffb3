package io.kubeboot.operator.autoconfigure.metrics;

import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.autoconfigure.ManagerBuilderCustomizer;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.OperatorMetricsAuthProperties;
import io.kubeboot.operator.client.ApiClients;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.rbac.Permission;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AuthenticationV1Api;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.web.context.reactive.ReactiveWebApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

/**
 * With {@code operator.metrics.auth.enabled=true}, the access reviews that guard the
 * metrics endpoints (the filter itself is registered where the endpoints are served, by
 * {@link OperatorMetricsAuthManagementContextConfiguration}) and what they need RBAC to
 * allow, {@code create} on {@code tokenreviews} and {@code subjectaccessreviews}, added
 * to the manager's required permissions in a ClusterRole of their own
 * ({@code <name>-metrics-auth}, as kubebuilder's {@code metrics-auth-role}). Start-up
 * fails, naming the property, where the filter cannot guard the endpoints: in a reactive
 * application, or where Jersey serves Actuator.
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

	private static final String JERSEY = "org.glassfish.jersey.server.ResourceConfig";

	private static final String DISPATCHER_SERVLET_PATH = "org.springframework.boot.webmvc.autoconfigure."
			+ "DispatcherServletPath";

	@Bean
	@ConditionalOnBean(ApiClient.class)
	@ConditionalOnMissingBean
	TokenAccessReviews operatorTokenAccessReviews(ApiClient apiClient, OperatorMetricsAuthProperties properties) {
		ApiClient client = ApiClients.withTimeouts(apiClient, REVIEW_TIMEOUT, REVIEW_TIMEOUT);
		return new TokenAccessReviews(new AuthenticationV1Api(client), new AuthorizationV1Api(client),
				properties.getAudiences(), properties.getAllowedCacheTtl(), properties.getDeniedCacheTtl(),
				properties.getCacheSize(), System::nanoTime);
	}

	/**
	 * Fails start-up where the filter cannot guard the endpoints, rather than serve them
	 * open while asked to guard them: the filter is a servlet filter, mapped to where
	 * Spring MVC serves Actuator, so a reactive (WebFlux) application, or one whose
	 * Actuator Jersey serves, would run unguarded.
	 * @param context the application's context
	 * @return the check, run once every bean exists
	 */
	@Bean
	static SmartInitializingSingleton operatorMetricsAuthWebStackCheck(ApplicationContext context) {
		return () -> {
			if (context instanceof ReactiveWebApplicationContext) {
				throw new IllegalStateException("operator.metrics.auth.enabled is true, but this is a reactive web "
						+ "application, whose endpoints the metrics filter (a servlet filter) cannot guard: serve "
						+ "Actuator with Spring MVC (spring-boot-starter-webmvc), or set "
						+ "operator.metrics.auth.enabled=false and guard the endpoints otherwise");
			}
			ClassLoader classLoader = context.getClassLoader();
			if (ClassUtils.isPresent(JERSEY, classLoader) && !servedBySpringMvc(context, classLoader)) {
				throw new IllegalStateException("operator.metrics.auth.enabled is true, but Jersey serves the Actuator "
						+ "endpoints, which the metrics filter guards only where Spring MVC serves them: add Spring "
						+ "MVC (spring-boot-starter-webmvc), or set operator.metrics.auth.enabled=false and guard the "
						+ "endpoints otherwise");
			}
		};
	}

	private static boolean servedBySpringMvc(ApplicationContext context, @Nullable ClassLoader classLoader) {
		if (!ClassUtils.isPresent(DISPATCHER_SERVLET_PATH, classLoader)) {
			return false;
		}
		Class<?> servletPath = ClassUtils.resolveClassName(DISPATCHER_SERVLET_PATH, classLoader);
		return context.getBeanNamesForType(servletPath).length > 0;
	}

	@Bean
	ManagerBuilderCustomizer operatorMetricsAuthPermissions() {
		return (builder) -> builder.requires(requiredPermissions().toArray(Permission[]::new));
	}

	/**
	 * Returns what the access reviews need RBAC to allow: {@code create} on
	 * {@code tokenreviews} and {@code subjectaccessreviews}, cluster-wide, in the role
	 * {@code metrics-auth}. The manager requires them while
	 * {@code operator.metrics.auth.enabled} is true; a generator of manifests whose
	 * values may turn the property on renders them from here too.
	 * @return the permissions
	 */
	public static List<Permission> requiredPermissions() {
		return List.of(
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
