package io.kubeboot.operator.events;

import io.kubeboot.operator.workqueue.BucketRateLimiter;
import io.kubeboot.operator.workqueue.Ticker;

/**
 * The token bucket all writes share: {@code qps} writes per second with a burst of
 * {@code burst}. The next write's token is reserved once and kept until a write uses it,
 * so waking up early (for a newly recorded event) does not take a second token. Not
 * thread-safe: the {@link EventQueue} guards it.
 */
final class WriteRateLimit {

	private static final String TOKEN = "write";

	private final BucketRateLimiter<String> limiter;

	private boolean reserved;

	private long tokenNanos;

	WriteRateLimit(double qps, int burst, Ticker ticker) {
		this.limiter = new BucketRateLimiter<>(qps, burst, ticker);
	}

	/**
	 * Reserves the next write's token unless it is reserved, and returns how long until
	 * it may be used.
	 * @param nowNanos the current ticker reading
	 * @return nanoseconds to wait, zero or negative if the write may go now
	 */
	long waitNanos(long nowNanos) {
		if (!this.reserved) {
			this.tokenNanos = nowNanos + this.limiter.when(TOKEN).toNanos();
			this.reserved = true;
		}
		return this.tokenNanos - nowNanos;
	}

	/**
	 * Notes that a write went out: the next one needs a new token.
	 */
	void used() {
		this.reserved = false;
	}

}
