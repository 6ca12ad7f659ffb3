package io.kubeboot.operator.sharding.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

/**
 * A consistent hash ring with virtual nodes: every member places {@code virtualNodes}
 * tokens on a ring of 64-bit values, and a key belongs to the member of the first token
 * at or after the key's hash (clockwise, wrapping around). Adding or removing one of N
 * members moves only the keys between its tokens and their predecessors, about 1/N of
 * them; the virtual nodes keep the shares even with few members.
 * <p>
 * The hash of a string is 64-bit FNV-1a over its UTF-8 bytes, followed by MurmurHash3's
 * 64-bit finalizer ({@code fmix64}) so that keys differing only in their last characters
 * spread over the whole ring. Member {@code m}'s tokens are the hashes of {@code m#0} to
 * {@code m#<virtualNodes-1>}. Tokens are compared as unsigned numbers; equal tokens are
 * ordered by member. Everything is deterministic: every replica that sees the same
 * members with the same number of virtual nodes computes the same owner for every key, in
 * any JVM and any release that keeps this description.
 * <p>
 * Immutable and thread-safe.
 */
public final class HashRing {

	private static final long FNV_OFFSET = 0xcbf29ce484222325L;

	private static final long FNV_PRIME = 0x100000001b3L;

	private final List<String> members;

	private final int virtualNodes;

	/** The tokens in ring order (unsigned), parallel to {@link #owners}. */
	private final long[] tokens;

	private final String[] owners;

	/**
	 * Creates a ring.
	 * @param members the members' identities, in any order (duplicates count once)
	 * @param virtualNodes the tokens each member places on the ring, at least 1
	 */
	public HashRing(Collection<String> members, int virtualNodes) {
		if (virtualNodes < 1) {
			throw new IllegalArgumentException("virtualNodes must be at least 1, was " + virtualNodes);
		}
		this.members = List.copyOf(new TreeSet<>(members));
		this.virtualNodes = virtualNodes;
		Token[] all = new Token[this.members.size() * virtualNodes];
		int i = 0;
		for (String member : this.members) {
			for (int node = 0; node < virtualNodes; node++) {
				all[i++] = new Token(hash(member + "#" + node), member);
			}
		}
		Arrays.sort(all, (a, b) -> {
			int byToken = Long.compareUnsigned(a.value, b.value);
			return (byToken != 0) ? byToken : a.member.compareTo(b.member);
		});
		this.tokens = new long[all.length];
		this.owners = new String[all.length];
		for (int t = 0; t < all.length; t++) {
			this.tokens[t] = all[t].value;
			this.owners[t] = all[t].member;
		}
	}

	/**
	 * Returns the member a key belongs to.
	 * @param key the key, such as {@link #key}'s
	 * @return the owner, or {@code null} if the ring has no members
	 */
	public @Nullable String owner(String key) {
		if (this.tokens.length == 0) {
			return null;
		}
		long hash = hash(key);
		int low = 0;
		int high = this.tokens.length;
		// the first token at or after the hash
		while (low < high) {
			int mid = (low + high) >>> 1;
			if (Long.compareUnsigned(this.tokens[mid], hash) < 0) {
				low = mid + 1;
			}
			else {
				high = mid;
			}
		}
		return this.owners[(low == this.tokens.length) ? 0 : low];
	}

	/**
	 * Returns the members, sorted.
	 * @return the members
	 */
	public List<String> members() {
		return this.members;
	}

	/**
	 * Returns the tokens each member places on the ring.
	 * @return the number of virtual nodes
	 */
	public int virtualNodes() {
		return this.virtualNodes;
	}

	/**
	 * Returns the key of an object: {@code group/kind/namespace/name}, with an empty
	 * group for the core API group and an empty namespace for a cluster-scoped object.
	 * The version is left out: an object keeps its key across API versions.
	 * @param group the API group, {@code null} or empty for the core group
	 * @param kind the kind, such as {@code ConfigMap}
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @param name the name
	 * @return the key
	 */
	public static String key(@Nullable String group, String kind, @Nullable String namespace, String name) {
		return Objects.toString(group, "") + "/" + kind + "/" + Objects.toString(namespace, "") + "/" + name;
	}

	/**
	 * Returns the ring position of a string: 64-bit FNV-1a of its UTF-8 bytes, then
	 * MurmurHash3's {@code fmix64}.
	 * @param value the string
	 * @return the hash
	 */
	static long hash(String value) {
		long hash = FNV_OFFSET;
		for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
			hash ^= (b & 0xff);
			hash *= FNV_PRIME;
		}
		hash ^= hash >>> 33;
		hash *= 0xff51afd7ed558ccdL;
		hash ^= hash >>> 33;
		hash *= 0xc4ceb9fe1a85ec53L;
		hash ^= hash >>> 33;
		return hash;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof HashRing ring && ring.virtualNodes == this.virtualNodes
				&& ring.members.equals(this.members);
	}

	@Override
	public int hashCode() {
		return this.members.hashCode() * 31 + this.virtualNodes;
	}

	@Override
	public String toString() {
		return "HashRing[members=" + this.members + ", virtualNodes=" + this.virtualNodes + "]";
	}

	private record Token(long value, String member) {
	}

}
