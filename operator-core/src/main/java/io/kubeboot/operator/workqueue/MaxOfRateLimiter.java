package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A {@link RateLimiter} that combines others: {@link #when} asks every one of them (so
 * each records the requeue) and returns the longest delay, {@link #forget} forwards to
 * all of them, and {@link #numRequeues} is the largest of their counts. Thread-safe and
 * non-blocking when the combined limiters are.
 *
 * @param <T> the type of the items
 */
final class MaxOfRateLimiter<T> implements RateLimiter<T> {

	private final List<RateLimiter<T>> limiters;

	/**
	 * Creates a limiter combining the given ones.
	 * @param limiters the limiters to combine, at least one
	 * @throws IllegalArgumentException if {@code limiters} is empty
	 */
	@SafeVarargs
	@SuppressWarnings("varargs")
	MaxOfRateLimiter(RateLimiter<T>... limiters) {
		Objects.requireNonNull(limiters, "limiters must not be null");
		if (limiters.length == 0) {
			throw new IllegalArgumentException("limiters must not be empty");
		}
		this.limiters = List.of(limiters);
	}

	@Override
	public Duration when(T item) {
		Duration longest = Duration.ZERO;
		for (RateLimiter<T> limiter : this.limiters) {
			Duration delay = limiter.when(item);
			if (delay.compareTo(longest) > 0) {
				longest = delay;
			}
		}
		return longest;
	}

	@Override
	public void forget(T item) {
		for (RateLimiter<T> limiter : this.limiters) {
			limiter.forget(item);
		}
	}

	@Override
	public int numRequeues(T item) {
		int max = 0;
		for (RateLimiter<T> limiter : this.limiters) {
			max = Math.max(max, limiter.numRequeues(item));
		}
		return max;
	}

}
