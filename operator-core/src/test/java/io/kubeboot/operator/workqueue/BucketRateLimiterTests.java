package io.kubeboot.operator.workqueue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link BucketRateLimiter}.
 */
class BucketRateLimiterTests {

	private final FakeTicker ticker = new FakeTicker();

	private final RateLimiter<Integer> limiter = new BucketRateLimiter<>(10, 100, this.ticker);

	@Test
	void burstIsFreeThenOneTokenPerTenthOfASecond() {
		for (int i = 1; i <= 100; i++) {
			assertThat(this.limiter.when(i)).as("call %d", i).isZero();
		}
		assertThat(this.limiter.when(101)).isEqualTo(Duration.ofMillis(100));
		assertThat(this.limiter.when(102)).isEqualTo(Duration.ofMillis(200));
	}

	@Test
	void reservationsAccumulateAheadOfTime() {
		Duration last = Duration.ZERO;
		for (int i = 1; i <= 1000; i++) {
			last = this.limiter.when(i);
		}
		assertThat(last).isEqualTo(Duration.ofSeconds(90));
	}

	@Test
	void bucketRefillsWithTime() {
		for (int i = 1; i <= 100; i++) {
			this.limiter.when(i);
		}
		this.ticker.advance(Duration.ofSeconds(1));
		for (int i = 1; i <= 10; i++) {
			assertThat(this.limiter.when(i)).as("call %d", i).isZero();
		}
		assertThat(this.limiter.when(11)).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void refillIsCappedAtBurst() {
		this.ticker.advance(Duration.ofHours(1));
		for (int i = 1; i <= 100; i++) {
			assertThat(this.limiter.when(i)).as("call %d", i).isZero();
		}
		assertThat(this.limiter.when(101)).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void waitingReservationsArePaidBackByTime() {
		for (int i = 1; i <= 110; i++) {
			this.limiter.when(i);
		}
		// 10 tokens owed: after 1s the bucket is empty again, not full
		this.ticker.advance(Duration.ofSeconds(1));
		assertThat(this.limiter.when(111)).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void itemsAreNotTracked() {
		this.limiter.when(1);
		this.limiter.forget(1);
		assertThat(this.limiter.numRequeues(1)).isZero();
	}

	@Test
	void systemTickerBurstIsFree() {
		RateLimiter<Integer> system = new BucketRateLimiter<>(10, 100);
		for (int i = 1; i <= 100; i++) {
			assertThat(system.when(i)).isZero();
		}
		assertThat(system.when(101)).isLessThanOrEqualTo(Duration.ofMillis(100));
	}

	@Test
	void rejectsInvalidArguments() {
		assertThatIllegalArgumentException().isThrownBy(() -> new BucketRateLimiter<>(0, 1))
			.withMessageContaining("qps");
		assertThatIllegalArgumentException().isThrownBy(() -> new BucketRateLimiter<>(-1, 1))
			.withMessageContaining("qps");
		assertThatIllegalArgumentException().isThrownBy(() -> new BucketRateLimiter<>(Double.NaN, 1))
			.withMessageContaining("qps");
		assertThatIllegalArgumentException().isThrownBy(() -> new BucketRateLimiter<>(Double.POSITIVE_INFINITY, 1))
			.withMessageContaining("qps");
		assertThatIllegalArgumentException().isThrownBy(() -> new BucketRateLimiter<>(10, 0))
			.withMessageContaining("burst");
	}

}
