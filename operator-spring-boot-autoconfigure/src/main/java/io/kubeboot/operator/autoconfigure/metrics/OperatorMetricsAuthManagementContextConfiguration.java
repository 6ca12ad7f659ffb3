package io.kubeboot.operator.autoconfigure.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import io.kubeboot.operator.autoconfigure.OperatorMetricsAuthProperties;
import jakarta.servlet.http.HttpFilter;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletPath;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;

/**
 * Registers the {@link MetricsAccessFilter} in front of the endpoints of
 * {@code operator.metrics.auth.endpoints}, wherever Actuator serves them: in the
 * application's context when the management port is the application's, in the management
 * context on a port of its own. The filter is mapped to the endpoints' paths only, so the
 * health endpoint, which the kubelet probes without a token, stays open.
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ HttpFilter.class, FilterRegistrationBean.class, PathMappedEndpoints.class })
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("operator.metrics.auth.enabled")
public final class OperatorMetricsAuthManagementContextConfiguration {

	private static final Logger logger = LoggerFactory
		.getLogger(OperatorMetricsAuthManagementContextConfiguration.class);

	private static final String DISPATCHER_SERVLET_PATH = "org.springframework.boot.webmvc.autoconfigure."
			+ "DispatcherServletPath";

	@Bean
	FilterRegistrationBean<MetricsAccessFilter> operatorMetricsAccessFilter(ObjectProvider<TokenAccessReviews> reviews,
			ObjectProvider<PathMappedEndpoints> endpoints, OperatorMetricsAuthProperties properties,
			ListableBeanFactory beanFactory) {
		TokenAccessReviews available = reviews.getIfAvailable();
		if (available == null) {
			// never serve the metrics open while asked to guard them
			throw new IllegalStateException("operator.metrics.auth.enabled is true, but there is no ApiClient bean to "
					+ "review the callers' tokens with: define one, or set operator.metrics.auth.enabled=false");
		}
		FilterRegistrationBean<MetricsAccessFilter> registration = new FilterRegistrationBean<>(
				new MetricsAccessFilter(available));
		UnaryOperator<String> servletPath = ClassUtils.isPresent(DISPATCHER_SERVLET_PATH, null)
				? MvcPaths.of(beanFactory) : UnaryOperator.identity();
		List<String> patterns = patterns(endpoints.getIfAvailable(), servletPath, properties.getEndpoints());
		if (patterns.isEmpty()) {
			// no pattern would map the filter to every path: the health endpoint too
			registration.setEnabled(false);
			logger.warn("None of the endpoints to guard is exposed over HTTP, so the metrics filter guards nothing: "
					+ "endpoints={}", properties.getEndpoints());
		}
		else {
			registration.setUrlPatterns(patterns);
			logger.info("Metrics endpoints answer only callers the API server authenticates and authorizes: paths={}",
					patterns);
		}
		registration.setName("operatorMetricsAccessFilter");
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
		return registration;
	}

	private static List<String> patterns(@Nullable PathMappedEndpoints endpoints, UnaryOperator<String> servletPath,
			List<String> ids) {
		List<String> patterns = new ArrayList<>();
		if (endpoints == null) {
			return patterns;
		}
		for (String id : ids) {
			String path = endpoints.getPath(EndpointId.of(id));
			if (path == null) {
				logger.debug("Endpoint not exposed over HTTP, nothing to guard: endpoint={}", id);
				continue;
			}
			String mapped = servletPath.apply(path);
			patterns.add(mapped);
			patterns.add(mapped + "/*");
		}
		return patterns;
	}

	/**
	 * Where Spring MVC's dispatcher servlet serves a path,
	 * {@code spring.mvc.servlet.path} in front of it; apart so that the class is loaded
	 * only with Spring MVC.
	 */
	private static final class MvcPaths {

		static UnaryOperator<String> of(ListableBeanFactory beanFactory) {
			DispatcherServletPath servletPath = beanFactory.getBeanProvider(DispatcherServletPath.class).getIfUnique();
			return (servletPath != null) ? servletPath::getRelativePath : UnaryOperator.identity();
		}

	}

}
