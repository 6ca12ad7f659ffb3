package io.kubeboot.operator.sharding.internal;

import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * What the sharder of the label-based mode does with one object, decided from its labels
 * and the ring. An object moves from a live member only through that member: the sharder
 * asks it to give the object back (the drain label) and assigns the object once it is
 * unassigned again. From a member that is not live (its Lease released, or unchanged for
 * a lease duration: it stopped reconciling by its renew deadline) it moves at once; if
 * that member takes its Lease again before its cache saw the move, it may reconcile such
 * an object once more beside the new owner (see ARCHITECTURE.md, the label-based mode's
 * limits).
 */
enum Assignment {

	/** Leave the object as it is. */
	NONE,

	/** Set the shard label to the owner's id and drop any drain label. */
	ASSIGN,

	/** Add the drain label: its member should give it back. */
	DRAIN;

	/**
	 * Decides.
	 * @param current the object's shard label, {@code null} if unassigned
	 * @param draining whether it carries the drain label
	 * @param owner the id of the member the ring gives it to, {@code null} if the ring
	 * has no member
	 * @param live the ids of the live members
	 * @return what to do
	 */
	static Assignment decide(@Nullable String current, boolean draining, @Nullable String owner, Set<String> live) {
		if (owner == null) {
			return NONE;
		}
		if (current == null || current.isEmpty() || !live.contains(current)) {
			return ASSIGN;
		}
		if (current.equals(owner)) {
			return NONE;
		}
		return draining ? NONE : DRAIN;
	}

}
