package io.kubeboot.sample.storage;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Which addresses the operator may send a probe to. Anyone who may create a StorageBucket
 * chooses the URL the leader GETs, and reads back whether it answered: without this
 * policy a bucket could make the operator reach the cloud's instance metadata service
 * (and its credentials), the kubelet, the API server or anything else only the cluster's
 * network reaches.
 * <ul>
 * <li>never: link-local addresses ({@code 169.254.0.0/16}, {@code fe80::/10}), the cloud
 * metadata services' addresses ({@code 169.254.169.254}, {@code fd00:ec2::254},
 * {@code 100.100.100.200}, ...) and names ({@code metadata.google.internal}, ...), the
 * unspecified address ({@code 0.0.0.0/8}, {@code ::}, which Linux connects to the host
 * itself), multicast and broadcast;</li>
 * <li>only with {@code sample.buckets.allow-private-endpoints=true}: loopback
 * ({@code 127.0.0.0/8}, {@code ::1}) and private ranges ({@code 10.0.0.0/8},
 * {@code 172.16.0.0/12}, {@code 192.168.0.0/16}, the shared {@code 100.64.0.0/10},
 * {@code fc00::/7}, {@code fec0::/10}), where a cluster's pods and services live;</li>
 * <li>always: any other address.</li>
 * </ul>
 * IPv6 addresses that carry an IPv4 address (IPv4-compatible {@code ::a.b.c.d}, NAT64
 * {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}) are judged by that IPv4 address.
 */
final class AddressPolicy {

	/**
	 * Names of cloud metadata services, refused before they are resolved.
	 */
	private static final Set<String> METADATA_NAMES = Set.of("metadata.google.internal", "metadata.goog", "metadata",
			"instance-data", "instance-data.ec2.internal");

	/**
	 * Addresses of cloud metadata services outside the link-local range (refused as
	 * metadata, not merely as private) and the best known ones inside it.
	 */
	private static final Set<InetAddress> METADATA_ADDRESSES = Set.of(literal("169.254.169.254"),
			literal("169.254.170.2"), literal("fd00:ec2::254"), literal("100.100.100.200"), literal("192.0.0.192"));

	private final boolean allowPrivate;

	/**
	 * Creates the policy.
	 * @param allowPrivate whether loopback and private addresses may be probed
	 */
	AddressPolicy(boolean allowPrivate) {
		this.allowPrivate = allowPrivate;
	}

	/**
	 * What kind of address an address is.
	 */
	enum Kind {

		/** Any address not listed below: allowed. */
		PUBLIC("a public address", false),

		/** {@code 127.0.0.0/8} and {@code ::1}. */
		LOOPBACK("a loopback address", false),

		/** The private and shared ranges. */
		PRIVATE("a private address", false),

		/** A cloud metadata service. */
		METADATA("a cloud metadata address", true),

		/** {@code 169.254.0.0/16} and {@code fe80::/10}. */
		LINK_LOCAL("a link-local address", true),

		/** {@code 0.0.0.0/8} and {@code ::}. */
		UNSPECIFIED("an unspecified address", true),

		/** {@code 224.0.0.0/4} and {@code ff00::/8}. */
		MULTICAST("a multicast address", true),

		/** {@code 240.0.0.0/4}, broadcast included. */
		RESERVED("a reserved address", true);

		private final String description;

		private final boolean alwaysRefused;

		Kind(String description, boolean alwaysRefused) {
			this.description = description;
			this.alwaysRefused = alwaysRefused;
		}

		/**
		 * Says what the kind is, for a message: "a link-local address".
		 * @return the description
		 */
		String description() {
			return this.description;
		}

		/**
		 * Whether {@code sample.buckets.allow-private-endpoints=true} allows addresses of
		 * this kind.
		 * @return {@code true} for loopback and private addresses
		 */
		boolean allowedIfPrivateAllowed() {
			return !this.alwaysRefused;
		}

	}

	/**
	 * Whether a host name is that of a cloud metadata service.
	 * @param host the host, as in a URL
	 * @return whether it is refused by name
	 */
	static boolean isMetadataName(String host) {
		String name = host.toLowerCase(Locale.ROOT);
		while (name.endsWith(".")) {
			name = name.substring(0, name.length() - 1);
		}
		return METADATA_NAMES.contains(name);
	}

	/**
	 * Classifies an address.
	 * @param address the address
	 * @return its kind
	 */
	static Kind classify(InetAddress address) {
		if (METADATA_ADDRESSES.contains(address)) { // equals() ignores an IPv6 scope
			return Kind.METADATA;
		}
		byte[] bytes = address.getAddress();
		if (address instanceof Inet4Address) {
			return classifyV4(bytes);
		}
		// :: and ::1 are IPv4-compatible in form only
		boolean ownV6 = isZero(bytes, 0, 15) && (bytes[15] == 0 || bytes[15] == 1);
		byte[] embedded = ownV6 ? null : embeddedV4(bytes);
		if (embedded != null) {
			return classify(v4(embedded));
		}
		return classifyV6(bytes);
	}

	/**
	 * Tells whether an address may be probed under this policy.
	 * @param address the address
	 * @return its kind if it may not be, {@code null} if it may
	 */
	@Nullable Kind refusal(InetAddress address) {
		Kind kind = classify(address);
		if (kind == Kind.PUBLIC || (!kind.alwaysRefused && this.allowPrivate)) {
			return null;
		}
		return kind;
	}

	/**
	 * Whether this policy allows loopback and private addresses.
	 * @return {@code sample.buckets.allow-private-endpoints}
	 */
	boolean allowsPrivate() {
		return this.allowPrivate;
	}

	private static Kind classifyV4(byte[] bytes) {
		int a = bytes[0] & 0xff;
		int b = bytes[1] & 0xff;
		if (a == 0) {
			return Kind.UNSPECIFIED;
		}
		if (a == 127) {
			return Kind.LOOPBACK;
		}
		if (a == 169 && b == 254) {
			return Kind.LINK_LOCAL;
		}
		if (a == 10 || (a == 172 && (b & 0xf0) == 16) || (a == 192 && b == 168) || (a == 100 && (b & 0xc0) == 64)) {
			return Kind.PRIVATE;
		}
		if ((a & 0xf0) == 224) {
			return Kind.MULTICAST;
		}
		if ((a & 0xf0) == 240) {
			return Kind.RESERVED;
		}
		return Kind.PUBLIC;
	}

	private static Kind classifyV6(byte[] bytes) {
		int first = bytes[0] & 0xff;
		int second = bytes[1] & 0xff;
		if (isZero(bytes, 0, 16)) {
			return Kind.UNSPECIFIED;
		}
		if (isZero(bytes, 0, 15) && bytes[15] == 1) {
			return Kind.LOOPBACK;
		}
		if (first == 0xfe && (second & 0xc0) == 0x80) {
			return Kind.LINK_LOCAL;
		}
		if ((first & 0xfe) == 0xfc || (first == 0xfe && (second & 0xc0) == 0xc0)) {
			return Kind.PRIVATE; // unique local fc00::/7, deprecated site-local fec0::/10
		}
		if (first == 0xff) {
			return Kind.MULTICAST;
		}
		return Kind.PUBLIC;
	}

	/**
	 * The IPv4 address an IPv6 address carries: IPv4-compatible ({@code ::/96}; the JDK
	 * turns IPv4-mapped {@code ::ffff:0:0/96} into an {@code Inet4Address} already),
	 * NAT64 ({@code 64:ff9b::/96}) or 6to4 ({@code 2002::/16}).
	 */
	private static byte @Nullable [] embeddedV4(byte[] bytes) {
		if (isZero(bytes, 0, 12)) {
			return Arrays.copyOfRange(bytes, 12, 16);
		}
		if (isZero(bytes, 0, 10) && (bytes[10] & 0xff) == 0xff && (bytes[11] & 0xff) == 0xff) {
			return Arrays.copyOfRange(bytes, 12, 16);
		}
		if (bytes[0] == 0 && (bytes[1] & 0xff) == 0x64 && (bytes[2] & 0xff) == 0xff && (bytes[3] & 0xff) == 0x9b
				&& isZero(bytes, 4, 12)) {
			return Arrays.copyOfRange(bytes, 12, 16);
		}
		if ((bytes[0] & 0xff) == 0x20 && (bytes[1] & 0xff) == 0x02) {
			return Arrays.copyOfRange(bytes, 2, 6);
		}
		return null;
	}

	private static boolean isZero(byte[] bytes, int from, int to) {
		for (int i = from; i < to; i++) {
			if (bytes[i] != 0) {
				return false;
			}
		}
		return true;
	}

	private static InetAddress v4(byte[] bytes) {
		try {
			return InetAddress.getByAddress(bytes);
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ex); // four bytes are always an address
		}
	}

	private static InetAddress literal(String address) {
		try {
			return InetAddress.getByName(address); // a literal: no lookup
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
