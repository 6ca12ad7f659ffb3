package io.kubeboot.operator.autoconfigure.events;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.OperatorProperties;
import io.kubeboot.operator.events.EventRecorder;
import io.kubeboot.operator.events.KubernetesEventRecorder;
import io.kubernetes.client.openapi.ApiClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Auto-configures an {@link EventRecorder} that writes Kubernetes Events through the
 * application's {@link ApiClient}, unless the application defines its own recorder or
 * sets {@code operator.events.enabled=false}. The recorder's component is
 * {@code operator.events.component}, else {@code spring.application.name}, else
 * {@code operator}. The recorder is closed with the application context, after the
 * manager has stopped (lifecycle beans stop before any bean is destroyed), so events
 * recorded by the last reconciles are flushed.
 */
@AutoConfiguration(after = OperatorAutoConfiguration.class)
@ConditionalOnClass({ ApiClient.class, EventRecorder.class })
@ConditionalOnBean(ApiClient.class)
@ConditionalOnBooleanProperty(name = "operator.events.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OperatorProperties.class)
public final class OperatorEventsAutoConfiguration {

	/**
	 * The recorder, closed (flushing pending events) when the context closes.
	 * @param apiClient the client for the cluster
	 * @param properties the operator's properties, {@code operator.events.*} among them
	 * @param environment the environment holding {@code spring.application.name}
	 * @return the recorder
	 */
	@Bean
	@ConditionalOnMissingBean(EventRecorder.class)
	KubernetesEventRecorder operatorEventRecorder(ApiClient apiClient, OperatorProperties properties,
			Environment environment) {
		OperatorProperties.Events settings = properties.getEvents();
		String component = settings.getComponent();
		if (!StringUtils.hasText(component)) {
			component = environment.getProperty("spring.application.name");
		}
		if (!StringUtils.hasText(component)) {
			component = "operator";
		}
		try {
			return KubernetesEventRecorder.builder(apiClient)
				.component(component)
				.queueCapacity(settings.getQueueCapacity())
				.aggregationInterval(settings.getAggregationInterval())
				.qps(settings.getQps())
				.burst(settings.getBurst())
				.flushTimeout(settings.getFlushTimeout())
				.build();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("Invalid operator.events settings: " + ex.getMessage(), ex);
		}
	}

}
