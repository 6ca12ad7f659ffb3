package io.kubeboot.operator.events;

import java.time.Instant;

import io.kubernetes.client.openapi.models.V1ObjectReference;

/**
 * Occurrences of one event not written yet. Guarded by the {@link EventQueue}'s lock
 * while in its {@link AggregationTable}; owned by the writer once taken out.
 */
final class PendingEvent {

	final EventKey key;

	V1ObjectReference reference;

	final Instant first;

	Instant last;

	long count = 1;

	/**
	 * When it may be written, a {@link io.kubeboot.operator.workqueue.Ticker} reading.
	 */
	long dueNanos;

	/**
	 * Orders events due at the same time by arrival; assigned by the table.
	 */
	long sequence;

	/**
	 * How many times writing it failed and was retried.
	 */
	int attempts;

	PendingEvent(EventKey key, V1ObjectReference reference, Instant now, long dueNanos) {
		this.key = key;
		this.reference = reference;
		this.first = now;
		this.last = now;
		this.dueNanos = dueNanos;
	}

	/**
	 * Adds one more occurrence.
	 * @param reference the object as recorded this time (its resource version may have
	 * moved)
	 * @param now when it was recorded
	 */
	void add(V1ObjectReference reference, Instant now) {
		this.reference = reference;
		this.last = now;
		this.count++;
	}

	/**
	 * Adds the occurrences of an earlier batch of the same event whose write failed.
	 * @param earlier the failed batch
	 */
	void merge(PendingEvent earlier) {
		// the earlier batch's occurrences count too; the later reference and time win
		this.count += earlier.count;
		this.attempts = Math.max(this.attempts, earlier.attempts);
	}

}
