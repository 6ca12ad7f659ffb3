package io.kubeboot.operator.sharding.internal;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What the sharder of the label-based mode does with one object, decided from its labels,
 * its term and the ring. An object moves from a live member only through that member: the
 * sharder asks it to give the object back (the drain label) and assigns the object once
 * it is unassigned again. From a member that is not live (its Lease released, or
 * unchanged for a lease duration: it stopped reconciling by its renew deadline), or live
 * in another term than the object's (it counted as gone meanwhile, and reconciles only
 * objects of its new term), it moves at once, but only on a view of the ring read after
 * the sharder first saw the object's current assignment (shard label and term): an older
 * view may not know the member's new term or the member itself yet.
 */
enum Assignment {

	/** Leave the object as it is. */
	NONE,

	/** Unassigned: set the shard label to the owner's id and its term. */
	ASSIGN,

	/**
	 * Assigned to a member not live in the object's term: set the shard label to the
	 * owner's id and its term, and drop any drain label.
	 */
	MOVE,

	/** Add the drain label: its member should give it back. */
	DRAIN;

	/**
	 * Decides.
	 * @param current the object's shard label, {@code null} if unassigned
	 * @param term the object's term, {@code null} if it has none
	 * @param draining whether it carries the drain label
	 * @param owner the id of the member the ring gives it to, {@code null} if the ring
	 * has no member
	 * @param live the term of each live member, by id
	 * @return what to do
	 */
	static Assignment decide(@Nullable String current, @Nullable String term, boolean draining, @Nullable String owner,
			Map<String, String> live) {
		if (owner == null || !live.containsKey(owner)) {
			return NONE;
		}
		if (current == null || current.isEmpty()) {
			return ASSIGN;
		}
		if (!live.containsKey(current) || !live.get(current).equals(term)) {
			return MOVE;
		}
		if (current.equals(owner)) {
			return NONE;
		}
		return draining ? NONE : DRAIN;
	}

}
