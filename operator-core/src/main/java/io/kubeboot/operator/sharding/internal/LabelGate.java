package io.kubeboot.operator.sharding.internal;

import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.controller.WorkGate;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gate of a controller sharded by label: a replica caches only the objects the
 * sharder labelled with its id, reconciles those of its current term, gives back the ones
 * it is asked to drain, and tells a deletion from a move ({@link LabelShare}).
 */
public final class LabelGate implements WorkGate {

	// the controller's logger, as these are its messages
	private static final Logger logger = LoggerFactory.getLogger(Controller.class);

	private final ShardRing ring;

	private final ShardMember member;

	private final LabelShare share;

	private final Target target;

	/**
	 * Creates the gate of a controller and adds its kind to the ring's sharder.
	 * @param ring the ring the controller shares its objects over
	 * @param member this replica's membership in the ring
	 * @param sharder the ring's sharder
	 * @param target the controller
	 */
	public LabelGate(ShardRing ring, ShardMember member, Sharder sharder, Target target) {
		this.ring = ring;
		this.member = member;
		this.share = Objects.requireNonNull(member.newLabelShare(), "a label-based ring has label shares");
		this.target = target;
		sharder.shard(target.kind(), target.namespace(), target.labelSelector());
	}

	/**
	 * Returns the ring.
	 * @return the ring
	 */
	public ShardRing ring() {
		return this.ring;
	}

	/**
	 * The key of an object in the share: one share per reconciled kind.
	 */
	static String shareKey(Request request) {
		return request.namespace() + "/" + request.name();
	}

	@Override
	public String cacheSelector(@Nullable String labelSelector) {
		return this.share.selector(labelSelector);
	}

	@Override
	public List<Permission> requiredPermissions() {
		return List.of(Permission.of(this.target.kind(), "get", "patch")
			.because("controller " + this.target.controller() + " gives "
					+ KindResolver.declaredKind(this.target.kind()).kind() + " objects back to the sharder of ring "
					+ this.ring.config().ringName() + " by removing their shard labels, and reads "
					+ "uncached whether an object missing from a relist was deleted or moved"));
	}

	@Override
	public boolean passes(ObjectEvent event, BooleanSupplier eventFilter) {
		return passes(this.share, event, eventFilter);
	}

	/**
	 * Decides whether an event of the reconciled kind reaches the queue of a controller
	 * with this share: the share learns of every object before the event filter, which
	 * may drop it; a drain request and a new term pass whatever the filter says; an
	 * object that moved to another replica is no deletion.
	 */
	static boolean passes(LabelShare share, ObjectEvent event, BooleanSupplier eventFilter) {
		String key = shareKey(Request.of(event.object()));
		switch (event.type()) {
			case ADD -> {
				share.cached(key, event.object());
				return eventFilter.getAsBoolean();
			}
			case UPDATE -> {
				share.cached(key, event.object());
				KubernetesObject before = Objects.requireNonNull(event.oldObject());
				return share.drainRequested(before, event.object()) || share.gained(before, event.object())
						|| eventFilter.getAsBoolean();
			}
			default -> {
				if (!share.left(key, event.object(), event.finalStateUnknown())) {
					// it moved to another replica: no news for this one's reconciler
					return false;
				}
				if (eventFilter.getAsBoolean()) {
					return true;
				}
				// filtered out: no worker takes its tombstone
				share.takeTombstone(key);
				return false;
			}
		}
	}

	@Override
	public Runnable aroundWorker(Runnable worker) {
		return ShardGates.fenced(this.member, worker);
	}

	/**
	 * Works on a request: an object of this replica's is reconciled; one it is asked to
	 * give back is given back instead, once, with no reconcile of it in flight (the queue
	 * hands a request to one worker at a time); an object no longer cached is reconciled
	 * only if it was deleted while this replica's, never when it moved to another
	 * replica.
	 */
	@Override
	public void work(Turn turn) {
		ShardGate gate = this.member.gate();
		String key = shareKey(turn.request());
		if (!gate.enterOpen(key)) {
			// what the cache holds is this replica's while its view counts it, and a
			// gate whose view counts it again queues every cached object
			boolean mine = gate.countsSelf();
			if (!mine) {
				// dropped: nothing takes its tombstone later
				this.share.takeTombstone(key);
			}
			ShardGates.retryIfMine(turn, mine, this.ring);
			return;
		}
		try {
			KubernetesObject cached = turn.cached().orElse(null);
			// taken whatever follows: a tombstone left behind would make a later move
			// of an object of that name look like a deletion
			Boolean inferred = this.share.takeTombstone(key);
			if (cached != null && this.share.isDraining(cached)) {
				giveBack(turn, key, cached);
			}
			else if (cached != null) {
				if (this.share.mayReconcile(key, cached)) {
					turn.reconcile();
				}
				else {
					turn.drop();
				}
			}
			else if (inferred != null && deletedForGood(turn.request())) {
				// an object leaves the cache alike when it is deleted and when the
				// sharder moved it without a give-back (this replica was cut off, and
				// is back): only an uncached read tells them apart
				turn.reconcile();
			}
			else {
				turn.drop();
			}
		}
		finally {
			gate.exit(key);
		}
	}

	private void giveBack(Turn turn, String key, KubernetesObject cached) {
		// recorded before the write: the watch may tell that the object left the cache
		// before the write returns, and that is a move, not a deletion
		this.share.released(key, cached);
		Client client = this.target.client();
		try {
			client.patch(cached, Patch.json(this.share.releasePatch(cached)));
			turn.drop();
			logger.debug("Gave an object back to the sharder: controller={} object={}", this.target.controller(),
					turn.request());
		}
		catch (ApiServerException ex) {
			if (ex.code() == 404) {
				// deleted while still this replica's: if the watch told of it first, it
				// took it for the give-back's move
				if (this.share.goneBeforeGivenBack(key)) {
					turn.retryNow();
				}
				else {
					turn.drop();
				}
				return;
			}
			// a 422: the sharder moved it already, or stamped it for this replica in a
			// new term; a release left recorded would take a later deletion for a move
			this.share.kept(key);
			if (ex.code() == 422) {
				turn.drop();
				return;
			}
			logger.warn("Could not give an object back to the sharder, retrying: controller={} object={} error=\"{}\"",
					this.target.controller(), turn.request(), ex.getMessage());
			turn.retryWithBackoff();
		}
		catch (RuntimeException ex) {
			this.share.kept(key);
			throw ex;
		}
	}

	/**
	 * Whether an object that left the cache (a deletion on the watch, or one inferred
	 * from a relist) is gone, rather than moved to another replica: read uncached.
	 */
	private boolean deletedForGood(Request request) {
		try {
			return this.target.client().uncached().get(this.target.kind(), request).isEmpty();
		}
		catch (RuntimeException ex) {
			logger.warn(
					"Could not tell whether an object missing from a relist was deleted or moved, skipping it: "
							+ "controller={} object={} error=\"{}\"",
					this.target.controller(), request, ex.getMessage());
			return false;
		}
	}

	@Override
	public boolean needsLeaderElection() {
		return false;
	}

	@Override
	public int assignedObjects(List<? extends KubernetesObject> cached, boolean running) {
		if (!this.member.gate().isOpen()) {
			return 0;
		}
		int assigned = 0;
		for (KubernetesObject object : cached) {
			if (this.share.mayReconcile(shareKey(Request.of(object)), object)) {
				assigned++;
			}
		}
		return assigned;
	}

	@Override
	public void attach(Consumer<Predicate<Request>> queueCached) {
		// the cache holds only this replica's objects, dropped while its gate was
		// closed; a new term makes the cached objects stamped with it its own, and the
		// sharder's stamps may have arrived before its Lease write's answer did
		this.member.gate().addListener((before, after) -> queueCached.accept((request) -> true));
		this.member.addTermListener(() -> queueCached.accept((request) -> true));
	}

	@Override
	public String toString() {
		return "LabelGate[" + this.ring.config().ringName() + "]";
	}

}
