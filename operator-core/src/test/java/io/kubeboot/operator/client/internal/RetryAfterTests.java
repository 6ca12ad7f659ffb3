package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RetryAfterTests {

	@Test
	void readsWholeSecondsWhateverTheCaseOfTheHeaderName() {
		assertThat(RetryAfter.parse(Map.of("Retry-After", List.of("1")))).isEqualTo(Duration.ofSeconds(1));
		assertThat(RetryAfter.parse(Map.of("retry-after", List.of(" 30 ")))).isEqualTo(Duration.ofSeconds(30));
		assertThat(RetryAfter.parse(Map.of("RETRY-AFTER", List.of("0")))).isEqualTo(Duration.ZERO);
	}

	@Test
	void anythingButANonNegativeNumberOfSecondsIsNothing() {
		assertThat(RetryAfter.parse(null)).isNull();
		assertThat(RetryAfter.parse(Map.of())).isNull();
		assertThat(RetryAfter.parse(Map.of("Content-Type", List.of("application/json")))).isNull();
		assertThat(RetryAfter.parse(Map.of("Retry-After", List.of()))).isNull();
		assertThat(RetryAfter.parse(Map.of("Retry-After", List.of("Wed, 21 Oct 2026 07:28:00 GMT")))).isNull();
		assertThat(RetryAfter.parse(Map.of("Retry-After", List.of("1.5")))).isNull();
		assertThat(RetryAfter.parse(Map.of("Retry-After", List.of("-1")))).isNull();
		assertThat(RetryAfter.parse(Map.of("Retry-After", List.of("99999999999999999999")))).isNull();
	}

	@Test
	void waitsOneSecondForNothingOrLessAndAtMostOneMinute() {
		assertThat(RetryAfter.wait(null)).isEqualTo(Duration.ofSeconds(1));
		assertThat(RetryAfter.wait(Duration.ZERO)).isEqualTo(Duration.ofSeconds(1));
		assertThat(RetryAfter.wait(Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(1));
		assertThat(RetryAfter.wait(Duration.ofSeconds(7))).isEqualTo(Duration.ofSeconds(7));
		assertThat(RetryAfter.wait(Duration.ofSeconds(60))).isEqualTo(Duration.ofSeconds(60));
		assertThat(RetryAfter.wait(Duration.ofHours(2))).isEqualTo(Duration.ofSeconds(60));
	}

}
