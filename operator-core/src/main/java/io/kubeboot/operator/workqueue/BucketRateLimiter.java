package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.Objects;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;

/**
 * A {@link RateLimiter} backed by one token bucket shared by all items, like
 * {@code golang.org/x/time/rate}'s {@code Limiter.Reserve()}: the bucket holds up to
 * {@code burst} tokens, starts full and refills at {@code qps} tokens per second; every
 * {@link #when} reserves one token and returns how long to wait until that token is
 * available. Tokens may be reserved ahead, so with {@code qps = 10} and
 * {@code burst = 100}, the first 100 calls in a burst get no delay, the 101st 100ms and
 * the 1000th 90s. Time is measured with a monotonic {@link Ticker}. Items are not
 * tracked: {@link #forget} does nothing and {@link #numRequeues} is always {@code 0}.
 * Thread-safe and non-blocking.
 *
 * @param <T> the type of the items
 */
public final class BucketRateLimiter<T> implements RateLimiter<T> {

	private static final double NANOS_PER_SECOND = 1_000_000_000d;

	private final double qps;

	private final int burst;

	private final Ticker ticker;

	private double tokens;

	private long last;

	/**
	 * Creates a limiter measuring time with {@link System#nanoTime()}.
	 * @param qps the refill rate, in tokens per second, positive and finite
	 * @param burst the bucket size, at least 1
	 * @throws IllegalArgumentException if an argument is out of range
	 */
	public BucketRateLimiter(double qps, int burst) {
		this(qps, burst, Ticker.system());
	}

	/**
	 * Creates a limiter measuring time with the given ticker.
	 * @param qps the refill rate, in tokens per second, positive and finite
	 * @param burst the bucket size, at least 1
	 * @param ticker the monotonic time source
	 * @throws InvalidConfigException naming each argument out of range
	 */
	public BucketRateLimiter(double qps, int burst, Ticker ticker) {
		ConfigChecks checks = new ConfigChecks();
		checks.check(qps > 0 && !Double.isInfinite(qps), "qps", qps, "must be a positive number");
		checks.atLeast("burst", burst, 1);
		checks.throwIfAny();
		this.qps = qps;
		this.burst = burst;
		this.ticker = Objects.requireNonNull(ticker, "ticker must not be null");
		this.tokens = burst;
		this.last = ticker.nanoTime();
	}

	@Override
	public Duration when(T item) {
		Objects.requireNonNull(item, "item must not be null");
		double deficit;
		synchronized (this) {
			long now = this.ticker.nanoTime();
			long elapsed = now - this.last;
			if (elapsed > 0) {
				this.last = now;
				double refill = elapsed / NANOS_PER_SECOND * this.qps;
				this.tokens = Math.min(this.burst, this.tokens + refill);
			}
			this.tokens -= 1;
			deficit = -this.tokens;
		}
		if (deficit <= 0) {
			return Duration.ZERO;
		}
		double nanos = deficit / this.qps * NANOS_PER_SECOND;
		return Duration.ofNanos((nanos >= Long.MAX_VALUE) ? Long.MAX_VALUE : (long) nanos);
	}

	@Override
	public void forget(T item) {
		Objects.requireNonNull(item, "item must not be null");
	}

	@Override
	public int numRequeues(T item) {
		Objects.requireNonNull(item, "item must not be null");
		return 0;
	}

}
