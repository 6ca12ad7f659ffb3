package io.kubeboot.operator.autoconfigure;

import java.time.Duration;

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
	 * Component written to source.component and reportingComponent. Defaults to
	 * spring.application.name, else "operator".
	 */
	private @Nullable String component;

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
