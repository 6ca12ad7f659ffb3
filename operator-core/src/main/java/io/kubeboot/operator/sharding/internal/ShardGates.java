package io.kubeboot.operator.sharding.internal;

import io.kubeboot.operator.client.internal.WriteFence;
import io.kubeboot.operator.controller.WorkGate.Turn;
import io.kubeboot.operator.sharding.ShardRing;

/**
 * What the gates of both modes share.
 */
final class ShardGates {

	private ShardGates() {
	}

	/**
	 * Runs a worker under the fence of this replica's shard Lease, as leader-only work
	 * runs under the leader Lease's: no write after the renew deadline.
	 */
	static Runnable fenced(ShardMember member, Runnable worker) {
		WriteFence fence = member.writeFence();
		return () -> {
			WriteFence.enter(fence);
			worker.run();
		};
	}

	/**
	 * Queues a request of this replica's again after the retry period when its worker
	 * found the shard Lease not valid or the gate suspended: no change of the permitted
	 * keys need follow once the Lease is valid again, so it waits instead of being
	 * dropped. A request not this replica's is dropped.
	 */
	static void retryIfMine(Turn turn, boolean mine, ShardRing ring) {
		if (mine) {
			turn.retryAfter(ring.config().retryPeriod());
		}
		else {
			turn.drop();
		}
	}

}
