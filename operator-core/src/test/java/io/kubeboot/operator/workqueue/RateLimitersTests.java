package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link RateLimiters} and {@link MaxOfRateLimiter}.
 */
class RateLimitersTests {

	@Test
	void defaultControllerRateLimiterBacksOffPerItemFrom5ms() {
		RateLimiter<String> limiter = RateLimiters.defaultControllerRateLimiter();
		assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(10));
		assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(20));
		assertThat(limiter.numRequeues("a")).isEqualTo(3);
		limiter.forget("a");
		assertThat(limiter.numRequeues("a")).isZero();
		assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
	}

	@Test
	void defaultControllerRateLimiterSaturatesAt1000s() {
		RateLimiter<String> limiter = RateLimiters.defaultControllerRateLimiter();
		Duration last = Duration.ZERO;
		for (int i = 0; i < 1000; i++) {
			last = limiter.when("a");
		}
		assertThat(last).isEqualTo(Duration.ofSeconds(1000));
	}

	@Test
	void defaultControllerRateLimiterIsBoundByTheOverallBucket() {
		RateLimiter<Integer> limiter = RateLimiters.defaultControllerRateLimiter();
		Duration last = Duration.ZERO;
		for (int i = 0; i < 200; i++) {
			last = limiter.when(i);
		}
		// 100 tokens owed at 10 qps: ~10s, far above the 5ms of a first failure
		assertThat(last).isGreaterThan(Duration.ofSeconds(1));
	}

	@Test
	void controllerRateLimiterTakesTheMaxOfBackoffAndBucket() {
		FakeTicker ticker = new FakeTicker();
		RateLimiter<Integer> limiter = RateLimiters.controllerRateLimiter(Duration.ofMillis(5),
				Duration.ofSeconds(1000), 10, 100, ticker);
		for (int i = 1; i <= 100; i++) {
			assertThat(limiter.when(i)).as("item %d", i).isEqualTo(Duration.ofMillis(5));
		}
		assertThat(limiter.when(101)).isEqualTo(Duration.ofMillis(100));
		ticker.advance(Duration.ofHours(1));
		assertThat(limiter.when(1)).isEqualTo(Duration.ofMillis(10));
	}

	@Test
	void controllerRateLimiterValidatesArguments() {
		Duration max = Duration.ofSeconds(1000);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RateLimiters.controllerRateLimiter(Duration.ZERO, max, 10, 100))
			.withMessageContaining("base");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RateLimiters.controllerRateLimiter(Duration.ofSeconds(2000), max, 10, 100))
			.withMessageContaining("max");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RateLimiters.controllerRateLimiter(Duration.ofMillis(5), max, 0, 100))
			.withMessageContaining("qps");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RateLimiters.controllerRateLimiter(Duration.ofMillis(5), max, 10, 0))
			.withMessageContaining("burst");
	}

	@Test
	void maxOfReturnsLongestDelayAndForwardsToAll() {
		StubLimiter short1 = new StubLimiter(Duration.ofMillis(1), 3);
		StubLimiter long1 = new StubLimiter(Duration.ofMillis(7), 1);
		RateLimiter<String> limiter = RateLimiters.maxOf(short1, long1);
		assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(7));
		assertThat(short1.whens).containsExactly("a");
		assertThat(long1.whens).containsExactly("a");
		assertThat(limiter.numRequeues("a")).isEqualTo(3);
		limiter.forget("a");
		assertThat(short1.forgotten).containsExactly("a");
		assertThat(long1.forgotten).containsExactly("a");
	}

	@Test
	void maxOfRequiresALimiter() {
		assertThatIllegalArgumentException().isThrownBy(() -> RateLimiters.<String>maxOf())
			.withMessageContaining("limiters");
	}

	static final class StubLimiter implements RateLimiter<String> {

		private final Duration delay;

		private final int requeues;

		final List<String> whens = new ArrayList<>();

		final List<String> forgotten = new ArrayList<>();

		StubLimiter(Duration delay, int requeues) {
			this.delay = delay;
			this.requeues = requeues;
		}

		@Override
		public Duration when(String item) {
			this.whens.add(item);
			return this.delay;
		}

		@Override
		public void forget(String item) {
			this.forgotten.add(item);
		}

		@Override
		public int numRequeues(String item) {
			return this.requeues;
		}

	}

}
