package io.kubeboot.operator.cache.internal;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubeboot.operator.cache.internal.HeapEstimator.Layout;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HeapEstimator}: HotSpot's layout of strings, arrays, model classes
 * read by reflection and JDK maps and collections read through their methods, with
 * compressed oops and class pointers (12-byte headers, 4-byte references) unless said
 * otherwise.
 */
class HeapEstimatorTests {

	private final HeapEstimator estimator = new HeapEstimator(Layout.DEFAULT, (string) -> false);

	/** Counts no string, to see the rest of a graph on its own. */
	private final HeapEstimator withoutStrings = new HeapEstimator(Layout.DEFAULT, (string) -> true);

	@Test
	void aStringIsItsObjectAndItsArrayOfOneByteACharacterWhenLatin1() {
		// String: 12 header + value, hash, coder, hashIsZero = 22, padded to 24
		assertThat(this.estimator.estimate("abc")).isEqualTo(24 + 24); // 16 + 3 -> 24
		assertThat(this.estimator.estimate("abcdefghi")).isEqualTo(24 + 32); // 16 + 9 -> 32
		assertThat(this.estimator.estimate("")).isEqualTo(24 + 16);
	}

	@Test
	void aStringWithACharacterBeyondLatin1TakesTwoBytesACharacter() {
		assertThat(this.estimator.estimate("ab\u0100cd")).isEqualTo(24 + 32); // 16 + 10 -> 32
		assertThat(this.estimator.estimate("abcde")).isEqualTo(24 + 24); // 16 + 5 -> 24
	}

	@Test
	void aSharedStringCostsNothing() {
		HeapEstimator sharing = new HeapEstimator(Layout.DEFAULT, "shared"::equals);
		assertThat(sharing.estimate("shared")).isZero();
		assertThat(sharing.estimate("own")).isEqualTo(48);
	}

	@Test
	void arraysAreTheirHeaderAndTheirElementsPadded() {
		assertThat(this.estimator.estimate(new byte[100])).isEqualTo(120); // 16 + 100 -> 120
		assertThat(this.estimator.estimate(new long[3])).isEqualTo(40);
		assertThat(this.estimator.estimate(new Object[3])).isEqualTo(32); // 16 + 12 -> 32
		assertThat(this.estimator.estimate(new Object[] { "abc", "abc" })).isEqualTo(24 + 48);
	}

	@Test
	void withoutCompressedOopsReferencesTakeEightBytes() {
		HeapEstimator wide = new HeapEstimator(new Layout(12, 8), (string) -> false);
		assertThat(wide.estimate(new Object[3])).isEqualTo(40); // 16 + 24
		assertThat(wide.estimate(new Pair(null, null))).isEqualTo(32); // 12 + 16 -> 32
		assertThat(this.estimator.estimate(new Pair(null, null))).isEqualTo(24); // 12 + 8 -> 24
	}

	@Test
	void compactObjectHeadersTakeEightBytes() {
		HeapEstimator compact = new HeapEstimator(new Layout(8, 4), (string) -> false);
		assertThat(compact.estimate(new Pair(null, null))).isEqualTo(16);
		assertThat(compact.estimate(new byte[4])).isEqualTo(16); // 12 + 4
	}

	@Test
	void anObjectReachedTwiceIsCountedOnceAndCyclesEnd() {
		String value = "abc";
		assertThat(this.estimator.estimate(new Pair(value, value))).isEqualTo(24 + 48);
		Pair cycle = new Pair(null, null);
		cycle.left = cycle;
		Pair other = new Pair(cycle, null);
		cycle.right = other;
		assertThat(this.estimator.estimate(cycle)).isEqualTo(48);
	}

	@Test
	void sharedValuesOfTheJvmCostNothing() {
		assertThat(this.estimator.estimate(Boolean.TRUE)).isZero();
		assertThat(this.estimator.estimate(Thread.State.RUNNABLE)).isZero();
		assertThat(this.estimator.estimate(100)).isZero();
		assertThat(this.estimator.estimate(1000)).isEqualTo(16);
		assertThat(this.estimator.estimate(1000L)).isEqualTo(24);
		assertThat(this.estimator.estimate(List.of())).isZero();
		assertThat(this.estimator.estimate(Map.of())).isZero();
	}

	@Test
	void aTimestampIsFourObjectsAndASharedOffset() {
		// OffsetDateTime, LocalDateTime, LocalDate, LocalTime: 24 bytes each
		assertThat(this.estimator.estimate(OffsetDateTime.parse("2026-11-01T10:15:30Z"))).isEqualTo(96);
	}

	@Test
	void aHashMapIsItsFieldsItsTableAndANodePerEntry() {
		Map<String, String> map = new HashMap<>();
		assertThat(this.withoutStrings.estimate(map)).isEqualTo(48);
		map.put("a", "b");
		// 48 + a table of 16 slots (16 + 64) + a node of hash, key, value, next (32)
		assertThat(this.withoutStrings.estimate(map)).isEqualTo(48 + 80 + 32);
		for (int i = 0; i < 12; i++) {
			map.put("key-" + i, "value");
		}
		// 13 entries: the table doubled to 32 slots (16 + 128)
		assertThat(this.withoutStrings.estimate(map)).isEqualTo(48 + 144 + 13 * 32);
		Map<String, String> linked = new LinkedHashMap<>(Map.of("a", "b"));
		assertThat(this.withoutStrings.estimate(linked)).isEqualTo(56 + 80 + 40);
	}

	@Test
	void anArrayListIsItsFieldsAndTheArrayItGrewTo() {
		List<String> list = new ArrayList<>();
		assertThat(this.withoutStrings.estimate(list)).isEqualTo(24);
		list.add("a");
		assertThat(this.withoutStrings.estimate(list)).isEqualTo(24 + 56); // 10 slots: 16 + 40
		for (int i = 0; i < 10; i++) {
			list.add("b" + i);
		}
		assertThat(this.withoutStrings.estimate(list)).isEqualTo(24 + 80); // 15 slots: 16 + 60 -> 80
	}

	@Test
	void immutableCollectionsAreTheirFieldsAndTheirArray() {
		assertThat(this.withoutStrings.estimate(List.of("a"))).isEqualTo(24);
		assertThat(this.withoutStrings.estimate(List.of("a", "b", "c"))).isEqualTo(24 + 32);
		// MapN: keys and values in an array of four slots per entry
		assertThat(this.withoutStrings.estimate(Map.of("a", "b", "c", "d"))).isEqualTo(32 + 48);
		assertThat(this.withoutStrings.estimate(Set.of("a", "b", "c"))).isEqualTo(24 + 40);
	}

	@Test
	void aModelIsReadFieldByFieldAndWhatItHoldsCounts() {
		V1Secret empty = secret(0);
		long small = this.estimator.estimate(empty);
		assertThat(small).isPositive();
		// the data's array is all that differs
		assertThat(this.estimator.estimate(secret(10_000)) - small).isEqualTo(10_016 - 16);
		// a name one character longer adds a byte, in the padding or beyond
		long named = this.estimator.estimate(new V1Secret().metadata(new V1ObjectMeta().name("abcdefgh")));
		long longer = this.estimator.estimate(new V1Secret().metadata(new V1ObjectMeta().name("abcdefghi")));
		assertThat(longer - named).isEqualTo(8);
	}

	@Test
	void aModelAsJsonParsesItIsReadThroughGsonsOwnMaps() {
		JSON json = new JSON();
		V1Secret parsed = json.deserialize("""
				{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "labels": {"a": "b"}},
				 "data": {"key": "dmFsdWU="}}""", V1Secret.class);
		V1Secret more = json.deserialize("""
				{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "labels": {"a": "b", "c": "d"}},
				 "data": {"key": "dmFsdWU="}}""", V1Secret.class);
		// one more label: a node of Gson's map and two strings
		assertThat(this.estimator.estimate(more) - this.estimator.estimate(parsed)).isBetween(96L + 48, 96L + 80);
	}

	@Test
	void theStoreAddsAMapEntryPerObject() {
		assertThat(this.estimator.storeEntryBytes()).isEqualTo(32 + 8);
	}

	@Test
	void thisJvmsLayoutIsReadFromItsOptions() {
		Layout layout = Layout.current();
		assertThat(layout.header()).isIn(8, 12, 16);
		assertThat(layout.reference()).isIn(4, 8);
	}

	private static V1Secret secret(int bytes) {
		return new V1Secret().metadata(new V1ObjectMeta().name("secret").namespace("default"))
			.data(new HashMap<>(Map.of("key", new byte[bytes])));
	}

	static final class Pair {

		Object left;

		Object right;

		Pair(Object left, Object right) {
			this.left = left;
			this.right = right;
		}

	}

}
