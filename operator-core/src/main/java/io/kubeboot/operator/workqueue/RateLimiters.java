package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;

/**
 * Factory methods for {@link RateLimiter} instances, including controller-runtime's
 * default controller rate limiter. Every limiter returned is thread-safe.
 */
public final class RateLimiters {

	/**
	 * The delay after an item's first failure in the default controller rate limiter.
	 */
	public static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(5);

	/**
	 * The maximum per-item delay in the default controller rate limiter.
	 */
	public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(1000);

	/**
	 * The overall rate, in requeues per second, of the default controller rate limiter.
	 */
	public static final double DEFAULT_QPS = 10;

	/**
	 * The overall burst of the default controller rate limiter.
	 */
	public static final int DEFAULT_BURST = 100;

	private RateLimiters() {
	}

	/**
	 * Returns a new instance of controller-runtime's default controller rate limiter: the
	 * maximum of a per-item exponential backoff from 5ms to 1000s and an overall token
	 * bucket of 10 requeues per second with a burst of 100.
	 * @param <T> the type of the items
	 * @return a new limiter
	 */
	public static <T> RateLimiter<T> defaultControllerRateLimiter() {
		return controllerRateLimiter(DEFAULT_BASE_DELAY, DEFAULT_MAX_DELAY, DEFAULT_QPS, DEFAULT_BURST);
	}

	/**
	 * Returns a new controller rate limiter with the given settings: the maximum of a
	 * per-item {@link ItemExponentialFailureRateLimiter exponential backoff} and an
	 * overall {@link BucketRateLimiter token bucket}.
	 * @param <T> the type of the items
	 * @param base the delay after an item's first failure, positive
	 * @param max the maximum per-item delay, at least {@code base}
	 * @param qps the overall rate, in requeues per second, positive and finite
	 * @param burst the overall burst, at least 1
	 * @return a new limiter
	 * @throws InvalidConfigException naming each argument out of range ({@code base},
	 * {@code max}, {@code qps}, {@code burst})
	 */
	public static <T> RateLimiter<T> controllerRateLimiter(Duration base, Duration max, double qps, int burst) {
		return controllerRateLimiter(base, max, qps, burst, Ticker.system());
	}

	/**
	 * Returns a new controller rate limiter like
	 * {@link #controllerRateLimiter(Duration, Duration, double, int)}, whose token bucket
	 * measures time with the given ticker.
	 * @param <T> the type of the items
	 * @param base the delay after an item's first failure, positive
	 * @param max the maximum per-item delay, at least {@code base}
	 * @param qps the overall rate, in requeues per second, positive and finite
	 * @param burst the overall burst, at least 1
	 * @param ticker the monotonic time source of the token bucket
	 * @return a new limiter
	 * @throws InvalidConfigException naming each argument out of range ({@code base},
	 * {@code max}, {@code qps}, {@code burst})
	 */
	public static <T> RateLimiter<T> controllerRateLimiter(Duration base, Duration max, double qps, int burst,
			Ticker ticker) {
		// both parts are created before either fails, so that every argument at fault is
		// named
		List<RateLimiter<T>> parts = new ArrayList<>(2);
		ConfigChecks checks = new ConfigChecks();
		checks.include(() -> parts.add(new ItemExponentialFailureRateLimiter<>(base, max)));
		checks.include(() -> parts.add(new BucketRateLimiter<>(qps, burst, ticker)));
		checks.throwIfAny();
		return new MaxOfRateLimiter<>(parts.get(0), parts.get(1));
	}

	/**
	 * Returns a new per-item exponential backoff limiter.
	 * @param <T> the type of the items
	 * @param base the delay after an item's first failure, positive
	 * @param max the maximum delay, at least {@code base}
	 * @return a new limiter
	 * @throws IllegalArgumentException if an argument is out of range
	 * @see ItemExponentialFailureRateLimiter
	 */
	public static <T> RateLimiter<T> exponentialFailure(Duration base, Duration max) {
		return new ItemExponentialFailureRateLimiter<>(base, max);
	}

	/**
	 * Returns a new overall token bucket limiter.
	 * @param <T> the type of the items
	 * @param qps the rate, in tokens per second, positive and finite
	 * @param burst the bucket size, at least 1
	 * @return a new limiter
	 * @throws IllegalArgumentException if an argument is out of range
	 * @see BucketRateLimiter
	 */
	public static <T> RateLimiter<T> bucket(double qps, int burst) {
		return new BucketRateLimiter<>(qps, burst);
	}

	/**
	 * Returns a limiter that applies the longest delay of the given ones.
	 * @param <T> the type of the items
	 * @param limiters the limiters to combine, at least one
	 * @return a new limiter
	 * @throws IllegalArgumentException if {@code limiters} is empty
	 * @see MaxOfRateLimiter
	 */
	@SafeVarargs
	@SuppressWarnings("varargs")
	public static <T> RateLimiter<T> maxOf(RateLimiter<T>... limiters) {
		return new MaxOfRateLimiter<>(limiters);
	}

}
