package io.kubeboot.operator.sharding;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ShardingConfigTests {

	@Test
	void theLeaseIsNamedAfterTheRingAndTheIdentity() {
		assertThat(config("widgets", "pod-0").leaseName()).isEqualTo("widgets-pod-0");
	}

	@Test
	void anIdentityALeaseNameCannotHoldIsCleanedAndHashed() {
		String name = config("widgets", "Host_1f3a").leaseName();
		assertThat(name).startsWith("widgets-host-1f3a-").matches("[a-z0-9.-]+");
		assertThat(config("widgets", "host_1f3a").leaseName()).as("distinct identities, distinct Leases")
			.isNotEqualTo(name);
	}

	@Test
	void theLeaseKeepsLeaderElectionsTimings() {
		ShardingConfig config = config("widgets", "pod-0");
		assertThat(config.leaseConfig().leaseDuration()).isEqualTo(Duration.ofSeconds(15));
		assertThat(config.leaseConfig().releaseOnShutdown()).isTrue();
	}

	@Test
	void theRingNameMustBeALabelValue() {
		assertThatIllegalArgumentException().isThrownBy(() -> config("my ring", "pod-0"))
			.withMessageStartingWith("ringName must be a label value");
	}

	@Test
	void theIdentityMustNotHoldACommaAsAcknowledgementsListIdentities() {
		assertThatIllegalArgumentException().isThrownBy(() -> config("widgets", "a,b"))
			.withMessage("identity must not contain ',', was 'a,b'");
	}

	@Test
	void theRenewDeadlineMustBeShorterThanTheLease() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ShardingConfig("ns", "widgets", "pod-0", Duration.ofSeconds(10),
					Duration.ofSeconds(10), Duration.ofSeconds(2), 100))
			.withMessageContaining("renewDeadline");
	}

	@Test
	void virtualNodesMustBePositive() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ShardingConfig("ns", "widgets", "pod-0", Duration.ofSeconds(15),
					Duration.ofSeconds(10), Duration.ofSeconds(2), 0))
			.withMessage("virtualNodes must be at least 1, was 0");
	}

	private static ShardingConfig config(String ring, String identity) {
		return new ShardingConfig("ns", ring, identity, Duration.ofSeconds(15), Duration.ofSeconds(10),
				Duration.ofSeconds(2), ShardingConfig.DEFAULT_VIRTUAL_NODES);
	}

}
