package io.kubeboot.operator.leaderelection;

import java.time.Duration;
import java.util.Objects;

/**
 * How a replica campaigns for and holds the Lease. The timings follow client-go's rules:
 * a standby takes over only after it has seen the Lease unchanged for
 * {@code leaseDuration}; a leader gives up once it has not renewed for
 * {@code renewDeadline}; both retry every {@code retryPeriod}. Hence
 * {@code leaseDuration > renewDeadline > retryPeriod > 0}, which the constructor
 * enforces.
 *
 * @param namespace the namespace of the Lease
 * @param name the name of the Lease
 * @param identity this replica's identity, unique among the replicas
 * @param leaseDuration how long a standby waits after the last observed change before it
 * takes over (controller-runtime: 15s)
 * @param renewDeadline how long the leader keeps trying to renew before it gives up
 * (controller-runtime: 10s)
 * @param retryPeriod how often candidates try to acquire and the leader renews
 * (controller-runtime: 2s)
 * @param releaseOnShutdown whether a stopping leader clears the Lease after every
 * leader-only runnable has stopped, so a standby takes over at once
 * @param lostLeasePolicy what a replica does when it loses the Lease
 */
public record LeaderElectionConfig(String namespace, String name, String identity, Duration leaseDuration,
		Duration renewDeadline, Duration retryPeriod, boolean releaseOnShutdown, LostLeasePolicy lostLeasePolicy) {

	public LeaderElectionConfig {
		requireText(namespace, "namespace");
		requireText(name, "name");
		requireText(identity, "identity");
		Objects.requireNonNull(lostLeasePolicy, "lostLeasePolicy must not be null");
		requirePositive(leaseDuration, "leaseDuration");
		requirePositive(renewDeadline, "renewDeadline");
		requirePositive(retryPeriod, "retryPeriod");
		if (renewDeadline.compareTo(leaseDuration) >= 0) {
			throw new IllegalArgumentException(
					"renewDeadline (" + renewDeadline + ") must be less than leaseDuration (" + leaseDuration + ")");
		}
		if (retryPeriod.compareTo(renewDeadline) >= 0) {
			throw new IllegalArgumentException(
					"retryPeriod (" + retryPeriod + ") must be less than renewDeadline (" + renewDeadline + ")");
		}
		if (leaseDuration.toSeconds() < 1) {
			throw new IllegalArgumentException("leaseDuration must be at least 1s (the Lease stores whole seconds)");
		}
	}

	/**
	 * Returns how long one request to the API server about the Lease may take: half the
	 * renew deadline, and no more than the retry period, so that a hung request cannot
	 * keep a leader leading past its deadline.
	 * @return the request timeout
	 */
	public Duration requestTimeout() {
		Duration half = this.renewDeadline.dividedBy(2);
		return (half.compareTo(this.retryPeriod) < 0) ? half : this.retryPeriod;
	}

	private static void requireText(String value, String name) {
		if (value == null || value.isBlank()) {
			throw new IllegalArgumentException(name + " must not be empty");
		}
	}

	private static void requirePositive(Duration value, String name) {
		Objects.requireNonNull(value, name + " must not be null");
		if (value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(name + " must be positive, was " + value);
		}
	}

}
