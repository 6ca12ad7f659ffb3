package io.kubeboot.operator.micrometer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The {@code workqueue_*{name,controller}} series of one controller's work queue, as
 * controller-runtime's work queue metrics provider exports them (both labels carry the
 * controller name). The two histograms use controller-runtime's buckets,
 * {@code prometheus.ExponentialBuckets(10e-9, 10, 12)}: 10ns to 1000s by factors of ten.
 * <p>
 * One instance serves every queue the controller creates (one per start); the unfinished
 * work and longest running processor gauges are sampled from the controller's current
 * queue.
 */
final class MicrometerWorkQueueMetrics implements WorkQueueMetrics {

	/** The bucket count of controller-runtime's work queue histograms. */
	static final int DURATION_BUCKET_COUNT = 12;

	private final AtomicInteger depth = new AtomicInteger();

	private final Counter adds;

	private final Counter retries;

	private final Timer queueDuration;

	private final Timer workDuration;

	MicrometerWorkQueueMetrics(MeterRegistry registry, String name, Supplier<Number> unfinishedWorkSeconds,
			Supplier<Number> longestRunningProcessorSeconds) {
		Tags tags = Tags.of("name", name, "controller", name);
		Gauge.builder("workqueue.depth", this.depth::get)
			.description("Current depth of workqueue")
			.tags(tags)
			.register(registry);
		this.adds = Counter.builder("workqueue.adds")
			.description("Total number of adds handled by workqueue")
			.tags(tags)
			.register(registry);
		this.retries = Counter.builder("workqueue.retries")
			.description("Total number of retries handled by workqueue")
			.tags(tags)
			.register(registry);
		this.queueDuration = durationTimer(registry, "workqueue.queue.duration",
				"How long in seconds an item stays in workqueue before being requested", tags);
		this.workDuration = durationTimer(registry, "workqueue.work.duration",
				"How long in seconds processing an item from workqueue takes", tags);
		Gauge.builder("workqueue.unfinished.work.seconds", unfinishedWorkSeconds)
			.description("How many seconds of work is in progress and not yet observed by work_duration; "
					+ "large values indicate stuck workers")
			.baseUnit("seconds")
			.tags(tags)
			.register(registry);
		Gauge.builder("workqueue.longest.running.processor.seconds", longestRunningProcessorSeconds)
			.description("How many seconds the longest running processor of the workqueue has been running")
			.baseUnit("seconds")
			.tags(tags)
			.register(registry);
	}

	private static Timer durationTimer(MeterRegistry registry, String name, String description, Tags tags) {
		return Timer.builder(name)
			.description(description)
			.tags(tags)
			.publishPercentileHistogram(false)
			.serviceLevelObjectives(durationBuckets())
			.register(registry);
	}

	static Duration[] durationBuckets() {
		Duration[] buckets = new Duration[DURATION_BUCKET_COUNT];
		long nanos = 10;
		for (int i = 0; i < buckets.length; i++) {
			buckets[i] = Duration.ofNanos(nanos);
			nanos *= 10;
		}
		return buckets;
	}

	@Override
	public void added() {
		this.adds.increment();
	}

	@Override
	public void depth(int depth) {
		this.depth.set(depth);
	}

	@Override
	public void queueLatency(long nanos) {
		this.queueDuration.record(nanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public void workDuration(long nanos) {
		this.workDuration.record(nanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public void retried() {
		this.retries.increment();
	}

}
