package io.kubeboot.sample.storage;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.stereotype.Component;

/**
 * The controller's own metrics, served at {@code /actuator/prometheus} next to the
 * starter's:
 * <ul>
 * <li>{@code storagebucket_probes_total{result="available|unavailable"}}: probes by
 * outcome;</li>
 * <li>{@code storagebucket_probe_duration_seconds}: how long probes take (a histogram
 * with a few fixed buckets);</li>
 * <li>{@code storagebucket_buckets} and {@code storagebucket_available}: buckets in the
 * cache, and those of them whose {@code Available} condition is {@code True}.</li>
 * </ul>
 * No label names a bucket: a label per object would make one time series per bucket, and
 * Prometheus's memory grow with the cluster. Which bucket fails is what the status, the
 * Events and the logs tell.
 */
@Component
class BucketMetrics {

	private final Counter available;

	private final Counter unavailable;

	private final Timer duration;

	BucketMetrics(MeterRegistry registry, BucketInventory inventory) {
		this.available = probes(registry, "available");
		this.unavailable = probes(registry, "unavailable");
		this.duration = Timer.builder("storagebucket.probe.duration")
			.description("Duration of probes of bucket endpoints")
			.serviceLevelObjectives(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
					Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
					Duration.ofSeconds(10))
			.register(registry);
		// gauges are read at scrape time, straight from the cache
		Gauge.builder("storagebucket.buckets", inventory, (counts) -> counts.count().buckets())
			.description("StorageBuckets in the operator's cache")
			.register(registry);
		Gauge.builder("storagebucket.available", inventory, (counts) -> counts.count().available())
			.description("StorageBuckets whose Available condition is True")
			.register(registry);
	}

	private static Counter probes(MeterRegistry registry, String result) {
		return Counter.builder("storagebucket.probes")
			.description("Probes of bucket endpoints, by result")
			.tag("result", result)
			.register(registry);
	}

	/**
	 * Records a probe.
	 * @param probe what the probe found
	 */
	void probed(ProbeResult probe) {
		(probe.available() ? this.available : this.unavailable).increment();
		this.duration.record(probe.duration());
	}

}
