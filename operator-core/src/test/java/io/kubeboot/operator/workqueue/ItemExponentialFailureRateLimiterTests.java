package io.kubeboot.operator.workqueue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ItemExponentialFailureRateLimiter}.
 */
class ItemExponentialFailureRateLimiterTests {

	private static final Duration MAX = Duration.ofSeconds(1000);

	private final RateLimiter<String> limiter = new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(5), MAX);

	@Test
	void whenDoublesPerFailureFromBase() {
		assertThat(this.limiter.when("a")).isEqualTo(Duration.ofMillis(5));
		assertThat(this.limiter.when("a")).isEqualTo(Duration.ofMillis(10));
		assertThat(this.limiter.when("a")).isEqualTo(Duration.ofMillis(20));
		assertThat(this.limiter.when("a")).isEqualTo(Duration.ofMillis(40));
		assertThat(this.limiter.when("a")).isEqualTo(Duration.ofMillis(80));
		assertThat(this.limiter.numRequeues("a")).isEqualTo(5);
	}

	@Test
	void itemsAreTrackedIndependently() {
		this.limiter.when("a");
		this.limiter.when("a");
		assertThat(this.limiter.when("b")).isEqualTo(Duration.ofMillis(5));
		assertThat(this.limiter.numRequeues("a")).isEqualTo(2);
		assertThat(this.limiter.numRequeues("b")).isEqualTo(1);
		assertThat(this.limiter.numRequeues("c")).isZero();
	}

	@Test
	void whenSaturatesAtMaxAfter100Failures() {
		for (int i = 0; i < 100; i++) {
			this.limiter.when("a");
		}
		assertThat(this.limiter.when("a")).isEqualTo(MAX);
	}

	@Test
	void whenStaysAtMaxAfter10000FailuresWithoutOverflow() {
		Duration previous = Duration.ZERO;
		for (int i = 0; i < 10_000; i++) {
			Duration delay = this.limiter.when("a");
			assertThat(delay).isGreaterThanOrEqualTo(previous).isLessThanOrEqualTo(MAX);
			previous = delay;
		}
		assertThat(previous).isEqualTo(MAX);
		assertThat(this.limiter.when("a")).isEqualTo(MAX);
		assertThat(this.limiter.numRequeues("a")).isEqualTo(10_001);
	}

	@Test
	void whenSaturatesWithHugeMaxAndTinyBase() {
		Duration hugeMax = Duration.ofSeconds(Long.MAX_VALUE);
		RateLimiter<String> huge = new ItemExponentialFailureRateLimiter<>(Duration.ofNanos(1), hugeMax);
		Duration previous = Duration.ZERO;
		for (int i = 0; i < 10_000; i++) {
			Duration delay = huge.when("a");
			assertThat(delay).isGreaterThanOrEqualTo(previous).isPositive();
			previous = delay;
		}
		assertThat(previous).isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
	}

	@Test
	void forgetResetsToBase() {
		for (int i = 0; i < 20; i++) {
			this.limiter.when("a");
		}
		this.limiter.forget("a");
		assertThat(this.limiter.numRequeues("a")).isZero();
		assertThat(this.limiter.when("a")).isEqualTo(Duration.ofMillis(5));
	}

	@Test
	void baseEqualToMaxIsConstant() {
		RateLimiter<String> constant = new ItemExponentialFailureRateLimiter<>(Duration.ofSeconds(1),
				Duration.ofSeconds(1));
		assertThat(constant.when("a")).isEqualTo(Duration.ofSeconds(1));
		assertThat(constant.when("a")).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void rejectsInvalidArguments() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ItemExponentialFailureRateLimiter<>(Duration.ZERO, MAX))
			.withMessageContaining("base");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(-1), MAX))
			.withMessageContaining("base");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ItemExponentialFailureRateLimiter<>(Duration.ofSeconds(2), Duration.ofSeconds(1)))
			.withMessageContaining("max");
	}

}
