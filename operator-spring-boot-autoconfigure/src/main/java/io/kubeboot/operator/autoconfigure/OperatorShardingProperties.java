package io.kubeboot.operator.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.sharding.ShardingConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Sharding: the sharded controllers run on every replica, and each replica reconciles
 * only its share of their objects, handed over between replicas so that no two ever
 * reconcile one object at once. The values follow the rules of {@link ShardingConfig};
 * the timings of each replica's Lease are those of {@link LeaseTimingsProperties}.
 */
@ConfigurationProperties(prefix = "operator.sharding", ignoreUnknownFields = false)
public class OperatorShardingProperties extends LeaseTimingsProperties {

	/**
	 * Whether this replica joins a shard ring, holding a Lease of its own, and shards the
	 * controllers named in controllers (all controllers of the @Reconciles beans if none
	 * is named).
	 */
	private boolean enabled = false;

	/**
	 * Name of the ring, a label value every replica of the operator shares. Defaults to
	 * spring.application.name, else "operator".
	 */
	private @Nullable String ring;

	/**
	 * Namespace of the ring's Leases. Defaults to operator.leader-election.namespace,
	 * else the pod's namespace (from its service account), else "default".
	 */
	private @Nullable String namespace;

	/**
	 * Identity of this replica in the ring, unique among the replicas. Defaults to
	 * operator.leader-election.identity, else the host name, an underscore and a random
	 * UUID.
	 */
	private @Nullable String identity;

	/**
	 * Tokens each replica places on the hash ring; more spread the objects more evenly.
	 * Every replica of a ring must use the same number.
	 */
	private int virtualNodes = 100;

	/**
	 * How the objects are shared: "label" (a sharder on the leader labels every object
	 * with its replica, and each replica caches only its own; needs leader election) or
	 * "filter" (every replica caches every object and reconciles its own; writes nothing
	 * to the objects).
	 */
	private ShardingConfig.Mode mode = ShardingConfig.Mode.FILTER;

	/**
	 * Names of the controllers to shard: the lower-cased kind they reconcile, or the name
	 * given in the @Reconciles annotation. Empty shards the controllers of all
	 * the @Reconciles beans. The others run on the leader, with leader election.
	 */
	private List<String> controllers = new ArrayList<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getRing() {
		return this.ring;
	}

	public void setRing(@Nullable String ring) {
		this.ring = ring;
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

	public int getVirtualNodes() {
		return this.virtualNodes;
	}

	public void setVirtualNodes(int virtualNodes) {
		this.virtualNodes = virtualNodes;
	}

	public ShardingConfig.Mode getMode() {
		return this.mode;
	}

	public void setMode(ShardingConfig.Mode mode) {
		this.mode = mode;
	}

	public List<String> getControllers() {
		return this.controllers;
	}

	public void setControllers(List<String> controllers) {
		this.controllers = controllers;
	}

}
