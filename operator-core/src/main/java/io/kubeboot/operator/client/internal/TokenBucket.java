package io.kubeboot.operator.client.internal;

import java.util.function.LongSupplier;

/**
 * client-go's client-side rate limit ({@code flowcontrol.NewTokenBucketRateLimiter}): a
 * bucket of {@code burst} tokens, refilled at {@code qps} tokens per second, one token
 * per request. A request that finds the bucket empty reserves the next token to come and
 * waits for it, so waiting requests go in the order they arrived and the rate holds
 * however many wait. Thread-safe.
 */
final class TokenBucket {

	private static final double NANOS_PER_SECOND = 1e9;

	private final double qps;

	private final int burst;

	private final LongSupplier nanoTime;

	/** Tokens at {@link #updatedAt}; negative while requests wait for reserved tokens. */
	private double tokens;

	private long updatedAt;

	/**
	 * Creates a full bucket.
	 * @param qps tokens added per second, positive
	 * @param burst the bucket's size, at least 1
	 * @param nanoTime the monotonic clock
	 */
	TokenBucket(double qps, int burst, LongSupplier nanoTime) {
		if (!(qps > 0) || Double.isInfinite(qps)) {
			throw new IllegalArgumentException("qps must be positive, was " + qps);
		}
		if (burst < 1) {
			throw new IllegalArgumentException("burst must be at least 1, was " + burst);
		}
		this.qps = qps;
		this.burst = burst;
		this.nanoTime = nanoTime;
		this.tokens = burst;
		this.updatedAt = nanoTime.getAsLong();
	}

	/**
	 * Takes a token, reserving the next one to come if there is none.
	 * @return how long to wait before sending, in nanoseconds; {@code 0} at once
	 */
	synchronized long reserve() {
		refill();
		this.tokens -= 1;
		return (this.tokens >= 0) ? 0 : (long) Math.ceil(-this.tokens / this.qps * NANOS_PER_SECOND);
	}

	/**
	 * Gives back a reserved token that was not used (its request was abandoned while
	 * waiting).
	 */
	synchronized void giveBack() {
		refill();
		this.tokens = Math.min(this.burst, this.tokens + 1);
	}

	private void refill() {
		long now = this.nanoTime.getAsLong();
		this.tokens = Math.min(this.burst, this.tokens + (now - this.updatedAt) * this.qps / NANOS_PER_SECOND);
		this.updatedAt = now;
	}

}
