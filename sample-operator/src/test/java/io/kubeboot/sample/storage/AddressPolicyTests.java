package io.kubeboot.sample.storage;

import java.net.InetAddress;

import io.kubeboot.sample.storage.AddressPolicy.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which addresses {@link AddressPolicy} lets the operator probe.
 */
class AddressPolicyTests {

	@ParameterizedTest
	@CsvSource({
			// cloud metadata services
			"169.254.169.254, METADATA", "169.254.170.2, METADATA", "fd00:ec2::254, METADATA",
			"100.100.100.200, METADATA", "192.0.0.192, METADATA",
			// link-local
			"169.254.0.1, LINK_LOCAL", "169.254.255.255, LINK_LOCAL", "fe80::1, LINK_LOCAL", "febf::1, LINK_LOCAL",
			// unspecified, multicast, reserved
			"0.0.0.0, UNSPECIFIED", "0.1.2.3, UNSPECIFIED", "::, UNSPECIFIED", "224.0.0.1, MULTICAST",
			"239.255.255.250, MULTICAST", "ff02::1, MULTICAST", "255.255.255.255, RESERVED", "240.0.0.1, RESERVED",
			// loopback and private
			"127.0.0.1, LOOPBACK", "127.255.0.9, LOOPBACK", "::1, LOOPBACK", "10.0.0.1, PRIVATE", "10.96.0.1, PRIVATE",
			"172.16.0.1, PRIVATE", "172.31.255.255, PRIVATE", "192.168.1.1, PRIVATE", "100.64.0.1, PRIVATE",
			"100.127.255.255, PRIVATE", "fc00::1, PRIVATE", "fd12:3456::1, PRIVATE", "fec0::1, PRIVATE",
			// IPv6 forms of IPv4 addresses: judged by the IPv4 address
			"::ffff:169.254.169.254, METADATA", "::ffff:10.0.0.1, PRIVATE", "::169.254.1.1, LINK_LOCAL",
			"64:ff9b::a9fe:a9fe, METADATA", "64:ff9b::7f00:1, LOOPBACK", "2002:a9fe:a9fe::1, METADATA",
			"2002:0a00:0001::1, PRIVATE", "64:ff9b::808:808, PUBLIC",
			// public, right next to the ranges above
			"8.8.8.8, PUBLIC", "1.1.1.1, PUBLIC", "169.253.255.255, PUBLIC", "169.255.0.1, PUBLIC",
			"172.15.255.255, PUBLIC", "172.32.0.1, PUBLIC", "192.167.1.1, PUBLIC", "100.63.255.255, PUBLIC",
			"100.128.0.1, PUBLIC", "11.0.0.1, PUBLIC", "126.255.255.255, PUBLIC", "223.255.255.255, PUBLIC",
			"2001:4860:4860::8888, PUBLIC", "fe7f::1, PUBLIC", "fbff::1, PUBLIC" })
	void classifiesAddresses(String address, Kind kind) throws Exception {
		assertThat(AddressPolicy.classify(InetAddress.getByName(address))).isEqualTo(kind);
	}

	@ParameterizedTest
	@ValueSource(strings = { "169.254.169.254", "169.254.1.1", "fe80::1", "fd00:ec2::254", "0.0.0.0", "::", "224.0.0.1",
			"255.255.255.255", "::ffff:169.254.169.254" })
	void linkLocalMetadataUnspecifiedAndMulticastAddressesAreRefusedEvenIfPrivateOnesAreAllowed(String address)
			throws Exception {
		InetAddress refused = InetAddress.getByName(address);
		assertThat(new AddressPolicy(false).refusal(refused)).isNotNull();
		assertThat(new AddressPolicy(true).refusal(refused)).isNotNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "127.0.0.1", "::1", "10.0.0.1", "172.20.1.1", "192.168.0.10", "100.64.0.10", "fd12::1" })
	void loopbackAndPrivateAddressesAreRefusedUnlessAllowed(String address) throws Exception {
		InetAddress local = InetAddress.getByName(address);
		assertThat(new AddressPolicy(false).refusal(local)).isIn(Kind.LOOPBACK, Kind.PRIVATE);
		assertThat(new AddressPolicy(true).refusal(local)).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "8.8.8.8", "2001:4860:4860::8888" })
	void publicAddressesAreAllowed(String address) throws Exception {
		assertThat(new AddressPolicy(false).refusal(InetAddress.getByName(address))).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "metadata.google.internal", "METADATA.google.internal.", "metadata.goog", "metadata",
			"instance-data", "instance-data.ec2.internal" })
	void cloudMetadataNamesAreRecognised(String host) {
		assertThat(AddressPolicy.isMetadataName(host)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "objects.example.com", "metadata.example.com", "google.internal" })
	void otherNamesAreNotMetadataNames(String host) {
		assertThat(AddressPolicy.isMetadataName(host)).isFalse();
	}

}
