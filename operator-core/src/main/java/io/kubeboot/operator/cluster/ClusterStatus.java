package io.kubeboot.operator.cluster;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What a fleet knows about one cluster its providers named.
 *
 * @param name the cluster's name
 * @param provider the index of the provider that named it, in the order they were added
 * @param state where its engagement is
 * @param error why it is not running: the last failed start, or why its provider refused
 * it; {@code null} while running
 * @param since when it entered this state
 */
public record ClusterStatus(String name, int provider, State state, @Nullable String error, Instant since) {

	/**
	 * Where a cluster's engagement is.
	 */
	public enum State {

		/**
		 * Its caches are starting, or its last start failed (see
		 * {@link ClusterStatus#error()}) and it is retried after a backoff.
		 */
		STARTING,

		/** Its caches synced and its controllers run. */
		RUNNING,

		/**
		 * Its provider cannot engage it (an invalid kubeconfig, say), or the fleet
		 * controllers cannot be built for it; until it is reported again.
		 */
		REFUSED,

		/**
		 * In a fleet shared over a shard ring: named by its provider, and engaged by the
		 * replica the ring gives it to (none while this replica cannot tell, its shard
		 * Lease not valid).
		 */
		ELSEWHERE

	}

}
