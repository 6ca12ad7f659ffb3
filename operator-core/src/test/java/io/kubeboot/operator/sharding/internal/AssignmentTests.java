package io.kubeboot.operator.sharding.internal;

import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AssignmentTests {

	private static final Set<String> LIVE = Set.of("a", "b");

	@Test
	void anUnassignedObjectIsAssignedToItsOwner() {
		assertThat(Assignment.decide(null, false, "a", LIVE)).isEqualTo(Assignment.ASSIGN);
		assertThat(Assignment.decide("", false, "a", LIVE)).isEqualTo(Assignment.ASSIGN);
	}

	@Test
	void anObjectOfItsOwnerStays() {
		assertThat(Assignment.decide("a", false, "a", LIVE)).isEqualTo(Assignment.NONE);
	}

	@Test
	void anObjectOfAnotherLiveMemberIsDrainedFirstAndMovesOnlyOnceGivenBack() {
		assertThat(Assignment.decide("b", false, "a", LIVE)).isEqualTo(Assignment.DRAIN);
		assertThat(Assignment.decide("b", true, "a", LIVE)).as("waiting for b").isEqualTo(Assignment.NONE);
		assertThat(Assignment.decide(null, false, "a", LIVE)).as("given back").isEqualTo(Assignment.ASSIGN);
	}

	@Test
	void anObjectOfAMemberThatIsNotLiveMovesAtOnce() {
		assertThat(Assignment.decide("c", false, "a", LIVE)).isEqualTo(Assignment.ASSIGN);
		assertThat(Assignment.decide("c", true, "a", LIVE)).isEqualTo(Assignment.ASSIGN);
	}

	@Test
	void withoutMembersNothingMoves() {
		assertThat(Assignment.decide("c", false, null, Set.of())).isEqualTo(Assignment.NONE);
		assertThat(Assignment.decide(null, false, null, Set.of())).isEqualTo(Assignment.NONE);
	}

}
