package io.kubeboot.operator.autoconfigure;

import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Leader election: with it, controllers and leader-only runnables run on one replica at a
 * time; the others keep their caches warm and take over when the leader goes away. The
 * values follow the rules of {@link LeaderElectionConfig}; the timings of the Lease are
 * those of {@link LeaseTimingsProperties}.
 */
@ConfigurationProperties(prefix = "operator.leader-election", ignoreUnknownFields = false)
public class OperatorLeaderElectionProperties extends LeaseTimingsProperties {

	/**
	 * Whether to elect a leader. Turn it on whenever the operator runs with more than one
	 * replica.
	 */
	private boolean enabled = false;

	/**
	 * Name of the Lease. Defaults to "<spring.application.name>-leader", or
	 * "operator-leader" without an application name.
	 */
	private @Nullable String leaseName;

	/**
	 * Namespace of the Lease. Defaults to the pod's namespace (from its service account),
	 * else "default".
	 */
	private @Nullable String namespace;

	/**
	 * Identity of this replica in the Lease. Defaults to the host name, an underscore and
	 * a random UUID.
	 */
	private @Nullable String identity;

	/**
	 * Whether a leader shutting down clears the Lease once its controllers and
	 * leader-only runnables have stopped, so a standby takes over within a retry period
	 * instead of a lease duration.
	 */
	private boolean releaseOnShutdown = true;

	/**
	 * What a replica does when it loses the Lease: exit (halt with status 1, skipping
	 * graceful shutdown) or re-elect (stop every controller and leader-only runnable,
	 * then campaign again).
	 */
	private LostLeasePolicy lostLeasePolicy = LostLeasePolicy.EXIT;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getLeaseName() {
		return this.leaseName;
	}

	public void setLeaseName(@Nullable String leaseName) {
		this.leaseName = leaseName;
	}

	public @Nullable String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(@Nullable String namespace) {
		this.namespace = namespace;
	}

	public @Nullable String getIdentity() {
		return this.identity;
	}

	public void setIdentity(@Nullable String identity) {
		this.identity = identity;
	}

	public boolean isReleaseOnShutdown() {
		return this.releaseOnShutdown;
	}

	public void setReleaseOnShutdown(boolean releaseOnShutdown) {
		this.releaseOnShutdown = releaseOnShutdown;
	}

	public LostLeasePolicy getLostLeasePolicy() {
		return this.lostLeasePolicy;
	}

	public void setLostLeasePolicy(LostLeasePolicy lostLeasePolicy) {
		this.lostLeasePolicy = lostLeasePolicy;
	}

}
