package io.kubeboot.operator.sharding.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class HashRingTests {

	private static final List<String> KEYS = keys(3000);

	@Test
	void threeMembersShareThreeThousandKeysEvenly() {
		Map<String, Integer> shares = shares(new HashRing(List.of("a", "b", "c"), 100), KEYS);
		assertThat(shares).hasSize(3);
		// each a third, within 10% of a third
		shares.values().forEach((count) -> assertThat(count).isBetween(900, 1100));
	}

	@Test
	void aJoiningMemberTakesAboutItsShareAndNothingMovesBetweenTheOthers() {
		HashRing before = new HashRing(List.of("a", "b", "c"), 100);
		HashRing after = new HashRing(List.of("a", "b", "c", "d"), 100);
		int moved = 0;
		for (String key : KEYS) {
			String old = before.owner(key);
			String now = after.owner(key);
			if (!old.equals(now)) {
				moved++;
				assertThat(now).as("a moved key goes to the new member").isEqualTo("d");
			}
		}
		// about a quarter
		assertThat(moved).isBetween(600, 900);
	}

	@Test
	void aLeavingMemberHandsOnlyItsOwnKeysToTheOthers() {
		HashRing before = new HashRing(List.of("a", "b", "c"), 100);
		HashRing after = new HashRing(List.of("a", "c"), 100);
		int moved = 0;
		for (String key : KEYS) {
			String old = before.owner(key);
			if (!old.equals(after.owner(key))) {
				moved++;
				assertThat(old).as("only the leaving member's keys move").isEqualTo("b");
			}
		}
		assertThat(moved).isEqualTo(shares(before, KEYS).get("b"));
	}

	@Test
	void ownersDoNotDependOnTheOrderMembersAreGivenIn() {
		HashRing one = new HashRing(List.of("a", "b", "c"), 100);
		HashRing other = new HashRing(List.of("c", "a", "b", "a"), 100);
		assertThat(other).isEqualTo(one);
		KEYS.forEach((key) -> assertThat(other.owner(key)).isEqualTo(one.owner(key)));
	}

	@Test
	void theHashIsTheDocumentedOne() {
		// FNV-1a 64 of no bytes is its offset basis; fmix64 of that, computed by hand
		assertThat(HashRing.hash("")).isEqualTo(fmix64(0xcbf29ce484222325L));
		// 'a' = 0x61: one FNV-1a round
		assertThat(HashRing.hash("a")).isEqualTo(fmix64((0xcbf29ce484222325L ^ 0x61) * 0x100000001b3L));
	}

	@Test
	void keysNameGroupKindNamespaceAndName() {
		assertThat(HashRing.key("apps", "Deployment", "default", "web")).isEqualTo("apps/Deployment/default/web");
		assertThat(HashRing.key(null, "Namespace", null, "kube-system")).isEqualTo("/Namespace//kube-system");
	}

	@Test
	void anEmptyRingOwnsNothing() {
		assertThat(new HashRing(List.of(), 100).owner("x")).isNull();
	}

	@Test
	void virtualNodesMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new HashRing(List.of("a"), 0))
			.withMessage("virtualNodes must be at least 1, was 0");
	}

	private static long fmix64(long k) {
		k ^= k >>> 33;
		k *= 0xff51afd7ed558ccdL;
		k ^= k >>> 33;
		k *= 0xc4ceb9fe1a85ec53L;
		k ^= k >>> 33;
		return k;
	}

	private static Map<String, Integer> shares(HashRing ring, List<String> keys) {
		Map<String, Integer> shares = new HashMap<>();
		keys.forEach((key) -> shares.merge(ring.owner(key), 1, Integer::sum));
		return shares;
	}

	private static List<String> keys(int count) {
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			keys.add(HashRing.key("example.com", "Widget", "ns-" + (i % 7), "widget-" + i));
		}
		return keys;
	}

}
