package io.kubeboot.operator.events;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.workqueue.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the occurrences that will never be written and reports them: the first drop and
 * then at most one drop every 10 seconds are logged as a warning (with the number of
 * occurrences dropped since the last warning), the others at debug level. Thread-safe;
 * never blocks.
 */
final class DroppedEvents {

	private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

	// the recorder's logger: the log lines and their configuration stay as they were
	private static final Logger logger = LoggerFactory.getLogger(KubernetesEventRecorder.class);

	private final String component;

	private final Ticker ticker;

	private final AtomicLong total = new AtomicLong();

	private final AtomicLong lastLog = new AtomicLong();

	private final AtomicLong sinceLog = new AtomicLong();

	DroppedEvents(String component, Ticker ticker) {
		this.component = component;
		this.ticker = ticker;
	}

	/**
	 * Counts and logs dropped occurrences.
	 * @param cause a short word for why, such as {@code queue-full}
	 * @param occurrences how many
	 * @param detail {@code key=value} pairs telling which event and why
	 */
	void drop(String cause, long occurrences, String detail) {
		long total = this.total.addAndGet(occurrences);
		long suppressed = this.sinceLog.addAndGet(occurrences);
		long now = this.ticker.nanoTime();
		long last = this.lastLog.get();
		boolean first = total == occurrences;
		if ((first || now - last >= LOG_INTERVAL_NANOS) && this.lastLog.compareAndSet(last, now)) {
			this.sinceLog.addAndGet(-suppressed);
			logger.warn("Dropped events: cause={} component={} occurrences={} droppedTotal={} {}", cause,
					this.component, suppressed, total, detail);
		}
		else {
			logger.debug("Dropped events: cause={} component={} occurrences={} droppedTotal={} {}", cause,
					this.component, occurrences, total, detail);
		}
	}

	/**
	 * Counts dropped occurrences the caller logs itself.
	 * @param occurrences how many
	 */
	void count(long occurrences) {
		this.total.addAndGet(occurrences);
	}

	/**
	 * Returns how many occurrences were dropped.
	 * @return the total
	 */
	long total() {
		return this.total.get();
	}

}
