package io.kubeboot.operator.sharding.internal;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.kubeboot.operator.controller.WorkGate;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubernetes.client.common.KubernetesObject;

/**
 * The gate of a controller sharded by filter: every replica caches every object, and a
 * worker reconciles a request only while the ring gives it to this replica and no other
 * member still claims it ({@link ShardGate}).
 */
public final class FilterGate implements WorkGate {

	private final ShardRing ring;

	private final ShardMember member;

	private final Class<? extends KubernetesObject> kind;

	/**
	 * Creates the gate of a controller.
	 * @param ring the ring the controller shares its objects over
	 * @param member this replica's membership in the ring
	 * @param kind the reconciled kind
	 */
	public FilterGate(ShardRing ring, ShardMember member, Class<? extends KubernetesObject> kind) {
		this.ring = ring;
		this.member = member;
		this.kind = kind;
	}

	/**
	 * Returns the ring.
	 * @return the ring
	 */
	public ShardRing ring() {
		return this.ring;
	}

	@Override
	public boolean admits(Request request) {
		// a key of this replica's view is kept while its Lease is not valid for a
		// moment: the worker holds it back until it is
		return this.member.gate().snapshot().test(ShardRing.key(this.kind, request));
	}

	@Override
	public Runnable aroundWorker(Runnable worker) {
		return ShardGates.fenced(this.member, worker);
	}

	@Override
	public void work(Turn turn) {
		ShardGate gate = this.member.gate();
		String key = ShardRing.key(this.kind, turn.request());
		if (!gate.enter(key)) {
			// if this replica's, its Lease is not valid now (a renewal late or failed)
			// or the gate is suspended (the Lease lost, the ring not read since): it
			// waits; else its owner reconciles it
			ShardGates.retryIfMine(turn, gate.snapshot().test(key), this.ring);
			return;
		}
		try {
			turn.reconcile();
		}
		finally {
			gate.exit(key);
		}
	}

	@Override
	public boolean needsLeaderElection() {
		return false;
	}

	@Override
	public int assignedObjects(List<? extends KubernetesObject> cached, boolean running) {
		ShardGate gate = this.member.gate();
		int assigned = 0;
		for (KubernetesObject object : cached) {
			if (gate.permits(ShardRing.key(this.kind, Request.of(object)))) {
				assigned++;
			}
		}
		return assigned;
	}

	@Override
	public void attach(Consumer<Predicate<Request>> queueCached) {
		// the keys this replica gains (from a new view, or once their old owner drained
		// them) are reconciled now: their requests were dropped while not owned
		this.member.gate().addListener((before, after) -> queueCached.accept((request) -> {
			String key = ShardRing.key(this.kind, request);
			return !before.test(key) && after.test(key);
		}));
	}

	@Override
	public String toString() {
		return "FilterGate[" + this.ring.config().ringName() + "]";
	}

}
