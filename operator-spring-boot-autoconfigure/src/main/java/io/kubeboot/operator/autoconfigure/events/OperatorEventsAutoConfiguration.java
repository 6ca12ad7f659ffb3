package io.kubeboot.operator.autoconfigure.events;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.OperatorEventsProperties;
import io.kubeboot.operator.events.EventRecorder;
import io.kubeboot.operator.events.KubernetesEventRecorder;
import io.kubeboot.operator.manager.Manager;
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
 * {@code operator}. The recorder writes while the {@link Manager} runs it: it is added to
 * the manager as the runnable {@value #RUNNABLE_NAME}, which runs on every replica,
 * starts once the caches have synced and stops (flushing pending events) after the
 * leader-only runnables, so events recorded by the last reconciles are written. Without a
 * {@code Manager} bean there is nothing to run it, and no recorder is created.
 */
@AutoConfiguration(after = OperatorAutoConfiguration.class)
@ConditionalOnClass({ ApiClient.class, EventRecorder.class, Manager.class })
@ConditionalOnBean({ ApiClient.class, Manager.class })
@ConditionalOnBooleanProperty(name = "operator.events.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OperatorEventsProperties.class)
public final class OperatorEventsAutoConfiguration {

	/**
	 * The name of the recorder's runnable in the manager.
	 */
	static final String RUNNABLE_NAME = "event-recorder";

	/**
	 * The recorder, added to the manager here rather than collected with the other
	 * {@code Runnable} beans, to run under {@value #RUNNABLE_NAME}; the recorder depends
	 * on the manager, never the reverse. The context closes it too, which does nothing
	 * once the manager has stopped it, and writes what is pending if the manager never
	 * started.
	 * @param apiClient the client for the cluster
	 * @param manager the manager that runs the recorder
	 * @param properties the {@code operator.events.*} properties
	 * @param environment the environment holding {@code spring.application.name}
	 * @return the recorder
	 */
	@Bean
	@ConditionalOnMissingBean(EventRecorder.class)
	KubernetesEventRecorder operatorEventRecorder(ApiClient apiClient, Manager manager,
			OperatorEventsProperties properties, Environment environment) {
		String component = properties.getComponent();
		if (!StringUtils.hasText(component)) {
			component = environment.getProperty("spring.application.name");
		}
		if (!StringUtils.hasText(component)) {
			component = "operator";
		}
		// the properties were checked with the operator's others, against the recorder's
		// rules (EventRecorderConfig)
		KubernetesEventRecorder recorder = KubernetesEventRecorder.builder(apiClient)
			.component(component)
			.queueCapacity(properties.getQueueCapacity())
			.aggregationInterval(properties.getAggregationInterval())
			.qps(properties.getQps())
			.burst(properties.getBurst())
			.flushTimeout(properties.getFlushTimeout())
			.api(properties.getApi())
			.build();
		manager.add(RUNNABLE_NAME, recorder);
		return recorder;
	}

}
