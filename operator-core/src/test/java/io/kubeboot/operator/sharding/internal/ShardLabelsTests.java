package io.kubeboot.operator.sharding.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShardLabelsTests {

	@Test
	void anIdentityThatIsALabelValueIsItsOwnShardId() {
		assertThat(ShardLabels.shardId("operator-7d9f8-x2k4q")).isEqualTo("operator-7d9f8-x2k4q");
	}

	@Test
	void anyOtherIdentityIsCleanedCutAndHashedIntoALabelValue() {
		String identity = "operator-7d9f8-x2k4q_0b6c1a52-3f0e-4a57-9d8e-4c2e7f1b9a60";
		String id = ShardLabels.shardId(identity);
		assertThat(id).matches("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?").startsWith("operator-7d9f8-x2k4q_");
		assertThat(ShardLabels.shardId(identity + "1")).as("distinct identities, distinct ids").isNotEqualTo(id);
		assertThat(ShardLabels.shardId("pod 0")).matches("pod-0-[0-9a-f]+");
		assertThat(ShardLabels.shardId("__")).matches("s-[0-9a-f]+");
	}

	@Test
	void theLabelKeysNameTheRing() {
		assertThat(ShardLabels.shardKey("widgets")).isEqualTo("shard.sharding.kubeboot.io/widgets");
		assertThat(ShardLabels.drainKey("widgets")).isEqualTo("drain.sharding.kubeboot.io/widgets");
	}

}
