package io.kubeboot.operator.autoconfigure.events;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The {@code operator.events.*} settings, bound with
 * {@link org.springframework.boot.context.properties.bind.Binder}. The defaults are those
 * of {@link io.kubeboot.operator.events.KubernetesEventRecorder.Builder}.
 */
final class EventsSettings {

	private boolean enabled = true;

	private @Nullable String component;

	private int queueCapacity = 1000;

	private Duration aggregationInterval = Duration.ofSeconds(1);

	private double qps = 10;

	private int burst = 25;

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
