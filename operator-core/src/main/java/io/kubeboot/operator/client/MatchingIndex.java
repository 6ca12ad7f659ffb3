package io.kubeboot.operator.client;

import java.util.Objects;

/**
 * Selects the cached objects that an index of the cache files under a key, the
 * counterpart of controller-runtime's {@code client.MatchingFields} on an indexed field:
 * {@code client.list(App.class, namespace, MatchingIndex.of("secretRef", "db-secret"))}.
 * The index is declared per kind with {@code CacheIndex}, which also makes these
 * ({@code CacheIndex.matching(key)}). Only the manager's cache knows its indexes: an
 * uncached reader refuses the lookup.
 *
 * @param index the name of the index
 * @param key the key to look up, as the index function returns it
 */
public record MatchingIndex(String index, String key) {

	/**
	 * Creates a lookup.
	 * @param index the name of the index
	 * @param key the key to look up
	 * @throws IllegalArgumentException if the name is blank
	 */
	public MatchingIndex {
		Objects.requireNonNull(index, "index must not be null");
		Objects.requireNonNull(key, "key must not be null");
		if (index.isBlank()) {
			throw new IllegalArgumentException("index must not be blank");
		}
	}

	/**
	 * Returns a lookup of the objects an index files under a key.
	 * @param index the name of the index
	 * @param key the key to look up
	 * @return the lookup
	 * @throws IllegalArgumentException if the name is blank
	 */
	public static MatchingIndex of(String index, String key) {
		return new MatchingIndex(index, key);
	}

}
