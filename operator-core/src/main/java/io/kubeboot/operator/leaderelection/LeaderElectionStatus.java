package io.kubeboot.operator.leaderelection;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * What this replica knows about the election it takes part in, for probes, metrics and
 * endpoints. Every method reads in-memory state: thread-safe, never blocking.
 */
public interface LeaderElectionStatus {

	/**
	 * Returns the election's settings.
	 * @return the configuration
	 */
	LeaderElectionConfig config();

	/**
	 * Whether this replica holds the Lease, as far as it knows.
	 * @return {@code true} between a successful acquisition and the end of its term
	 */
	boolean isLeader();

	/**
	 * Returns the holder of the Lease this replica saw last.
	 * @return the holder's identity, or {@code null} if none was seen
	 */
	@Nullable String observedLeader();

	/**
	 * Returns how long ago this replica last acquired or renewed the Lease, also after it
	 * stopped leading.
	 * @return the time since the last renewal, or {@code null} if it never held the Lease
	 */
	@Nullable Duration sinceLastRenewal();

	/**
	 * Returns the last error talking to the API server about the Lease.
	 * @return the error, or {@code null} if the last request succeeded
	 */
	@Nullable String lastError();

}
