package io.kubeboot.operator.benchmarks.child;

import java.time.Duration;
import java.util.Map;

/**
 * What an operator process under test is asked to do, read from environment variables the
 * harness sets (so that every implementation runs with identical JVM flags).
 *
 * @param namespace the namespace whose widgets to reconcile
 * @param expectedStatuses after how many distinct status writes to report
 * {@code drained}; {@code 0} for never
 * @param expectedReconciles after how many reconciles to report {@code reconciled};
 * {@code 0} for never
 * @param leaseName the Lease to elect a leader on, or {@code null} for no leader election
 * @param leaseDuration the lease duration
 * @param renewDeadline the renew deadline
 * @param retryPeriod the retry period
 * @param priorityQueue whether our implementations use the priority work queue (their
 * default)
 * @param sharding the sharding mode of our Spring implementation, {@code null} for none
 * @param identity the replica's identity, {@code null} for a generated one
 * @param streamingLists whether our implementations' caches stream their lists
 */
public record ChildSettings(String namespace, int expectedStatuses, int expectedReconciles, String leaseName,
		Duration leaseDuration, Duration renewDeadline, Duration retryPeriod, boolean priorityQueue, String sharding,
		String identity, boolean streamingLists) {

	/**
	 * The namespace to watch.
	 */
	public static final String NAMESPACE = "BENCH_NAMESPACE";

	/**
	 * The number of distinct objects whose status must be written before {@code drained}
	 * is reported.
	 */
	public static final String EXPECTED_STATUSES = "BENCH_EXPECTED_STATUSES";

	/**
	 * The number of reconciles after which {@code reconciled} is reported.
	 */
	public static final String EXPECTED_RECONCILES = "BENCH_EXPECTED_RECONCILES";

	/**
	 * The Lease name; leader election is on when set.
	 */
	public static final String LEASE_NAME = "BENCH_LEASE_NAME";

	/**
	 * The lease duration in milliseconds.
	 */
	public static final String LEASE_DURATION = "BENCH_LEASE_DURATION_MS";

	/**
	 * The renew deadline in milliseconds.
	 */
	public static final String RENEW_DEADLINE = "BENCH_RENEW_DEADLINE_MS";

	/**
	 * The retry period in milliseconds.
	 */
	public static final String RETRY_PERIOD = "BENCH_RETRY_PERIOD_MS";

	/**
	 * {@code false} turns our implementations' priority work queue off.
	 */
	public static final String PRIORITY_QUEUE = "BENCH_PRIORITY_QUEUE";

	/**
	 * The sharding mode of our Spring implementation ({@code label} or {@code filter});
	 * the controller is sharded over the ring {@code benchmark} when set.
	 */
	public static final String SHARDING = "BENCH_SHARDING";

	/**
	 * The identity of the replica in leader election and in the ring; generated when not
	 * set.
	 */
	public static final String IDENTITY = "BENCH_IDENTITY";

	/**
	 * {@code false} turns our implementations' streaming lists off: their caches list in
	 * pages.
	 */
	public static final String STREAMING_LISTS = "BENCH_STREAMING_LISTS";

	/**
	 * Reads the settings from the process environment.
	 * @return the settings
	 */
	public static ChildSettings fromEnvironment() {
		return from(System.getenv());
	}

	static ChildSettings from(Map<String, String> environment) {
		String namespace = environment.get(NAMESPACE);
		if (namespace == null || namespace.isBlank()) {
			throw new IllegalStateException(NAMESPACE + " is not set");
		}
		String leaseName = environment.get(LEASE_NAME);
		return new ChildSettings(namespace, intValue(environment, EXPECTED_STATUSES, 0),
				intValue(environment, EXPECTED_RECONCILES, 0),
				(leaseName != null && !leaseName.isBlank()) ? leaseName : null,
				Duration.ofMillis(intValue(environment, LEASE_DURATION, 15_000)),
				Duration.ofMillis(intValue(environment, RENEW_DEADLINE, 10_000)),
				Duration.ofMillis(intValue(environment, RETRY_PERIOD, 2_000)),
				!"false".equalsIgnoreCase(environment.getOrDefault(PRIORITY_QUEUE, "true").strip()),
				blankToNull(environment.get(SHARDING)), blankToNull(environment.get(IDENTITY)),
				!"false".equalsIgnoreCase(environment.getOrDefault(STREAMING_LISTS, "true").strip()));
	}

	/**
	 * Whether leader election is on.
	 * @return whether a Lease name was given
	 */
	public boolean leaderElection() {
		return this.leaseName != null;
	}

	private static String blankToNull(String value) {
		return (value != null && !value.isBlank()) ? value.strip() : null;
	}

	private static int intValue(Map<String, String> environment, String name, int defaultValue) {
		String value = environment.get(name);
		return (value != null && !value.isBlank()) ? Integer.parseInt(value.strip()) : defaultValue;
	}

}
