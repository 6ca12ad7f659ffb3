package io.kubeboot.operator.sharding;

import java.time.Duration;
import java.util.Locale;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaseTimings;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.sharding.internal.ShardLabels;

/**
 * How a replica takes part in a ring of sharded controllers: the ring it joins, where its
 * Lease lives, and the timings it renews that Lease with, which follow leader election's
 * rules ({@link LeaseTimings}): a replica stops reconciling its share once it has not
 * renewed for {@code renewDeadline}; the others take its objects over only after they
 * have seen its Lease unchanged for {@code leaseDuration}. The constructor checks every
 * value and names each one at fault.
 *
 * @param namespace the namespace of the ring's Leases, an RFC 1123 label
 * @param ringName the ring's name, a label value (at most 63 characters): the Leases of
 * its members carry it in the label {@value ShardRing#RING_LABEL}
 * @param identity this replica's identity, unique among the replicas (no commas)
 * @param leaseDuration how long the others wait after the last observed change of this
 * replica's Lease before they count it dead (controller-runtime's leader election: 15s)
 * @param renewDeadline how long this replica keeps trying to renew before it stops
 * reconciling (10s)
 * @param retryPeriod how often this replica renews its Lease and reads the others' (2s)
 * @param virtualNodes the tokens each member places on the hash ring (100, at most 1000);
 * every member of a ring must use the same number
 * @param mode how the objects are shared: every replica caches every object and
 * reconciles its own ({@link Mode#FILTER}), or a sharder on the leader labels each object
 * with its replica and every replica caches only its own ({@link Mode#LABEL})
 */
public record ShardingConfig(String namespace, String ringName, String identity, Duration leaseDuration,
		Duration renewDeadline, Duration retryPeriod, int virtualNodes, Mode mode) {

	/** The tokens each member places on the ring unless configured. */
	public static final int DEFAULT_VIRTUAL_NODES = 100;

	/**
	 * The most tokens a member may place on the ring: every replica holds and sorts the
	 * tokens of every member each time the ring changes.
	 */
	public static final int MAX_VIRTUAL_NODES = 1000;

	/** How the objects are shared unless configured. */
	public static final Mode DEFAULT_MODE = Mode.FILTER;

	/**
	 * The rule a ring's name follows.
	 */
	static final String RING_NAME_RULE = "must be a label value: at most 63 letters, digits, '-', '_' or '.', "
			+ "starting and ending with a letter or digit";

	/**
	 * Creates the settings.
	 * @throws InvalidConfigException naming every value that breaks the rules
	 */
	public ShardingConfig {
		ConfigChecks checks = new ConfigChecks();
		checks.dnsLabel("namespace", namespace);
		checks.check(ringName != null && isValidRingName(ringName), "ringName", ringName, RING_NAME_RULE);
		if (checks.notBlank("identity", identity)) {
			checks.check(!identity.contains(","), "identity", identity,
					"must not contain ',' (the ring's Leases list identities separated by commas)");
		}
		checks.include(() -> new LeaseTimings(leaseDuration, renewDeadline, retryPeriod));
		checks.check(virtualNodes >= 1 && virtualNodes <= MAX_VIRTUAL_NODES, "virtualNodes", virtualNodes,
				"must be between 1 and " + MAX_VIRTUAL_NODES);
		checks.notNull("mode", mode);
		checks.throwIfAny();
	}

	/**
	 * Creates the settings of the filter-based mode.
	 * @param namespace the namespace of the ring's Leases
	 * @param ringName the ring's name
	 * @param identity this replica's identity
	 * @param leaseDuration the lease duration
	 * @param renewDeadline the renew deadline
	 * @param retryPeriod the retry period
	 * @param virtualNodes the tokens each member places on the hash ring
	 */
	public ShardingConfig(String namespace, String ringName, String identity, Duration leaseDuration,
			Duration renewDeadline, Duration retryPeriod, int virtualNodes) {
		this(namespace, ringName, identity, leaseDuration, renewDeadline, retryPeriod, virtualNodes, Mode.FILTER);
	}

	/**
	 * How the objects of the sharded controllers are shared.
	 */
	public enum Mode {

		/**
		 * Every replica caches every object and reconciles the ones the ring gives it;
		 * nothing is written to the objects.
		 */
		FILTER,

		/**
		 * A sharder on the leader labels every object with the replica the ring gives it
		 * to, and every replica caches only the objects labelled with its own id.
		 */
		LABEL

	}

	/**
	 * Returns the name of this replica's Lease: the ring's name and the identity, lower
	 * case, with every character a Lease name cannot hold replaced by {@code -}, and a
	 * hash of the identity appended if anything was replaced or cut.
	 * @return the Lease name
	 */
	public String leaseName() {
		String wanted = this.ringName + "-" + this.identity;
		String cleaned = wanted.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
		if (cleaned.equals(wanted) && cleaned.length() <= 253 && Character.isLetterOrDigit(cleaned.charAt(0))
				&& Character.isLetterOrDigit(cleaned.charAt(cleaned.length() - 1))) {
			return cleaned;
		}
		String hash = Integer.toHexString(this.identity.hashCode());
		String head = cleaned.substring(0, Math.min(cleaned.length(), 240)).replaceAll("[-.]+$", "");
		return head + "-" + hash;
	}

	/**
	 * Returns the settings of this replica's Lease as leader election sees them: a Lease
	 * only this replica ever holds, released on a graceful stop.
	 * @return the Lease settings
	 */
	public LeaderElectionConfig leaseConfig() {
		return new LeaderElectionConfig(this.namespace, leaseName(), this.identity, this.leaseDuration,
				this.renewDeadline, this.retryPeriod, true, LostLeasePolicy.RE_ELECT);
	}

	/**
	 * Whether a name can name a ring: it is a label value (at most 63 letters, digits,
	 * '-', '_' or '.', starting and ending with a letter or digit), since it labels the
	 * ring's Leases.
	 * @param name the name
	 * @return {@code true} if it can
	 */
	public static boolean isValidRingName(String name) {
		return ShardLabels.isLabelValue(name);
	}

}
