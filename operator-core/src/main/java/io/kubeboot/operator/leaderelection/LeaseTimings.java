package io.kubeboot.operator.leaderelection;

import java.time.Duration;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;

/**
 * The timings a Lease is held with, by a leader or by a member of a shard ring, following
 * client-go's rules: the others take over only after they have seen the Lease unchanged
 * for {@code leaseDuration}; its holder gives up once it has not renewed for
 * {@code renewDeadline}; both retry every {@code retryPeriod}. Hence
 * {@code leaseDuration > renewDeadline > retryPeriod > 0}, which the constructor
 * enforces, with a lease duration of at least a second, since a Lease stores whole
 * seconds.
 *
 * @param leaseDuration how long the others wait after the last observed change before
 * they take over (controller-runtime: 15s)
 * @param renewDeadline how long the holder keeps trying to renew before it gives up
 * (controller-runtime: 10s)
 * @param retryPeriod how often candidates try to acquire and the holder renews
 * (controller-runtime: 2s)
 */
public record LeaseTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

	/**
	 * controller-runtime's timings: 15s, 10s and 2s.
	 */
	public static final LeaseTimings DEFAULT = new LeaseTimings(Duration.ofSeconds(15), Duration.ofSeconds(10),
			Duration.ofSeconds(2));

	/**
	 * Creates the timings.
	 * @throws InvalidConfigException naming every timing that breaks the rules
	 */
	public LeaseTimings {
		ConfigChecks checks = new ConfigChecks();
		boolean lease = checks.notNull("leaseDuration", leaseDuration) && checks.check(leaseDuration.toMillis() >= 1000,
				"leaseDuration", leaseDuration, "must be at least 1s");
		boolean renew = checks.positive("renewDeadline", renewDeadline);
		boolean retry = checks.positive("retryPeriod", retryPeriod);
		if (lease && renew && retry) {
			checks.compare(renewDeadline.compareTo(leaseDuration) < 0, "renewDeadline", renewDeadline,
					"must be less than", "leaseDuration", leaseDuration);
			checks.compare(retryPeriod.compareTo(renewDeadline) < 0, "retryPeriod", retryPeriod, "must be less than",
					"renewDeadline", renewDeadline);
		}
		checks.throwIfAny();
	}

}
