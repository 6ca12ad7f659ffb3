package io.kubeboot.operator.autoconfigure;

import java.time.Duration;

import io.kubeboot.operator.leaderelection.LeaseTimings;

/**
 * The timings a Lease is held with, leader election's ({@code operator.leader-election})
 * or a shard's ({@code operator.sharding}): {@code lease-duration},
 * {@code renew-deadline} and {@code retry-period} under either prefix. The defaults and
 * rules are those of {@link LeaseTimings}:
 * {@code lease-duration > renew-deadline > retry-period > 0}.
 */
public abstract class LeaseTimingsProperties {

	/**
	 * How long the other replicas wait, after they last saw the Lease change, before they
	 * take over from its holder: the leadership, or a shard's objects.
	 */
	private Duration leaseDuration = Duration.ofSeconds(15);

	/**
	 * How long the holder keeps trying to renew the Lease before it gives up: the
	 * leadership, or reconciling its shard's objects. Must be less than lease-duration.
	 */
	private Duration renewDeadline = Duration.ofSeconds(10);

	/**
	 * How often a replica tries to acquire or renew the Lease (and, for a shard, reads
	 * the ring). Must be less than renew-deadline.
	 */
	private Duration retryPeriod = Duration.ofSeconds(2);

	public Duration getLeaseDuration() {
		return this.leaseDuration;
	}

	public void setLeaseDuration(Duration leaseDuration) {
		this.leaseDuration = leaseDuration;
	}

	public Duration getRenewDeadline() {
		return this.renewDeadline;
	}

	public void setRenewDeadline(Duration renewDeadline) {
		this.renewDeadline = renewDeadline;
	}

	public Duration getRetryPeriod() {
		return this.retryPeriod;
	}

	public void setRetryPeriod(Duration retryPeriod) {
		this.retryPeriod = retryPeriod;
	}

}
