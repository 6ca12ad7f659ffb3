package io.kubeboot.operator.autoconfigure.metrics;

import io.kubeboot.operator.autoconfigure.ManagerBuilderCustomizer;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.metrics.WebhookMetrics;
import io.kubeboot.operator.micrometer.OperatorMetrics;
import io.kubeboot.operator.micrometer.RestClientMetricsInterceptor;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.webhook.CertificateMetrics;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;

/**
 * Auto-configures the operator's metrics when the application has a Micrometer
 * {@link MeterRegistry} (with Spring Boot Actuator, the one behind
 * {@code /actuator/prometheus}): the {@link OperatorMetrics} of the auto-configured
 * {@link Manager} (installed by a {@link ManagerBuilderCustomizer} and bound to every
 * {@code Manager} bean, and to every {@link ShardRing} bean) and
 * {@code rest_client_requests_total} for every {@link ApiClient} bean, the application's
 * own included.
 */
@AutoConfiguration(after = OperatorAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, ApiClient.class, Manager.class })
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
public final class OperatorMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	OperatorMetrics operatorMetrics(MeterRegistry registry) {
		return new OperatorMetrics(registry);
	}

	@Bean
	@Lazy
	WebhookMetrics operatorWebhookMetrics(OperatorMetrics metrics) {
		return metrics.webhookMetrics();
	}

	@Bean
	@Lazy
	CertificateMetrics operatorCertificateMetrics(OperatorMetrics metrics) {
		return metrics.certificateMetrics();
	}

	@Bean
	ManagerBuilderCustomizer operatorMetricsManagerBuilderCustomizer(OperatorMetrics metrics) {
		return metrics::applyTo;
	}

	@Bean
	static BeanPostProcessor operatorMetricsBeanPostProcessor(ObjectProvider<MeterRegistry> registry,
			ObjectProvider<OperatorMetrics> metrics) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
				if (bean instanceof ApiClient client) {
					RestClientMetricsInterceptor.instrument(client, registry.getObject());
				}
				else if (bean instanceof Manager manager) {
					metrics.getObject().bindTo(manager);
				}
				else if (bean instanceof ShardRing ring) {
					metrics.getObject().bindTo(ring);
				}
				else if (bean instanceof Fleet fleet) {
					metrics.getObject().bindTo(fleet);
				}
				return bean;
			}

		};
	}

}
