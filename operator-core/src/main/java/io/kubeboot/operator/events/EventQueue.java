package io.kubeboot.operator.events;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.kubeboot.operator.workqueue.Ticker;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * Hands recorded events to the writer when they are due: the {@link AggregationTable} of
 * pending events, the {@link WrittenEvents} that hold a repeat back for the aggregation
 * interval, and the {@link WriteRateLimit}, all under one lock. {@link #offer} never
 * blocks; {@link #take} blocks the writer until an event is due and a token is free. Once
 * {@link #close() closed} it refuses new events and hands out every pending one at once,
 * ignoring the interval and the rate limit, so the writer can flush. Thread-safe.
 */
final class EventQueue {

	/**
	 * Why {@link #offer} refused an event, as logged with the drop.
	 */
	static final String CLOSED = "closed";

	/**
	 * Why {@link #offer} refused an event, as logged with the drop.
	 */
	static final String FULL = "queue-full";

	private final AggregationTable pending;

	private final WrittenEvents written;

	private final WriteRateLimit rateLimit;

	private final Ticker ticker;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private volatile boolean closing;

	EventQueue(AggregationTable pending, WrittenEvents written, WriteRateLimit rateLimit, Ticker ticker) {
		this.pending = pending;
		this.written = written;
		this.rateLimit = rateLimit;
		this.ticker = ticker;
	}

	/**
	 * Adds one occurrence of an event, to its pending count if it is pending already.
	 * Never blocks.
	 * @param key the event
	 * @param reference the object it is about
	 * @param now when it was recorded
	 * @return {@code null} if it was taken, else why not: {@link #CLOSED} or
	 * {@link #FULL}
	 */
	@Nullable String offer(EventKey key, V1ObjectReference reference, Instant now) {
		this.lock.lock();
		try {
			if (this.closing) {
				return CLOSED;
			}
			PendingEvent existing = this.pending.get(key);
			if (existing != null) {
				existing.add(reference, now);
				return null;
			}
			if (this.pending.isFull()) {
				return FULL;
			}
			long due = this.written.dueNanos(key, this.ticker.nanoTime());
			if (this.pending.add(new PendingEvent(key, reference, now, due))) {
				this.changed.signal();
			}
			return null;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Blocks until an event is due and the rate limit lets it be written, then takes it
	 * out. Once closed, returns pending events at once.
	 * @return the event with the Event it adds to, or {@code null} once closed and empty
	 * @throws InterruptedException if the thread is interrupted while waiting
	 */
	@Nullable Batch take() throws InterruptedException {
		this.lock.lock();
		try {
			while (true) {
				PendingEvent head = this.pending.head();
				if (head == null) {
					if (this.closing) {
						return null;
					}
					this.changed.await();
					continue;
				}
				long now = this.ticker.nanoTime();
				if (!this.closing) {
					long wait = head.dueNanos - now;
					if (wait <= 0) {
						wait = this.rateLimit.waitNanos(now);
					}
					if (wait > 0) {
						this.changed.awaitNanos(wait);
						continue;
					}
				}
				this.rateLimit.used();
				this.pending.removeHead();
				WrittenEvents.Entry last = this.written.writing(head.key, now);
				return new Batch(head, last.name, last.count);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Notes the Event a write left behind, for the next write of the same event.
	 * @param key the event
	 * @param name the Event's name, {@code null} if unknown
	 * @param count the Event's count
	 */
	void written(EventKey key, @Nullable String name, long count) {
		this.lock.lock();
		try {
			this.written.written(key, name, count, this.ticker.nanoTime());
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Puts back an event whose write failed, to be written again after a delay.
	 * @param failed the event
	 * @param delay how long to wait
	 * @return {@code false} if closed: the caller drops the event
	 */
	boolean retry(PendingEvent failed, Duration delay) {
		this.lock.lock();
		try {
			if (this.closing) {
				return false;
			}
			this.pending.putBack(failed, this.ticker.nanoTime() + delay.toNanos());
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Refuses new events from now on and wakes the writer to flush.
	 * @return {@code true} for the first call
	 */
	boolean close() {
		this.lock.lock();
		try {
			if (this.closing) {
				return false;
			}
			this.closing = true;
			this.changed.signalAll();
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	boolean isClosed() {
		return this.closing;
	}

	int capacity() {
		return this.pending.capacity();
	}

	/**
	 * Empties the table, for what could not be written before the flush timeout.
	 * @return what it held
	 */
	AggregationTable.Lost drain() {
		this.lock.lock();
		try {
			return this.pending.clear();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Occurrences taken out to be written, with the Event they add to.
	 *
	 * @param event the occurrences
	 * @param name the Event written before for the same key, or {@code null}
	 * @param writtenCount the count of that Event
	 */
	record Batch(PendingEvent event, @Nullable String name, long writtenCount) {
	}

}
