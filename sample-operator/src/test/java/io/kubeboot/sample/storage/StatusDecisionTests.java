package io.kubeboot.sample.storage;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import io.kubeboot.operator.model.Condition;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status logic of {@link StorageBucketReconciler}, without a cluster: which probes
 * are worth a write and an Event.
 */
class StatusDecisionTests {

	private static final Duration REFRESH = Duration.ofMinutes(5);

	private static final OffsetDateTime T0 = OffsetDateTime.of(2024, 5, 1, 10, 0, 0, 0, ZoneOffset.UTC);

	private static final ProbeResult UP = new ProbeResult(true, ProbeResult.REACHABLE, "GET x answered HTTP 200",
			Duration.ofMillis(5));

	private static final ProbeResult DOWN = new ProbeResult(false, ProbeResult.ERROR,
			"GET x answered HTTP 503, expected 2xx or 3xx", Duration.ofMillis(5));

	@Test
	void firstProbeIsWrittenAsATransition() {
		StatusDecision decision = StatusDecision.decide(bucket(1, null), UP, T0, REFRESH);
		assertThat(decision.write()).isTrue();
		assertThat(decision.transition()).isTrue();
		assertThat(decision.status().getObservedGeneration()).isEqualTo(1);
		assertThat(decision.status().getLastProbeTime()).isEqualTo(T0);
		Condition available = decision.status().condition(StorageBucketStatus.AVAILABLE).orElseThrow();
		assertThat(available.getStatus()).isEqualTo("True");
		assertThat(available.getReason()).isEqualTo("EndpointReachable");
		assertThat(available.getObservedGeneration()).isEqualTo(1);
		assertThat(available.getLastTransitionTime()).isEqualTo(T0);
	}

	@Test
	void theSameResultIsNotWrittenAgainUntilTheProbeTimeIsStale() {
		StorageBucketStatus written = StatusDecision.decide(bucket(1, null), UP, T0, REFRESH).status();
		StatusDecision soon = StatusDecision.decide(bucket(1, written), UP, T0.plusMinutes(4), REFRESH);
		assertThat(soon.write()).isFalse();
		assertThat(soon.transition()).isFalse();
		StatusDecision later = StatusDecision.decide(bucket(1, written), UP, T0.plusMinutes(5), REFRESH);
		assertThat(later.write()).isTrue();
		assertThat(later.transition()).isFalse();
		assertThat(later.status().getLastProbeTime()).isEqualTo(T0.plusMinutes(5));
		assertThat(later.status().condition(StorageBucketStatus.AVAILABLE).orElseThrow().getLastTransitionTime())
			.isEqualTo(T0);
	}

	@Test
	void aChangedStatusIsWrittenAsATransition() {
		StorageBucketStatus written = StatusDecision.decide(bucket(1, null), UP, T0, REFRESH).status();
		StatusDecision decision = StatusDecision.decide(bucket(1, written), DOWN, T0.plusSeconds(30), REFRESH);
		assertThat(decision.write()).isTrue();
		assertThat(decision.transition()).isTrue();
		Condition available = decision.status().condition(StorageBucketStatus.AVAILABLE).orElseThrow();
		assertThat(available.getStatus()).isEqualTo("False");
		assertThat(available.getReason()).isEqualTo("EndpointError");
		assertThat(available.getLastTransitionTime()).isEqualTo(T0.plusSeconds(30));
	}

	@Test
	void aNewReasonOrGenerationIsWrittenButIsNoTransition() {
		StorageBucketStatus written = StatusDecision.decide(bucket(1, null), DOWN, T0, REFRESH).status();
		ProbeResult refused = new ProbeResult(false, ProbeResult.UNREACHABLE, "GET x failed: connection refused",
				Duration.ofMillis(1));
		StatusDecision newReason = StatusDecision.decide(bucket(1, written), refused, T0.plusSeconds(30), REFRESH);
		assertThat(newReason.write()).isTrue();
		assertThat(newReason.transition()).isFalse();
		assertThat(newReason.status().condition(StorageBucketStatus.AVAILABLE).orElseThrow().getLastTransitionTime())
			.isEqualTo(T0);
		StatusDecision newGeneration = StatusDecision.decide(bucket(2, written), DOWN, T0.plusSeconds(30), REFRESH);
		assertThat(newGeneration.write()).isTrue();
		assertThat(newGeneration.transition()).isFalse();
		assertThat(newGeneration.status().getObservedGeneration()).isEqualTo(2);
	}

	@Test
	void conditionsOfOtherTypesAreKept() {
		Condition other = new Condition().type("Encrypted").status("True").reason("KeyFound").message("m");
		StorageBucketStatus current = new StorageBucketStatus().conditions(List.of(other));
		StatusDecision decision = StatusDecision.decide(bucket(1, current), UP, T0, REFRESH);
		assertThat(decision.status().getConditions()).extracting(Condition::getType)
			.containsExactly("Encrypted", "Available");
	}

	private static StorageBucket bucket(long generation, StorageBucketStatus status) {
		return new StorageBucket().metadata(new V1ObjectMeta().namespace("ns").name("b").generation(generation))
			.status(status);
	}

}
