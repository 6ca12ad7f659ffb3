package io.kubeboot.operator.sharding.internal;

import java.util.regex.Pattern;

/**
 * The labels of the label-based mode: {@code shard.sharding.kubeboot.io/<ring>} names the
 * member an object is assigned to, by its shard id;
 * {@code drain.sharding.kubeboot.io/<ring>} asks that member to give the object back. The
 * annotation {@code term.sharding.kubeboot.io/<ring>} names the member's
 * {@linkplain MemberTerm term} the object was assigned in.
 */
public final class ShardLabels {

	/** The prefix of the shard label's key; the ring's name follows. */
	public static final String SHARD_PREFIX = "shard.sharding.kubeboot.io/";

	/** The prefix of the drain label's key; the ring's name follows. */
	public static final String DRAIN_PREFIX = "drain.sharding.kubeboot.io/";

	/** The prefix of the term annotation's key; the ring's name follows. */
	public static final String TERM_PREFIX = "term.sharding.kubeboot.io/";

	/** The drain label's value. */
	public static final String DRAIN_VALUE = "true";

	private static final Pattern LABEL_VALUE = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

	/**
	 * Whether a string is a label value: at most 63 letters, digits, '-', '_' or '.',
	 * starting and ending with a letter or digit.
	 * @param value the string
	 * @return {@code true} if it is
	 */
	public static boolean isLabelValue(String value) {
		return value != null && LABEL_VALUE.matcher(value).matches();
	}

	private ShardLabels() {
	}

	/**
	 * Returns the key of a ring's shard label.
	 * @param ring the ring's name
	 * @return the key
	 */
	public static String shardKey(String ring) {
		return SHARD_PREFIX + ring;
	}

	/**
	 * Returns the key of a ring's drain label.
	 * @param ring the ring's name
	 * @return the key
	 */
	public static String drainKey(String ring) {
		return DRAIN_PREFIX + ring;
	}

	/**
	 * Returns the key of a ring's term annotation.
	 * @param ring the ring's name
	 * @return the key
	 */
	public static String termKey(String ring) {
		return TERM_PREFIX + ring;
	}

	/**
	 * Returns the shard id of a member, the value of the shard label of its objects: the
	 * identity itself if it is a label value, else the identity with every character a
	 * label value cannot hold replaced by {@code -}, cut to 46 characters, and a hash of
	 * the identity appended, so distinct identities keep distinct ids.
	 * @param identity the member's identity
	 * @return the shard id, a label value
	 */
	public static String shardId(String identity) {
		if (isLabelValue(identity)) {
			return identity;
		}
		String cleaned = identity.replaceAll("[^-A-Za-z0-9_.]", "-");
		String head = cleaned.substring(0, Math.min(cleaned.length(), 46))
			.replaceAll("^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "");
		String hash = Long.toHexString(HashRing.hash(identity));
		return head.isEmpty() ? "s-" + hash : head + "-" + hash;
	}

}
