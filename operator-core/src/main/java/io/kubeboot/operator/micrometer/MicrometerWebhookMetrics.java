package io.kubeboot.operator.micrometer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.metrics.WebhookMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The {@code controller_runtime_webhook_*{webhook}} series of the webhook server, under
 * controller-runtime's names: {@code controller_runtime_webhook_requests_total{webhook,
 * code}}, {@code controller_runtime_webhook_latency_seconds{webhook}} (histogram),
 * {@code controller_runtime_webhook_requests_in_flight{webhook}} and
 * {@code controller_runtime_webhook_panics_total}.
 */
final class MicrometerWebhookMetrics implements WebhookMetrics {

	/**
	 * controller-runtime's {@code controller_runtime_webhook_latency_seconds} buckets.
	 */
	private static final double[] LATENCY_BUCKETS = { 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10 };

	private final MeterRegistry registry;

	private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

	private final Counter panics;

	MicrometerWebhookMetrics(MeterRegistry registry) {
		this.registry = registry;
		this.panics = Counter.builder("controller.runtime.webhook.panics")
			.description("Total number of webhook panics")
			.register(registry);
	}

	@Override
	public void started(String webhook) {
		inFlight(webhook).incrementAndGet();
	}

	@Override
	public void answered(String webhook, int code, long nanos) {
		inFlight(webhook).decrementAndGet();
		Counter.builder("controller.runtime.webhook.requests")
			.description("Total number of admission requests by HTTP status code")
			.tag("webhook", webhook)
			.tag("code", String.valueOf(code))
			.register(this.registry)
			.increment();
		Timer.builder("controller.runtime.webhook.latency")
			.description("Histogram of the latency of processing admission requests")
			.tag("webhook", webhook)
			.publishPercentileHistogram(false)
			.serviceLevelObjectives(MicrometerControllerMetrics.durations(LATENCY_BUCKETS))
			.register(this.registry)
			.record(nanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public void panicked(String webhook) {
		this.panics.increment();
	}

	private AtomicInteger inFlight(String webhook) {
		return this.inFlight.computeIfAbsent(webhook, (path) -> {
			AtomicInteger count = new AtomicInteger();
			Gauge.builder("controller.runtime.webhook.requests.in.flight", count, AtomicInteger::get)
				.description("Current number of admission requests being served")
				.tag("webhook", path)
				.register(this.registry);
			return count;
		});
	}

}
