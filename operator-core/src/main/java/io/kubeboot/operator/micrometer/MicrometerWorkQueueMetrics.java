package io.kubeboot.operator.micrometer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

/**
 * The {@code workqueue_*{name,controller}} series of one controller's work queue, as
 * controller-runtime's work queue metrics provider exports them (both labels carry the
 * controller name). The two histograms use controller-runtime's buckets,
 * {@code prometheus.ExponentialBuckets(10e-9, 10, 12)}: 10ns to 1000s by factors of ten.
 * <p>
 * {@code workqueue_depth} also has controller-runtime's {@code priority} label: one
 * series per priority seen for a priority queue ({@code "0"}, {@code "-100"}), the first
 * 25 of them, and then one {@code exceeded_cardinality_limit} series for the others; a
 * single series with {@code priority=""} for a queue without priorities. The first call a
 * queue makes when created tells which it is.
 * <p>
 * One instance serves every queue the controller creates (one per start); the unfinished
 * work and longest running processor gauges are sampled from the controller's current
 * queue.
 */
final class MicrometerWorkQueueMetrics implements WorkQueueMetrics {

	/** The bucket count of controller-runtime's work queue histograms. */
	static final int DURATION_BUCKET_COUNT = 12;

	/** controller-runtime's {@code maxRecommendedUniquePriorities}. */
	static final int MAX_PRIORITY_SERIES = 25;

	static final String EXCEEDED_PRIORITIES = "exceeded_cardinality_limit";

	private static final String DEPTH = "workqueue.depth";

	private static final String DEPTH_DESCRIPTION = "Current depth of workqueue by workqueue and priority";

	private final MeterRegistry registry;

	private final Tags tags;

	/** Ready items per priority of a priority queue. */
	private final Map<Integer, AtomicInteger> depths = new ConcurrentHashMap<>();

	/** The priorities without a series of their own, beyond the cardinality limit. */
	private final Map<Integer, AtomicInteger> exceeded = new ConcurrentHashMap<>();

	/** Ready items of a queue without priorities, {@code null} until it first reports. */
	private volatile @Nullable AtomicInteger depth;

	/** Whether a priority queue reported; decided by the first depth a queue reports. */
	private volatile boolean prioritized;

	private final Counter adds;

	private final Counter retries;

	private final Timer queueDuration;

	private final Timer workDuration;

	MicrometerWorkQueueMetrics(MeterRegistry registry, String name, Supplier<Number> unfinishedWorkSeconds,
			Supplier<Number> longestRunningProcessorSeconds) {
		Tags tags = Tags.of("name", name, "controller", name);
		this.registry = registry;
		this.tags = tags;
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
		if (this.prioritized) {
			return;
		}
		AtomicInteger unprioritized = this.depth;
		if (unprioritized == null) {
			synchronized (this) {
				unprioritized = this.depth;
				if (unprioritized == null) {
					unprioritized = depthGauge("");
					this.depth = unprioritized;
				}
			}
		}
		unprioritized.set(depth);
	}

	@Override
	public void depth(int priority, int depth) {
		this.prioritized = true;
		AtomicInteger series = this.depths.get(priority);
		if (series == null) {
			series = this.exceeded.get(priority);
		}
		if (series == null) {
			series = register(priority);
		}
		series.set(depth);
	}

	private synchronized AtomicInteger register(int priority) {
		AtomicInteger series = this.depths.get(priority);
		if (series == null) {
			series = this.exceeded.get(priority);
		}
		if (series != null) {
			return series;
		}
		if (this.depths.size() < MAX_PRIORITY_SERIES) {
			series = depthGauge(String.valueOf(priority));
			this.depths.put(priority, series);
			return series;
		}
		if (this.exceeded.isEmpty()) {
			Gauge.builder(DEPTH, this.exceeded, MicrometerWorkQueueMetrics::sum)
				.strongReference(true)
				.description(DEPTH_DESCRIPTION)
				.tags(this.tags.and("priority", EXCEEDED_PRIORITIES))
				.register(this.registry);
		}
		series = new AtomicInteger();
		this.exceeded.put(priority, series);
		return series;
	}

	private AtomicInteger depthGauge(String priority) {
		AtomicInteger value = new AtomicInteger();
		Gauge.builder(DEPTH, value, AtomicInteger::get)
			.strongReference(true)
			.description(DEPTH_DESCRIPTION)
			.tags(this.tags.and("priority", priority))
			.register(this.registry);
		return value;
	}

	private static double sum(Map<Integer, AtomicInteger> depths) {
		return depths.values().stream().mapToInt(AtomicInteger::get).sum();
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
