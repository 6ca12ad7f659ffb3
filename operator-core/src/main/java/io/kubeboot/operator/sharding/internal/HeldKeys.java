package io.kubeboot.operator.sharding.internal;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import io.kubeboot.operator.client.internal.WriteFence;
import io.kubeboot.operator.sharding.ShardRing;

/**
 * Keys of a ring held for as long as a runnable works on them rather than for one
 * reconcile: a fleet shared over the ring holds each cluster it engaged. A held key moves
 * to another replica only once given back, as a reconcile's key moves only once ended.
 */
public final class HeldKeys {

	/**
	 * The membership of each ring joined, both weakly (the member's listeners may reach
	 * its ring): a ring gone takes its entry along, and the ring keeps its member.
	 */
	private static final Map<ShardRing, WeakReference<ShardMember>> MEMBERS = Collections
		.synchronizedMap(new WeakHashMap<>());

	private final ShardMember member;

	private HeldKeys(ShardMember member) {
		this.member = member;
	}

	/**
	 * Whether the ring gives a key to this replica now, with its Lease valid.
	 * @param key the key
	 * @return {@code true} if it may be held
	 */
	public boolean permits(String key) {
		return this.member.gate().permits(key);
	}

	/**
	 * Holds a key if the ring gives it to this replica now; {@link #unhold} must follow.
	 * @param key the key
	 * @return {@code true} if held
	 */
	public boolean hold(String key) {
		return this.member.gate().hold(key);
	}

	/**
	 * Gives a key back.
	 * @param key the key
	 */
	public void unhold(String key) {
		this.member.gate().unhold(key);
	}

	/**
	 * Registers a listener told, on the ring's thread, whenever the keys given to this
	 * replica may have changed: it must not block.
	 * @param listener the listener
	 */
	public void onChange(Runnable listener) {
		this.member.gate().addListener((before, after) -> listener.run());
	}

	/**
	 * Returns the fence the work on held keys writes under: it closes when this replica's
	 * Lease passes its renew deadline.
	 * @return the fence
	 */
	public WriteFence fence() {
		return this.member.writeFence();
	}

	/**
	 * Records the membership of a ring as it joins, so that {@link #of} finds it without
	 * the ring's public API showing it.
	 * @param ring the ring
	 * @param member this replica's membership in it
	 */
	public static void register(ShardRing ring, ShardMember member) {
		MEMBERS.put(ring, new WeakReference<>(member));
	}

	/**
	 * Returns the held keys of this replica in a ring.
	 * @param ring the ring, joined with {@code ShardRing.join}
	 * @return its held keys
	 */
	public static HeldKeys of(ShardRing ring) {
		WeakReference<ShardMember> reference = MEMBERS.get(ring);
		ShardMember member = (reference != null) ? reference.get() : null;
		if (member == null) {
			throw new IllegalArgumentException(ring + " was not joined with ShardRing.join");
		}
		return new HeldKeys(member);
	}

}
