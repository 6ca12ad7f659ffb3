package io.kubeboot.operator.autoconfigure.events;

import java.util.Locale;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.OperatorEventsProperties;
import io.kubeboot.operator.config.internal.ConfigChecks;
import io.kubeboot.operator.events.EventApi;
import io.kubeboot.operator.events.EventRecorder;
import io.kubeboot.operator.events.EventRecorderConfig;
import io.kubeboot.operator.events.KubernetesEventRecorder;
import io.kubeboot.operator.manager.Manager;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
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
 * {@code operator.events.component}, else {@code spring.application.name} (made into a
 * Kubernetes qualified name if it is none and {@code events.k8s.io/v1} Events may be
 * written), else {@code operator}. The recorder writes while the {@link Manager} runs it:
 * it is added to the manager as the runnable {@value #RUNNABLE_NAME}, which runs on every
 * replica, starts once the caches have synced and stops (flushing pending events) after
 * the leader-only runnables, so events recorded by the last reconciles are written.
 * Without a {@code Manager} bean there is nothing to run it, and no recorder is created.
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
			component = componentOf(environment.getProperty("spring.application.name"), properties.getApi());
		}
		// the properties were checked with the operator's others, against the recorder's
		// rules (EventRecorderConfig)
		KubernetesEventRecorder recorder = KubernetesEventRecorder.builder(apiClient)
			.api(properties.getApi())
			.component(component)
			.queueCapacity(properties.getQueueCapacity())
			.aggregationInterval(properties.getAggregationInterval())
			.qps(properties.getQps())
			.burst(properties.getBurst())
			.flushTimeout(properties.getFlushTimeout())
			.build();
		manager.add(RUNNABLE_NAME, recorder);
		return recorder;
	}

	/**
	 * Returns the component of an application that names none: its name if that is a
	 * Kubernetes qualified name, as the {@code reportingController} of
	 * {@code events.k8s.io/v1} Events must be, or if only {@code core/v1} Events are
	 * written; else the name made into one ({@code Shop Operator} becomes
	 * {@code shop-operator}); else {@code operator}.
	 * @param applicationName {@code spring.application.name}, or {@code null}
	 * @param api the API Events are written through
	 * @return the component
	 */
	static String componentOf(@Nullable String applicationName, EventApi api) {
		if (!StringUtils.hasText(applicationName)) {
			return EventRecorderConfig.DEFAULT.component();
		}
		if (api == EventApi.CORE_V1 || ConfigChecks.isQualifiedName(applicationName)) {
			return applicationName;
		}
		String made = applicationName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-");
		made = made.substring(0, Math.min(made.length(), 63)).replaceAll("^[^a-z0-9]+|[^a-z0-9]+$", "");
		return made.isEmpty() ? EventRecorderConfig.DEFAULT.component() : made;
	}

}
