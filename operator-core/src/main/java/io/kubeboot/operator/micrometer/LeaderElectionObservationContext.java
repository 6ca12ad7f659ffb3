package io.kubeboot.operator.micrometer;

import io.micrometer.observation.Observation;

/**
 * The Micrometer context of the observation of a leadership of this replica: it starts
 * when the Lease is acquired and stops when the leadership is lost or stopped, with an
 * event for each transition, so that its span covers the term and its timer measures how
 * long terms last.
 */
public class LeaderElectionObservationContext extends Observation.Context {

	private final String lease;

	private final String identity;

	private volatile String transition;

	/**
	 * Creates the context of a leadership.
	 * @param lease the Lease, {@code namespace/name}
	 * @param identity this replica's identity
	 * @param transition the transition that starts it, {@code acquired}
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
	 * Returns the last transition.
	 * @return {@code acquired} while the leadership lasts, then how it ended:
	 * {@code lost} or {@code stopped}
	 */
	public String getTransition() {
		return this.transition;
	}

	/**
	 * Sets the last transition.
	 * @param transition {@code lost} or {@code stopped}
	 */
	public void setTransition(String transition) {
		this.transition = transition;
	}

}
