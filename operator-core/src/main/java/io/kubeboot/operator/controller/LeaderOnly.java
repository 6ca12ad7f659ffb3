package io.kubeboot.operator.controller;

import java.time.Duration;

import io.kubeboot.operator.client.Fences;

/**
 * The gate of a controller that is not gated otherwise: it runs on the leader, its
 * workers write under the fence of the leader Lease, and a worker past the renew deadline
 * (a process paused, or renewals failing) starts no reconcile, as another replica may
 * lead by then, until the Lease is renewed or the election stops the controller.
 */
final class LeaderOnly implements WorkGate {

	/**
	 * How long a request waits while the leader Lease cannot be vouched for.
	 */
	static final Duration FENCED_RETRY = Duration.ofMillis(200);

	static final LeaderOnly INSTANCE = new LeaderOnly();

	private LeaderOnly() {
	}

	@Override
	public Runnable aroundWorker(Runnable worker) {
		// a thread does not inherit its creator's fence
		return Fences.runnable(worker);
	}

	@Override
	public void work(Turn turn) {
		if (Fences.isOpen()) {
			turn.reconcile();
		}
		else {
			turn.retryAfter(FENCED_RETRY);
		}
	}

	@Override
	public String toString() {
		return "LeaderOnly";
	}

}
