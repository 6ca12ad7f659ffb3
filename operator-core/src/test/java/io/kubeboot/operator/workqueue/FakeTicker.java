package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Ticker} that only moves when told to.
 */
final class FakeTicker implements Ticker {

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	@Override
	public long nanoTime() {
		return this.now.get();
	}

	void advance(Duration duration) {
		this.now.addAndGet(duration.toNanos());
	}

}
