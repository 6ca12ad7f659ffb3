package io.kubeboot.operator.autoconfigure;

import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import org.springframework.context.ApplicationEvent;

/**
 * A leadership transition seen by this replica, published as a Spring application event
 * on the leader election thread. Listen for the subclasses with {@code @EventListener}.
 */
public abstract class LeadershipEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final String identity;

	LeadershipEvent(LeaderElectionConfig source, String identity) {
		super(source);
		this.identity = identity;
	}

	/**
	 * Returns the election settings, which name the Lease.
	 * @return the settings
	 */
	public LeaderElectionConfig getLeaderElection() {
		return (LeaderElectionConfig) getSource();
	}

	/**
	 * Returns the identity the event is about: this replica's for started and stopped
	 * leading, the new holder's for a new leader.
	 * @return the identity
	 */
	public String getIdentity() {
		return this.identity;
	}

	/**
	 * This replica acquired the Lease; its controllers and leader-only runnables are
	 * about to start.
	 */
	public static class StartedLeading extends LeadershipEvent {

		private static final long serialVersionUID = 1L;

		StartedLeading(LeaderElectionConfig source, String identity) {
			super(source, identity);
		}

	}

	/**
	 * This replica stopped leading; its controllers and leader-only runnables have
	 * stopped.
	 */
	public static class StoppedLeading extends LeadershipEvent {

		private static final long serialVersionUID = 1L;

		private final boolean lost;

		StoppedLeading(LeaderElectionConfig source, String identity, boolean lost) {
			super(source, identity);
			this.lost = lost;
		}

		/**
		 * Whether the Lease was lost (rather than given up on shutdown).
		 * @return {@code true} on a lost Lease
		 */
		public boolean isLost() {
			return this.lost;
		}

	}

	/**
	 * A replica was observed holding the Lease for the first time.
	 */
	public static class NewLeader extends LeadershipEvent {

		private static final long serialVersionUID = 1L;

		NewLeader(LeaderElectionConfig source, String holder) {
			super(source, holder);
		}

	}

}
