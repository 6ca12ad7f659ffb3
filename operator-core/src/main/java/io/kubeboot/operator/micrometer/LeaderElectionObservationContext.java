package io.kubeboot.operator.micrometer;

import io.micrometer.observation.Observation;

/**
 * The Micrometer context of the observation of a leader transition of this replica.
 */
public class LeaderElectionObservationContext extends Observation.Context {

	private final String lease;

	private final String identity;

	private final String transition;

	/**
	 * Creates the context of a transition.
	 * @param lease the Lease, {@code namespace/name}
	 * @param identity this replica's identity
	 * @param transition {@code acquired}, {@code lost} or {@code stopped}
	 */
	public LeaderElectionObservationContext(String lease, String identity, String transition) {
		this.lease = lease;
		this.identity = identity;
		this.transition = transition;
	}

	/**
	 * Returns the Lease.
	 * @return {@code namespace/name}
	 */
	public String getLease() {
		return this.lease;
	}

	/**
	 * Returns this replica's identity.
	 * @return the identity
	 */
	public String getIdentity() {
		return this.identity;
	}

	/**
	 * Returns what happened.
	 * @return {@code acquired}, {@code lost} or {@code stopped}
	 */
	public String getTransition() {
		return this.transition;
	}

}
