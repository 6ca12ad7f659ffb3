package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;

/**
 * A {@link RateLimiter} that backs off exponentially per item: the delay is
 * {@code base * 2^failures}, where {@code failures} counts the previous {@link #when}
 * calls for the item, saturating at {@code max} for any number of failures. Thread-safe
 * and non-blocking.
 *
 * @param <T> the type of the items
 */
final class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {

	private final long baseNanos;

	private final long maxNanos;

	private final ConcurrentMap<T, Integer> failures = new ConcurrentHashMap<>();

	/**
	 * Creates a limiter.
	 * @param base the delay after the first failure, positive
	 * @param max the maximum delay, at least {@code base}
	 * @throws InvalidConfigException if {@code base} or {@code max} is not positive, or
	 * {@code max} is less than {@code base}
	 */
	ItemExponentialFailureRateLimiter(Duration base, Duration max) {
		ConfigChecks checks = new ConfigChecks();
		boolean positiveBase = checks.positive("base", base);
		if (checks.positive("max", max) && positiveBase) {
			checks.compare(max.compareTo(base) >= 0, "max", max, "must not be less than", "base", base);
		}
		checks.throwIfAny();
		this.baseNanos = saturatedNanos(base);
		this.maxNanos = saturatedNanos(max);
	}

	@Override
	public Duration when(T item) {
		Objects.requireNonNull(item, "item must not be null");
		int exponent = this.failures.merge(item, 1, ItemExponentialFailureRateLimiter::saturatedIncrement) - 1;
		return Duration.ofNanos(backoffNanos(exponent));
	}

	@Override
	public void forget(T item) {
		Objects.requireNonNull(item, "item must not be null");
		this.failures.remove(item);
	}

	@Override
	public int numRequeues(T item) {
		Objects.requireNonNull(item, "item must not be null");
		return this.failures.getOrDefault(item, 0);
	}

	private long backoffNanos(int exponent) {
		// base << exponent <= max exactly when base <= max >> exponent: no overflow
		if (exponent >= Long.SIZE - 1 || this.baseNanos > (this.maxNanos >> exponent)) {
			return this.maxNanos;
		}
		return this.baseNanos << exponent;
	}

	private static Integer saturatedIncrement(int current, int increment) {
		return (current > Integer.MAX_VALUE - increment) ? Integer.MAX_VALUE : current + increment;
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

}
