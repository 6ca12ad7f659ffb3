package io.kubeboot.operator.sharding.internal;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AssignmentTests {

	private static final Map<String, String> LIVE = Map.of("a", "ta", "b", "tb");

	@Test
	void anUnassignedObjectIsAssignedToItsOwner() {
		assertThat(Assignment.decide(null, null, false, "a", LIVE)).isEqualTo(Assignment.ASSIGN);
		assertThat(Assignment.decide("", null, false, "a", LIVE)).isEqualTo(Assignment.ASSIGN);
	}

	@Test
	void anObjectOfItsOwnerInItsTermStays() {
		assertThat(Assignment.decide("a", "ta", false, "a", LIVE)).isEqualTo(Assignment.NONE);
	}

	@Test
	void anObjectOfAnotherLiveMemberIsDrainedFirstAndMovesOnlyOnceGivenBack() {
		assertThat(Assignment.decide("b", "tb", false, "a", LIVE)).isEqualTo(Assignment.DRAIN);
		assertThat(Assignment.decide("b", "tb", true, "a", LIVE)).as("waiting for b").isEqualTo(Assignment.NONE);
		assertThat(Assignment.decide(null, null, false, "a", LIVE)).as("given back").isEqualTo(Assignment.ASSIGN);
	}

	@Test
	void anObjectOfAMemberThatIsNotLiveMovesAtOnce() {
		assertThat(Assignment.decide("c", "tc", false, "a", LIVE)).isEqualTo(Assignment.MOVE);
		assertThat(Assignment.decide("c", "tc", true, "a", LIVE)).isEqualTo(Assignment.MOVE);
	}

	@Test
	void anObjectOfALiveMemberInAnEarlierTermMovesAtOnceEvenToThatMember() {
		assertThat(Assignment.decide("b", "old", false, "a", LIVE)).isEqualTo(Assignment.MOVE);
		assertThat(Assignment.decide("a", "old", false, "a", LIVE)).as("stamped with a's new term")
			.isEqualTo(Assignment.MOVE);
		assertThat(Assignment.decide("a", null, false, "a", LIVE)).isEqualTo(Assignment.MOVE);
	}

	@Test
	void withoutMembersNothingMoves() {
		assertThat(Assignment.decide("c", "tc", false, null, Map.of())).isEqualTo(Assignment.NONE);
		assertThat(Assignment.decide(null, null, false, null, Map.of())).isEqualTo(Assignment.NONE);
	}

	@Test
	void anOwnerWithoutATermIsAssignedNothing() {
		assertThat(Assignment.decide(null, null, false, "c", LIVE)).isEqualTo(Assignment.NONE);
	}

}
