package io.kubeboot.operator.sharding.internal;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import io.kubeboot.operator.sharding.ShardRing;
import org.jspecify.annotations.Nullable;

/**
 * The membership behind each {@link ShardRing}, for the code of this project that needs
 * more than the ring's public view (the controllers pass their reconciles through its
 * gate), without making that part of the API.
 */
public final class ShardRings {

	private static final Map<ShardRing, ShardMember> members = Collections.synchronizedMap(new WeakHashMap<>());

	private static final Map<ShardRing, Sharder> sharders = Collections.synchronizedMap(new WeakHashMap<>());

	private ShardRings() {
	}

	/**
	 * Records the membership of a ring just joined.
	 * @param ring the ring
	 * @param member its membership
	 */
	public static void register(ShardRing ring, ShardMember member) {
		members.put(ring, member);
	}

	/**
	 * Records the sharder of a ring of the label-based mode.
	 * @param ring the ring
	 * @param sharder its sharder
	 */
	public static void register(ShardRing ring, Sharder sharder) {
		sharders.put(ring, sharder);
	}

	/**
	 * Returns the sharder of a ring of the label-based mode.
	 * @param ring the ring
	 * @return its sharder, {@code null} in the filter-based mode
	 */
	public static @Nullable Sharder sharder(ShardRing ring) {
		return sharders.get(ring);
	}

	/**
	 * Returns the membership of a ring.
	 * @param ring the ring
	 * @return its membership
	 * @throws IllegalArgumentException if the ring was not joined with
	 * {@code ShardRing.join}
	 */
	public static ShardMember member(ShardRing ring) {
		ShardMember member = members.get(ring);
		if (member == null) {
			throw new IllegalArgumentException(ring + " was not joined with ShardRing.join");
		}
		return member;
	}

	/**
	 * Returns the gate of a ring's sharded controllers.
	 * @param ring the ring
	 * @return the gate
	 */
	public static ShardGate gate(ShardRing ring) {
		return member(ring).gate();
	}

}
