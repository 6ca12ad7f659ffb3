package io.kubeboot.operator.events;

import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

import org.jspecify.annotations.Nullable;

/**
 * The events waiting to be written, one entry per {@link EventKey} (so identical events
 * add to one count), ordered by when each is due. Holds at most {@code capacity} entries
 * recorded by callers; retried writes go back in even when it is full, since their
 * occurrences were accepted already. Not thread-safe: the {@link EventQueue} guards it.
 */
final class AggregationTable {

	private final int capacity;

	private final Map<EventKey, PendingEvent> byKey = new HashMap<>();

	private final PriorityQueue<PendingEvent> byDue = new PriorityQueue<>(AggregationTable::compareDue);

	private long sequence;

	AggregationTable(int capacity) {
		this.capacity = capacity;
	}

	int capacity() {
		return this.capacity;
	}

	boolean isFull() {
		return this.byKey.size() >= this.capacity;
	}

	@Nullable PendingEvent get(EventKey key) {
		return this.byKey.get(key);
	}

	/**
	 * Adds an event whose key is not in the table.
	 * @param event the event
	 * @return whether it is due first now, so a waiting writer must look again
	 */
	boolean add(PendingEvent event) {
		event.sequence = this.sequence++;
		this.byKey.put(event.key, event);
		this.byDue.add(event);
		return this.byDue.peek() == event;
	}

	/**
	 * Puts back an event whose write failed, due at the given time; if identical events
	 * were recorded meanwhile, one entry carries them all, due at the later time.
	 * @param failed the event taken out before
	 * @param dueNanos when to write it again
	 */
	void putBack(PendingEvent failed, long dueNanos) {
		PendingEvent existing = this.byKey.get(failed.key);
		if (existing != null) {
			// identical events came in meanwhile: one retry writes them all
			this.byDue.remove(existing);
			existing.merge(failed);
			if (dueNanos - existing.dueNanos > 0) {
				existing.dueNanos = dueNanos;
			}
			this.byDue.add(existing);
		}
		else {
			failed.dueNanos = dueNanos;
			add(failed);
		}
	}

	/**
	 * Returns the event due first.
	 * @return the event, or {@code null} if the table is empty
	 */
	@Nullable PendingEvent head() {
		return this.byDue.peek();
	}

	/**
	 * Removes the event due first.
	 * @return the event
	 */
	PendingEvent removeHead() {
		PendingEvent head = this.byDue.remove();
		this.byKey.remove(head.key);
		return head;
	}

	/**
	 * Empties the table.
	 * @return what it held
	 */
	Lost clear() {
		long occurrences = 0;
		for (PendingEvent event : this.byKey.values()) {
			occurrences += event.count;
		}
		Lost lost = new Lost(this.byKey.size(), occurrences);
		this.byKey.clear();
		this.byDue.clear();
		return lost;
	}

	private static int compareDue(PendingEvent first, PendingEvent second) {
		// nanoTime readings compare by their difference, never by their values
		int byDue = Long.signum(first.dueNanos - second.dueNanos);
		return (byDue != 0) ? byDue : Long.compare(first.sequence, second.sequence);
	}

	/**
	 * Events removed from the table unwritten.
	 *
	 * @param events how many distinct events
	 * @param occurrences how many occurrences they carried
	 */
	record Lost(int events, long occurrences) {
	}

}
