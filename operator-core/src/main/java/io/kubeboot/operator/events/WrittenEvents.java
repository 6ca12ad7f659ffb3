package io.kubeboot.operator.events;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The memory of written Events: for the {@code cacheSize} most recently used keys, the
 * name and count of the Event last written and when it was written. It tells whether a
 * repeat patches an existing Event or creates one, and holds a repeat back until the
 * aggregation interval has passed since the last write. Not thread-safe: the
 * {@link EventQueue} guards it.
 */
final class WrittenEvents {

	private final long aggregationNanos;

	private final LinkedHashMap<EventKey, Entry> byKey;

	WrittenEvents(int cacheSize, long aggregationNanos) {
		this.aggregationNanos = aggregationNanos;
		// access order: a key written or repeated often stays, the oldest is forgotten
		this.byKey = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<EventKey, Entry> eldest) {
				return size() > cacheSize;
			}

		};
	}

	/**
	 * Returns when a new occurrence of an event may be written: now, unless the same
	 * event was written less than the aggregation interval ago.
	 * @param key the event
	 * @param nowNanos the current ticker reading
	 * @return the ticker reading at which it is due
	 */
	long dueNanos(EventKey key, long nowNanos) {
		Entry last = this.byKey.get(key);
		if (last != null && last.lastWriteNanos + this.aggregationNanos - nowNanos > 0) {
			return last.lastWriteNanos + this.aggregationNanos;
		}
		return nowNanos;
	}

	/**
	 * Notes that an event is being written now and returns what was written for it
	 * before.
	 * @param key the event
	 * @param nowNanos the current ticker reading
	 * @return the entry, with a {@code null} name if no Event is known for the key
	 */
	Entry writing(EventKey key, long nowNanos) {
		Entry last = entry(key, nowNanos);
		last.lastWriteNanos = nowNanos;
		return last;
	}

	/**
	 * Notes the Event a write left behind.
	 * @param key the event
	 * @param name the Event's name, {@code null} if the API server did not tell it
	 * @param count the Event's count
	 * @param nowNanos the current ticker reading
	 */
	void written(EventKey key, @Nullable String name, long count, long nowNanos) {
		Entry last = entry(key, nowNanos);
		last.name = name;
		last.count = count;
	}

	private Entry entry(EventKey key, long nowNanos) {
		Entry last = this.byKey.get(key);
		if (last == null) {
			last = new Entry();
			last.lastWriteNanos = nowNanos;
			this.byKey.put(key, last);
		}
		return last;
	}

	/**
	 * The Event last written for a key.
	 */
	static final class Entry {

		@Nullable String name;

		long count;

		long lastWriteNanos;

	}

}
