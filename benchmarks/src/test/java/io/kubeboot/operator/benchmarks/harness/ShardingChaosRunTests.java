package io.kubeboot.operator.benchmarks.harness;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShardingChaosRunTests {

	@Test
	void theMembersOfAnAcknowledgementAreTheNamesAfterItsVirtualNodes() {
		assertThat(ShardingChaosRun.members("100:replica-1,replica-2,replica-3")).containsExactly("replica-1",
				"replica-2", "replica-3");
		assertThat(ShardingChaosRun.members("100:replica-2")).containsExactly("replica-2");
	}

	@Test
	void anAcknowledgementThatClaimsNothingHasNoMembers() {
		assertThat(ShardingChaosRun.members("100:")).isEmpty();
		assertThat(ShardingChaosRun.members("")).isEmpty();
		assertThat(ShardingChaosRun.members(null)).isEmpty();
	}

}
