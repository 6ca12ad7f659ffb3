package io.kubeboot.operator.leaderelection;

import java.time.Duration;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;

/**
 * How a replica campaigns for and holds the Lease. The timings follow client-go's rules
 * (see {@link LeaseTimings}): a standby takes over only after it has seen the Lease
 * unchanged for {@code leaseDuration}; a leader gives up once it has not renewed for
 * {@code renewDeadline}; both retry every {@code retryPeriod}. The constructor checks
 * every value and names each one at fault.
 *
 * @param namespace the namespace of the Lease, an RFC 1123 label
 * @param name the name of the Lease, an RFC 1123 subdomain
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

	/**
	 * Whether a stopping leader clears the Lease unless configured otherwise.
	 */
	public static final boolean DEFAULT_RELEASE_ON_SHUTDOWN = true;

	/**
	 * What a replica does when it loses the Lease unless configured otherwise:
	 * controller-runtime's, exit.
	 */
	public static final LostLeasePolicy DEFAULT_LOST_LEASE_POLICY = LostLeasePolicy.EXIT;

	/**
	 * Creates the configuration.
	 * @throws InvalidConfigException naming every value that breaks the rules
	 */
	public LeaderElectionConfig {
		ConfigChecks checks = new ConfigChecks();
		checks.dnsLabel("namespace", namespace);
		checks.dnsSubdomain("name", name);
		checks.notBlank("identity", identity);
		checks.include(() -> new LeaseTimings(leaseDuration, renewDeadline, retryPeriod));
		checks.notNull("lostLeasePolicy", lostLeasePolicy);
		checks.throwIfAny();
	}

	/**
	 * Returns the timings of the Lease.
	 * @return the lease duration, renew deadline and retry period
	 */
	public LeaseTimings timings() {
		return new LeaseTimings(this.leaseDuration, this.renewDeadline, this.retryPeriod);
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

}
