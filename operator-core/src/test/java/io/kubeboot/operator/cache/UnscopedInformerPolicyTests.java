package io.kubeboot.operator.cache;

import java.util.Set;

import io.kubeboot.operator.config.InvalidConfigException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link UnscopedInformerPolicy}: the kinds it acknowledges, case aside, and
 * those it refuses.
 */
class UnscopedInformerPolicyTests {

	@Test
	void aBareKindAcknowledgesItInEveryGroupAndAKindOfAGroupOnlyThere() {
		UnscopedInformerPolicy policy = new UnscopedInformerPolicy(Set.of("secret", "Event.events.k8s.io"),
				UnscopedInformerAdvice.BUILDER);
		assertThat(policy.acknowledges("Secret", "")).isTrue();
		assertThat(policy.acknowledges("Event", "events.k8s.io")).isTrue();
		assertThat(policy.acknowledges("Event", "")).isFalse();
		assertThat(policy.acknowledges("Pod", "")).isFalse();
		assertThat(UnscopedInformerPolicy.DEFAULT.acknowledges("Secret", "")).isFalse();
	}

	@Test
	void aKindThatIsNotWarnedOfIsRefused() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> new UnscopedInformerPolicy(Set.of("Deployment"), UnscopedInformerAdvice.BUILDER))
			.withMessage("acknowledgedKinds (Deployment) must be one of the kinds warned of: Secret, ConfigMap, Pod, "
					+ "Event, Event.events.k8s.io");
	}

}
