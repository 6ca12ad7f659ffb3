package io.kubeboot.operator.leaderelection;

import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.InvalidConfigException.Violation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class LeaseTimingsTests {

	@Test
	void theDefaultsAreControllerRuntimes() {
		assertThat(LeaseTimings.DEFAULT)
			.isEqualTo(new LeaseTimings(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2)));
	}

	@Test
	void theLeaseMustLastAtLeastASecond() {
		assertThat(violations(Duration.ofMillis(500), Duration.ofMillis(400), Duration.ofMillis(100)))
			.containsExactly(new Violation("leaseDuration", Duration.ofMillis(500), "must be at least 1s"));
	}

	@Test
	void eachTimingMustBeShorterThanTheOneBefore() {
		assertThat(violations(Duration.ofSeconds(15), Duration.ofSeconds(15), Duration.ofSeconds(15))).containsExactly(
				new Violation("renewDeadline", Duration.ofSeconds(15), "must be less than", "leaseDuration",
						Duration.ofSeconds(15)),
				new Violation("retryPeriod", Duration.ofSeconds(15), "must be less than", "renewDeadline",
						Duration.ofSeconds(15)));
	}

	@Test
	void timingsThatAreNotPositiveAreNotComparedToTheOthers() {
		assertThat(violations(Duration.ofSeconds(15), Duration.ZERO, Duration.ZERO)).containsExactly(
				new Violation("renewDeadline", Duration.ZERO, "must be positive"),
				new Violation("retryPeriod", Duration.ZERO, "must be positive"));
	}

	@Test
	void leaderElectionChecksItsTimingsWithItsNames() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> new LeaderElectionConfig("Team_A", "", "pod-1", Duration.ofSeconds(5),
					Duration.ofSeconds(10), Duration.ofSeconds(2), true, LostLeasePolicy.EXIT))
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::setting)
				.containsExactly("namespace", "name", "renewDeadline"))
			.withMessageContaining("renewDeadline (PT10S) must be less than leaseDuration (PT5S)");
	}

	private static List<Violation> violations(Duration lease, Duration renew, Duration retry) {
		try {
			new LeaseTimings(lease, renew, retry);
			return List.of();
		}
		catch (InvalidConfigException ex) {
			return ex.violations();
		}
	}

}
