package io.kubeboot.operator.autoconfigure;

import java.time.Duration;

import io.kubeboot.operator.events.EventApi;
import io.kubeboot.operator.events.EventRecorderConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Kubernetes Events about reconciled objects, written through the EventRecorder bean. The
 * values follow the rules of {@link EventRecorderConfig}.
 */
@ConfigurationProperties(prefix = "operator.events", ignoreUnknownFields = false)
public class OperatorEventsProperties {

	/**
	 * Whether to create the EventRecorder bean.
	 */
	private boolean enabled = true;

	/**
	 * Component written to reportingController (events.k8s.io/v1), or source.component
	 * and reportingComponent (core/v1): a Kubernetes qualified name unless api is
	 * core-v1. Defaults to spring.application.name (made into a qualified name unless api
	 * is core-v1: "Shop Operator" becomes "shop-operator"), else "operator".
	 */
	private @Nullable String component;

	/**
	 * API the Events are written through: auto (events.k8s.io/v1 where the API server
	 * serves it and RBAC allows it, core/v1 otherwise), events-v1 or core-v1.
	 */
	private EventApi api = EventApi.AUTO;

	/**
	 * How many distinct events may wait to be written; more are dropped and counted.
	 */
	private int queueCapacity = 1000;

	/**
	 * Shortest time between two writes of the same Event; identical events recorded
	 * meanwhile add to its count.
	 */
	private Duration aggregationInterval = Duration.ofSeconds(1);

	/**
	 * Event writes per second across all Events.
	 */
	private double qps = 10;

	/**
	 * Event writes allowed at once above the qps rate.
	 */
	private int burst = 25;

	/**
	 * How long stopping the recorder on shutdown may take to write pending events.
	 */
	private Duration flushTimeout = Duration.ofSeconds(5);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getComponent() {
		return this.component;
	}

	public void setComponent(@Nullable String component) {
		this.component = component;
	}

	public EventApi getApi() {
		return this.api;
	}

	public void setApi(EventApi api) {
		this.api = api;
	}

	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	public void setQueueCapacity(int queueCapacity) {
		this.queueCapacity = queueCapacity;
	}

	public Duration getAggregationInterval() {
		return this.aggregationInterval;
	}

	public void setAggregationInterval(Duration aggregationInterval) {
		this.aggregationInterval = aggregationInterval;
	}

	public double getQps() {
		return this.qps;
	}

	public void setQps(double qps) {
		this.qps = qps;
	}

	public int getBurst() {
		return this.burst;
	}

	public void setBurst(int burst) {
		this.burst = burst;
	}

	public Duration getFlushTimeout() {
		return this.flushTimeout;
	}

	public void setFlushTimeout(Duration flushTimeout) {
		this.flushTimeout = flushTimeout;
	}

}
