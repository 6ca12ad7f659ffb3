package io.kubeboot.operator.workqueue;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * The items ready to be handed out: one first-in, first-out line per priority, the
 * highest priority first. An entry whose item was raised to a higher priority is only
 * marked removed and skipped when its line reaches it, so that raising an item costs no
 * search. Not thread-safe: the queue's lock guards it.
 *
 * @param <T> the type of the items
 */
final class ReadyItems<T> {

	private final TreeMap<Integer, Line<T>> lines = new TreeMap<>(Comparator.reverseOrder());

	private int size;

	/**
	 * Queues an item behind those of its priority.
	 * @param item the item, not queued yet
	 * @param priority its priority
	 * @param since when it became ready, for the queue latency
	 * @return its entry, to {@link #remove} it later
	 */
	Entry<T> add(T item, int priority, long since) {
		Entry<T> entry = new Entry<>(item, priority, since);
		this.lines.computeIfAbsent(priority, (key) -> new Line<>()).add(entry);
		this.size++;
		return entry;
	}

	/**
	 * Takes an entry out of the line it waits in.
	 * @param entry an entry returned by {@link #add} and not polled or removed yet
	 */
	void remove(Entry<T> entry) {
		entry.removed = true;
		this.lines.get(entry.priority).live--;
		this.size--;
	}

	/**
	 * Takes the first entry of the highest priority.
	 * @return the entry, or {@code null} if none is ready
	 */
	@Nullable Entry<T> poll() {
		while (!this.lines.isEmpty()) {
			Map.Entry<Integer, Line<T>> first = this.lines.firstEntry();
			Line<T> line = first.getValue();
			Entry<T> entry;
			while ((entry = line.entries.pollFirst()) != null) {
				if (!entry.removed) {
					line.live--;
					this.size--;
					if (line.entries.isEmpty()) {
						this.lines.remove(first.getKey());
					}
					return entry;
				}
			}
			this.lines.remove(first.getKey());
		}
		return null;
	}

	/**
	 * Returns the number of ready items.
	 * @return the number of ready items
	 */
	int size() {
		return this.size;
	}

	/**
	 * Returns the number of ready items of one priority.
	 * @param priority the priority
	 * @return the number of ready items of that priority
	 */
	int size(int priority) {
		Line<T> line = this.lines.get(priority);
		return (line != null) ? line.live : 0;
	}

	/**
	 * Returns the priorities that have a line, ready items or not.
	 * @return the priorities, highest first
	 */
	Set<Integer> priorities() {
		return this.lines.keySet();
	}

	/**
	 * Discards every entry.
	 */
	void clear() {
		this.lines.clear();
		this.size = 0;
	}

	/**
	 * An item waiting in a line.
	 *
	 * @param <T> the type of the items
	 */
	static final class Entry<T> {

		final T item;

		final int priority;

		final long since;

		boolean removed;

		Entry(T item, int priority, long since) {
			this.item = item;
			this.priority = priority;
			this.since = since;
		}

	}

	private static final class Line<T> {

		final ArrayDeque<Entry<T>> entries = new ArrayDeque<>();

		/** Entries not removed. */
		int live;

		void add(Entry<T> entry) {
			this.entries.addLast(entry);
			this.live++;
		}

	}

}
