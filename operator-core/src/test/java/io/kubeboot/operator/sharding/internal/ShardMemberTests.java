package io.kubeboot.operator.sharding.internal;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShardMemberTests {

	@Test
	void anAcknowledgementNamesTheVirtualNodesAndTheSortedMembers() {
		HashRing view = new HashRing(List.of("b", "a"), 100);
		assertThat(ShardMember.encode(view)).isEqualTo("100:a,b");
		assertThat(ShardMember.decode("a", "100:a,b")).isEqualTo(view);
	}

	@Test
	void noAcknowledgementClaimsNothing() {
		assertThat(ShardMember.encode(null)).isEmpty();
		assertThat(ShardMember.encode(new HashRing(List.of(), 100))).isEmpty();
		assertThat(ShardMember.decode("a", "")).isNull();
		assertThat(ShardMember.decode("a", null)).isNull();
	}

	@Test
	void anUnreadableAcknowledgementClaimsEveryKeyForItsHolder() {
		HashRing claim = ShardMember.decode("a", "garbage");
		assertThat(claim).isNotNull();
		assertThat(claim.owner("any/key")).isEqualTo("a");
		assertThat(ShardMember.decode("a", "x:a,b").owner("other/key")).isEqualTo("a");
	}

}
