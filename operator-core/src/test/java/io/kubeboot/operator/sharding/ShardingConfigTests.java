package io.kubeboot.operator.sharding;

import java.time.Duration;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.InvalidConfigException.Violation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
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
			.withMessageStartingWith("ringName (my ring) must be a label value");
	}

	@Test
	void theIdentityMustNotHoldACommaAsAcknowledgementsListIdentities() {
		assertThatIllegalArgumentException().isThrownBy(() -> config("widgets", "a,b"))
			.withMessage("identity (a,b) must not contain ',' (the ring's Leases list identities separated by commas)");
	}

	@Test
	void theRenewDeadlineMustBeShorterThanTheLease() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ShardingConfig("ns", "widgets", "pod-0", Duration.ofSeconds(10),
					Duration.ofSeconds(10), Duration.ofSeconds(2), 100))
			.withMessageContaining("renewDeadline");
	}

	@Test
	void virtualNodesMustBeBetweenOneAndAThousand() {
		assertThatIllegalArgumentException().isThrownBy(() -> config("widgets", "pod-0", 0))
			.withMessage("virtualNodes (0) must be between 1 and 1000");
		assertThatIllegalArgumentException().isThrownBy(() -> config("widgets", "pod-0", 1001))
			.withMessage("virtualNodes (1001) must be between 1 and 1000");
		assertThat(config("widgets", "pod-0", ShardingConfig.MAX_VIRTUAL_NODES).virtualNodes()).isEqualTo(1000);
	}

	@Test
	void everyValueAtFaultIsNamed() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> new ShardingConfig("Team_A", "my ring", "", Duration.ofSeconds(15),
					Duration.ofSeconds(20), Duration.ofSeconds(2), 0))
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::setting)
				.containsExactly("namespace", "ringName", "identity", "renewDeadline", "virtualNodes"));
	}

	private static ShardingConfig config(String ring, String identity) {
		return config(ring, identity, ShardingConfig.DEFAULT_VIRTUAL_NODES);
	}

	private static ShardingConfig config(String ring, String identity, int virtualNodes) {
		return new ShardingConfig("ns", ring, identity, Duration.ofSeconds(15), Duration.ofSeconds(10),
				Duration.ofSeconds(2), virtualNodes);
	}

}
