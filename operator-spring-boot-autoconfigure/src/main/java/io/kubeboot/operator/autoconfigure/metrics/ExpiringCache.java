package io.kubeboot.operator.autoconfigure.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A bounded cache whose entries expire, the least recently used forgotten first when it
 * is full. Thread-safe.
 *
 * @param <K> the keys
 * @param <V> the values
 */
final class ExpiringCache<K, V> {

	private final Map<K, Entry<V>> entries;

	ExpiringCache(int size) {
		// access order: an entry read at every scrape stays
		this.entries = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<K, Entry<V>> eldest) {
				return size() > size;
			}

		};
	}

	/**
	 * Returns the value of a key, unless it expired.
	 * @param key the key
	 * @param now a reading of the clock
	 * @return the value, {@code null} if there is none or it expired
	 */
	synchronized @Nullable V get(K key, long now) {
		Entry<V> entry = this.entries.get(key);
		if (entry == null) {
			return null;
		}
		if (entry.expiresAtNanos() - now <= 0) {
			this.entries.remove(key);
			return null;
		}
		return entry.value();
	}

	/**
	 * Remembers the value of a key for a time.
	 * @param key the key
	 * @param value the value
	 * @param now a reading of the clock
	 * @param ttlNanos how long, zero or less to remember nothing
	 */
	synchronized void put(K key, V value, long now, long ttlNanos) {
		if (ttlNanos > 0) {
			this.entries.put(key, new Entry<>(value, now + ttlNanos));
		}
	}

	private record Entry<V>(V value, long expiresAtNanos) {

	}

}
