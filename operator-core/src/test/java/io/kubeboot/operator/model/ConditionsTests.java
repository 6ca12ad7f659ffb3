package io.kubeboot.operator.model;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ConditionsTests {

	private static final Instant FIRST = Instant.parse("2026-11-29T10:00:00.750Z");

	private static final Instant LATER = Instant.parse("2026-11-29T11:30:00Z");

	private final List<Condition> conditions = new ArrayList<>();

	@Test
	void aNewConditionIsAddedWithTheTimeInWholeSecondsAndAnEmptyMessage() {
		assertThat(Conditions.set(this.conditions, Condition.of("Ready", Condition.TRUE, "Done", null), at(FIRST)))
			.isTrue();

		assertThat(this.conditions).singleElement().satisfies((ready) -> {
			assertThat(ready.getLastTransitionTime())
				.isEqualTo(OffsetDateTime.of(2026, 11, 29, 10, 0, 0, 0, ZoneOffset.UTC));
			assertThat(ready.getMessage()).isEmpty();
		});
	}

	@Test
	void theTransitionTimeMovesOnlyWhenTheStatusChanges() {
		Conditions.set(this.conditions, ready(Condition.FALSE, "Waiting", 1L), at(FIRST));
		OffsetDateTime first = this.conditions.get(0).getLastTransitionTime();

		assertThat(Conditions.set(this.conditions, ready(Condition.FALSE, "StillWaiting", 2L), at(LATER))).isTrue();
		assertThat(this.conditions.get(0).getLastTransitionTime()).isEqualTo(first);
		assertThat(this.conditions.get(0).getReason()).isEqualTo("StillWaiting");
		assertThat(this.conditions.get(0).getObservedGeneration()).isEqualTo(2L);

		assertThat(Conditions.set(this.conditions, ready(Condition.TRUE, "Done", 2L), at(LATER))).isTrue();
		assertThat(this.conditions.get(0).getLastTransitionTime()).isEqualTo(LATER.atOffset(ZoneOffset.UTC));
	}

	@Test
	void theSameObservationChangesNothing() {
		Conditions.set(this.conditions, ready(Condition.TRUE, "Done", 3L), at(FIRST));
		Condition before = this.conditions.get(0);

		assertThat(Conditions.set(this.conditions, ready(Condition.TRUE, "Done", 3L), at(LATER))).isFalse();
		assertThat(this.conditions.get(0)).isSameAs(before);
	}

	@Test
	void aTransitionTimeGivenWithTheConditionIsKept() {
		OffsetDateTime given = OffsetDateTime.parse("2026-01-01T00:00:00Z");

		Conditions.set(this.conditions, ready(Condition.TRUE, "Done", 1L).lastTransitionTime(given), at(LATER));

		assertThat(this.conditions.get(0).getLastTransitionTime()).isEqualTo(given);
	}

	@Test
	void aConditionInTheListIsReplacedNeverChanged() {
		Condition cached = ready(Condition.FALSE, "Waiting", 1L).lastTransitionTime(FIRST.atOffset(ZoneOffset.UTC));
		List<Condition> copy = new ArrayList<>(List.of(cached));

		Conditions.set(copy, ready(Condition.TRUE, "Done", 2L), at(LATER));

		assertThat(cached.getStatus()).isEqualTo(Condition.FALSE);
		assertThat(cached.getReason()).isEqualTo("Waiting");
		assertThat(copy.get(0).getStatus()).isEqualTo(Condition.TRUE);
	}

	@Test
	void otherTypesAreKeptInTheirOrder() {
		Conditions.set(this.conditions, Condition.of("Available", Condition.TRUE, "Answers", ""), at(FIRST));
		Conditions.set(this.conditions, ready(Condition.TRUE, "Done", 1L), at(FIRST));

		Conditions.set(this.conditions, Condition.of("Available", Condition.FALSE, "Silent", ""), at(LATER));

		assertThat(this.conditions).extracting(Condition::getType).containsExactly("Available", "Ready");
		assertThat(Conditions.isFalse(this.conditions, "Available")).isTrue();
		assertThat(Conditions.isTrue(this.conditions, "Ready")).isTrue();
	}

	@Test
	void removeAndFind() {
		Conditions.set(this.conditions, ready(Condition.TRUE, "Done", 1L), at(FIRST));

		assertThat(Conditions.find(this.conditions, "Ready")).isPresent();
		assertThat(Conditions.remove(this.conditions, "Ready")).isTrue();
		assertThat(Conditions.remove(this.conditions, "Ready")).isFalse();
		assertThat(Conditions.find(this.conditions, "Ready")).isEmpty();
		assertThat(Conditions.find(null, "Ready")).isEmpty();
		assertThat(Conditions.isTrue(null, "Ready")).isFalse();
		assertThat(Conditions.isFalse(this.conditions, "Ready")).isFalse();
	}

	@Test
	void whatTheApiServerWouldRefuseIsRefusedHere() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Conditions.set(this.conditions, Condition.of("Ready", "Yes", "Done", "")))
			.withMessage("Condition Ready needs the status True, False or Unknown, not Yes");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Conditions.set(this.conditions, Condition.of("Ready", Condition.TRUE, " ", "")))
			.withMessage("Condition Ready needs a reason, one UpperCamelCase word such as ConfigMapUpToDate");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Conditions.set(this.conditions, Condition.of("", Condition.TRUE, "Done", "")))
			.withMessageStartingWith("A condition needs a type, such as Ready");
		assertThat(this.conditions).isEmpty();
	}

	private static Condition ready(String status, String reason, Long generation) {
		return Condition.of("Ready", status, reason, "").observedGeneration(generation);
	}

	private static Clock at(Instant instant) {
		return Clock.fixed(instant, ZoneOffset.UTC);
	}

}
