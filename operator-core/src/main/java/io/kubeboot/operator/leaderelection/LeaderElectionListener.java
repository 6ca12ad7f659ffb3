package io.kubeboot.operator.leaderelection;

/**
 * Observes leadership transitions of this replica. Called on the elector's thread: keep
 * it quick and do not throw. Every method does nothing by default.
 */
public interface LeaderElectionListener {

	/**
	 * This replica acquired the Lease; its leader-only runnables are about to start.
	 * @param identity this replica's identity
	 */
	default void startedLeading(String identity) {
	}

	/**
	 * This replica stopped leading and its leader-only runnables have stopped.
	 * @param identity this replica's identity
	 * @param lost {@code true} if the Lease was lost, {@code false} on a shutdown
	 */
	default void stoppedLeading(String identity, boolean lost) {
	}

	/**
	 * A holder of the Lease was observed for the first time (this replica or another).
	 * @param holder the identity of the new holder
	 */
	default void newLeader(String holder) {
	}

}
