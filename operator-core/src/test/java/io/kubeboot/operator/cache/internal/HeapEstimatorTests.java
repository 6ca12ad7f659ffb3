package io.kubeboot.operator.cache.internal;

import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HeapEstimator}: HotSpot's layout of strings, arrays, model classes
 * read by reflection and JDK maps and collections read through their methods, with
 * compressed oops and class pointers (12-byte headers, 4-byte references) unless said
 * otherwise, and the bounds of a walk.
 */
class HeapEstimatorTests {

	private final HeapEstimator estimator = new HeapEstimator(ObjectLayout.DEFAULT);

	@Test
	void aStringIsItsObjectAndItsArrayOfOneByteACharacterWhenLatin1() {
		// String: 12 header + value, hash, coder, hashIsZero = 22, padded to 24
		assertThat(estimate("abc")).isEqualTo(24 + 24); // 16 + 3 -> 24
		assertThat(estimate("abcdefghi")).isEqualTo(24 + 32); // 16 + 9 -> 32
		assertThat(estimate("")).isEqualTo(24 + 16);
	}

	@Test
	void aStringWithACharacterBeyondLatin1TakesTwoBytesACharacter() {
		assertThat(estimate("ab\u0100cd")).isEqualTo(24 + 32); // 16 + 10 -> 32
		assertThat(estimate("abcde")).isEqualTo(24 + 24); // 16 + 5 -> 24
	}

	@Test
	void aLongStringIsReadAtAFewThousandCharactersSpreadOverIt() {
		String latin1 = "a".repeat(1_000_000);
		assertThat(estimate(latin1)).isEqualTo(24 + 1_000_016);
		// a character beyond Latin-1 every 100: some of them read
		String wide = "\u20ac".repeat(10_000).replace("\u20ac", "\u20ac" + "a".repeat(99));
		assertThat(estimate(wide)).isEqualTo(24 + 2_000_016);
		// one beyond Latin-1 between two characters read: counted as Latin-1
		String almost = "a".repeat(500_001) + "\u20ac" + "a".repeat(499_998);
		assertThat(estimate(almost)).isEqualTo(24 + 1_000_016);
	}

	@Test
	void arraysAreTheirHeaderAndTheirElementsPadded() {
		assertThat(estimate(new byte[100])).isEqualTo(120); // 16 + 100 -> 120
		assertThat(estimate(new long[3])).isEqualTo(40);
		assertThat(estimate(new Object[3])).isEqualTo(32); // 16 + 12 -> 32
		assertThat(estimate(new Object[] { "abc", "abc" })).isEqualTo(24 + 48);
	}

	@Test
	void withoutCompressedOopsReferencesTakeEightBytes() {
		HeapEstimator wide = new HeapEstimator(new ObjectLayout(12, 8));
		assertThat(wide.walk(100).estimate(new Object[3])).isEqualTo(40); // 16 + 24
		assertThat(wide.walk(100).estimate(new Pair(null, null))).isEqualTo(32); // 12 +
																					// 16
																					// ->
																					// 32
		assertThat(estimate(new Pair(null, null))).isEqualTo(24); // 12 + 8 -> 24
	}

	@Test
	void compactObjectHeadersTakeEightBytes() {
		HeapEstimator compact = new HeapEstimator(new ObjectLayout(8, 4));
		assertThat(compact.walk(100).estimate(new Pair(null, null))).isEqualTo(16);
		assertThat(compact.walk(100).estimate(new byte[4])).isEqualTo(16); // 12 + 4
	}

	@Test
	void anObjectReachedTwiceIsCountedOnceAndCyclesEnd() {
		String value = "abc";
		assertThat(estimate(new Pair(value, value))).isEqualTo(24 + 48);
		Pair cycle = new Pair(null, null);
		cycle.left = cycle;
		Pair other = new Pair(cycle, null);
		cycle.right = other;
		assertThat(estimate(cycle)).isEqualTo(48);
	}

	@Test
	void whatSeveralObjectsOfOneWalkShareCountsOnce() {
		String shared = "abc";
		HeapEstimator.Walk walk = this.estimator.walk(100);
		assertThat(walk.estimate(new Pair(shared, null))).isEqualTo(24 + 48);
		assertThat(walk.estimate(new Pair(shared, null))).isEqualTo(24);
		// left out by the walk: not counted, nor followed
		HeapEstimator.Walk excluding = this.estimator.walk(100);
		Pair excluded = new Pair("abc", null);
		excluding.exclude(excluded);
		assertThat(excluding.estimate(new Pair(excluded, "def"))).isEqualTo(24 + 48);
	}

	@Test
	void aWalkStopsAfterItsVisitsAndSaysSo() {
		List<String> strings = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			strings.add("s" + i);
		}
		HeapEstimator.Walk walk = this.estimator.walk(100);
		long cut = walk.estimate(strings);
		assertThat(walk.complete()).isFalse();
		assertThat(walk.spent()).isTrue();
		assertThat(walk.visited()).isEqualTo(100);
		HeapEstimator.Walk whole = this.estimator.walk(10_000);
		assertThat(cut).isLessThan(whole.estimate(strings));
		assertThat(whole.complete()).isTrue();
		assertThat(whole.visited()).isEqualTo(1001);
	}

	@Test
	void aModelOfAnAutomaticModuleIsReadFieldByField() throws Exception {
		// client-java's models on the module path: a named module, open to reflection
		Path jar = Path.of(V1ObjectMeta.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		ModuleFinder finder = ModuleFinder.of(jar);
		String name = finder.findAll().iterator().next().descriptor().name();
		Configuration configuration = ModuleLayer.boot()
			.configuration()
			.resolve(finder, ModuleFinder.of(), Set.of(name));
		ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(configuration, getClass().getClassLoader());
		Class<?> type = layer.findLoader(name).loadClass(V1ObjectMeta.class.getName());
		assertThat(type.getModule().isNamed()).isTrue();
		Object metadata = type.getConstructor().newInstance();
		type.getMethod("setName", String.class).invoke(metadata, "a-rather-long-name-of-an-object");
		type.getMethod("setLabels", Map.class).invoke(metadata, new HashMap<>(Map.of("app", "shop")));
		assertThat(estimate(metadata)).isEqualTo(estimate(new V1ObjectMeta().name("a-rather-long-name-of-an-object")
			.labels(new HashMap<>(Map.of("app", "shop")))));
	}

	@Test
	void sharedValuesOfTheJvmCostNothing() {
		assertThat(estimate(Boolean.TRUE)).isZero();
		assertThat(estimate(Thread.State.RUNNABLE)).isZero();
		assertThat(estimate(100)).isZero();
		assertThat(estimate(1000)).isEqualTo(16);
		assertThat(estimate(1000L)).isEqualTo(24);
		assertThat(estimate(List.of())).isZero();
		assertThat(estimate(Map.of())).isZero();
	}

	@Test
	void aTimestampIsFourObjectsAndASharedOffset() {
		// OffsetDateTime, LocalDateTime, LocalDate, LocalTime: 24 bytes each
		assertThat(estimate(OffsetDateTime.parse("2026-11-01T10:15:30Z"))).isEqualTo(96);
	}

	@Test
	void aHashMapIsItsFieldsItsTableAndANodePerEntry() {
		Map<String, String> map = new HashMap<>();
		assertThat(withoutStrings(map)).isEqualTo(48);
		map.put("a", "b");
		// 48 + a table of 16 slots (16 + 64) + a node of hash, key, value, next (32)
		assertThat(withoutStrings(map)).isEqualTo(48 + 80 + 32);
		for (int i = 0; i < 12; i++) {
			map.put("key-" + i, "value");
		}
		// 13 entries: the table doubled to 32 slots (16 + 128)
		assertThat(withoutStrings(map)).isEqualTo(48 + 144 + 13 * 32);
		Map<String, String> linked = new LinkedHashMap<>(Map.of("a", "b"));
		assertThat(withoutStrings(linked)).isEqualTo(56 + 80 + 40);
	}

	@Test
	void anArrayListIsItsFieldsAndTheArrayItGrewTo() {
		List<String> list = new ArrayList<>();
		assertThat(withoutStrings(list)).isEqualTo(24);
		list.add("a");
		assertThat(withoutStrings(list)).isEqualTo(24 + 56); // 10 slots: 16 + 40
		for (int i = 0; i < 10; i++) {
			list.add("b" + i);
		}
		assertThat(withoutStrings(list)).isEqualTo(24 + 80); // 15 slots: 16 + 60 -> 80
	}

	@Test
	void immutableCollectionsAreTheirFieldsAndTheirArray() {
		assertThat(withoutStrings(List.of("a"))).isEqualTo(24);
		assertThat(withoutStrings(List.of("a", "b", "c"))).isEqualTo(24 + 32);
		// MapN: keys and values in an array of four slots per entry
		assertThat(withoutStrings(Map.of("a", "b", "c", "d"))).isEqualTo(32 + 48);
		assertThat(withoutStrings(Set.of("a", "b", "c"))).isEqualTo(24 + 40);
	}

	@Test
	void aModelIsReadFieldByFieldAndWhatItHoldsCounts() {
		V1Secret empty = secret(0);
		long small = estimate(empty);
		assertThat(small).isPositive();
		// the data's array is all that differs
		assertThat(estimate(secret(10_000)) - small).isEqualTo(10_016 - 16);
		// a name one character longer adds a byte, in the padding or beyond
		long named = estimate(new V1Secret().metadata(new V1ObjectMeta().name("abcdefgh")));
		long longer = estimate(new V1Secret().metadata(new V1ObjectMeta().name("abcdefghi")));
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
		assertThat(estimate(more) - estimate(parsed)).isBetween(96L + 48, 96L + 80);
	}

	@Test
	void theStoreAddsAMapEntryPerObject() {
		assertThat(new HeapSampler(this.estimator).storeEntryBytes()).isEqualTo(32 + 8);
	}

	private long estimate(Object object) {
		return this.estimator.walk(1_000_000).estimate(object);
	}

	/** Estimates an object without the strings it holds, to see the rest on its own. */
	private long withoutStrings(Object object) {
		HeapEstimator.Walk walk = this.estimator.walk(1_000_000);
		long all = walk.estimate(object);
		long strings = 0;
		HeapEstimator.Walk each = this.estimator.walk(1_000_000);
		for (Object element : (object instanceof Map<?, ?> map) ? concat(map.keySet(), map.values())
				: (Iterable<?>) object) {
			strings += (element instanceof String) ? each.estimate(element) : 0;
		}
		return all - strings;
	}

	private static List<Object> concat(Iterable<?> first, Iterable<?> second) {
		List<Object> all = new ArrayList<>();
		first.forEach(all::add);
		second.forEach(all::add);
		return all;
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
