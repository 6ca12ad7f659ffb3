package io.kubeboot.operator.cache.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.DeltaFIFO;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ObjectStore}: the informer's store by namespace and name, read with
 * client-java's {@code namespace/name} keys too.
 */
class ObjectStoreTests {

	private final ObjectStore<V1ConfigMap> store = new ObjectStore<>();

	@Test
	void objectsAreFoundByObjectByKeyAndByNamespaceAndName() {
		V1ConfigMap first = configMap("team-a", "settings", "1");
		this.store.add(first);
		this.store.add(configMap("team-b", "settings", "2"));
		assertThat(this.store.get(configMap("team-a", "settings", "other"))).isSameAs(first);
		assertThat(this.store.getByKey("team-a/settings")).isSameAs(first);
		assertThat(this.store.get("team-a", "settings")).isSameAs(first);
		assertThat(this.store.get("team-c", "settings")).isNull();
		assertThat(this.store.getByKey("team-a/missing")).isNull();
		assertThat(this.store.listKeys()).containsExactlyInAnyOrder("team-a/settings", "team-b/settings");
		assertThat(this.store.size()).isEqualTo(2);
	}

	@Test
	void anUpdateReplacesAndADeleteRemovesTheObject() {
		this.store.add(configMap("team-a", "settings", "1"));
		V1ConfigMap updated = configMap("team-a", "settings", "2");
		this.store.update(updated);
		assertThat(this.store.list()).containsExactly(updated);
		this.store.delete(configMap("team-a", "settings", "3"));
		assertThat(this.store.list()).isEmpty();
		assertThat(this.store.listKeys()).isEmpty();
		assertThat(this.store.byIndex(Caches.NAMESPACE_INDEX, "team-a")).isEmpty();
		this.store.delete(configMap("team-a", "settings", "4"));
		assertThat(this.store.size()).isZero();
	}

	@Test
	void theNamespaceIndexIsTheNamespacesObjects() {
		V1ConfigMap a1 = configMap("team-a", "one", "1");
		V1ConfigMap a2 = configMap("team-a", "two", "2");
		this.store.add(a1);
		this.store.add(a2);
		this.store.add(configMap("team-b", "one", "3"));
		assertThat(this.store.byIndex(Caches.NAMESPACE_INDEX, "team-a")).containsExactlyInAnyOrder(a1, a2);
		assertThat(this.store.index(Caches.NAMESPACE_INDEX, a1)).containsExactlyInAnyOrder(a1, a2);
		assertThat(this.store.indexKeys(Caches.NAMESPACE_INDEX, "team-a")).containsExactlyInAnyOrder("team-a/one",
				"team-a/two");
		assertThat(this.store.byIndex(Caches.NAMESPACE_INDEX, "team-c")).isEmpty();
		assertThat(this.store.getIndexers()).containsOnlyKeys(Caches.NAMESPACE_INDEX);
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.byIndex("by-label", "x"))
			.withMessageContaining("serves the namespace index only");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.store.addIndexers(Map.of("by-label", (cm) -> List.of())));
	}

	@Test
	void clusterScopedObjectsAreKeyedByNameAlone() {
		ObjectStore<V1Namespace> namespaces = new ObjectStore<>();
		V1Namespace namespace = new V1Namespace().metadata(new V1ObjectMeta().name("team-a"));
		namespaces.add(namespace);
		assertThat(namespaces.getByKey("team-a")).isSameAs(namespace);
		assertThat(namespaces.get(null, "team-a")).isSameAs(namespace);
		assertThat(namespaces.listKeys()).containsExactly("team-a");
		assertThat(Caches.metaNamespaceKeyFunc(namespace)).isEqualTo("team-a");
	}

	@Test
	void replaceSwapsTheWholeContent() {
		this.store.add(configMap("team-a", "old", "1"));
		V1ConfigMap fresh = configMap("team-b", "new", "2");
		this.store.replace(List.of(fresh), "2");
		assertThat(this.store.list()).containsExactly(fresh);
		assertThat(this.store.getByKey("team-a/old")).isNull();
	}

	@Test
	void aDeltaQueueOverTheStoreTellsDeletionsOfARelist() throws InterruptedException {
		// client-java's delta queue reads the store by its keys to find the objects a
		// relist no longer has
		this.store.add(configMap("team-a", "gone", "1"));
		this.store.add(configMap("team-a", "kept", "1"));
		DeltaFIFO deltas = new DeltaFIFO(Caches::metaNamespaceKeyFunc, this.store);
		deltas.replace(List.of(configMap("team-a", "kept", "2")), "2");
		List<String> popped = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			deltas.pop((queued) -> popped
				.add(queued.peekLast().getLeft() + " " + queued.peekLast().getRight().getMetadata().getName()));
		}
		assertThat(popped).containsExactlyInAnyOrder("Sync kept", "Deleted gone");
	}

	@Test
	void theCountFollowsEveryWriteAndItsListenerIsToldOfEveryChangeOfIt() {
		AtomicInteger told = new AtomicInteger();
		ObjectStore<V1ConfigMap> counted = new ObjectStore<>(List.of(), told::incrementAndGet);
		counted.add(configMap("team-a", "one", "1"));
		counted.add(configMap("team-b", "one", "1"));
		assertThat(counted.size()).isEqualTo(2);
		assertThat(told).hasValue(2);
		counted.update(configMap("team-a", "one", "2"));
		assertThat(counted.size()).isEqualTo(2);
		assertThat(told).hasValue(2);
		counted.delete(configMap("team-a", "one", "3"));
		counted.delete(configMap("team-a", "missing", "3"));
		assertThat(counted.size()).isOne();
		assertThat(told).hasValue(3);
		counted.replace(
				List.of(configMap("team-c", "x", "4"), configMap("team-c", "y", "4"), configMap("team-c", "x", "5")),
				"5");
		assertThat(counted.size()).isEqualTo(2);
		assertThat(counted.list()).hasSize(2);
		assertThat(told).hasValue(4);
	}

	@Test
	void aSampleOfAFewObjectsIsAllOfThem() {
		for (int i = 0; i < 5; i++) {
			this.store.add(configMap("team-" + i, "settings", "1"));
		}
		assertThat(this.store.sample(5, new Random(1))).containsExactlyInAnyOrderElementsOf(this.store.list());
		assertThat(new ObjectStore<V1ConfigMap>().sample(5, new Random(1))).isEmpty();
	}

	@Test
	void aSampleOfManyObjectsIsSpreadOverEveryNamespace() {
		for (int namespace = 0; namespace < 10; namespace++) {
			for (int i = 0; i < 100; i++) {
				this.store.add(configMap("team-" + namespace, "cm-" + i, "1"));
			}
		}
		for (long seed = 0; seed < 5; seed++) {
			List<V1ConfigMap> sample = this.store.sample(50, new Random(seed));
			assertThat(sample).hasSize(50).doesNotHaveDuplicates();
			Map<String, Long> perNamespace = sample.stream()
				.collect(Collectors.groupingBy((object) -> object.getMetadata().getNamespace(), Collectors.counting()));
			assertThat(perNamespace).hasSize(10).allSatisfy((namespace, count) -> assertThat(count).isEqualTo(5));
		}
	}

	@Test
	void aSampleReachesEveryNamespaceWhenTheStoreHoldsLessThanTwiceTheLimit() {
		// 1,000 objects for 512 places: a whole stride of one would sample the first 512
		// and leave about half the namespaces out of every sample
		int[] sizes = { 40, 260, 75, 125, 10, 190, 55, 95, 30, 120 };
		for (int namespace = 0; namespace < sizes.length; namespace++) {
			for (int i = 0; i < sizes[namespace]; i++) {
				this.store.add(configMap("team-" + namespace, "cm-" + i, "1"));
			}
		}
		for (long seed = 0; seed < 20; seed++) {
			List<V1ConfigMap> sample = this.store.sample(512, new Random(seed));
			assertThat(sample).hasSize(512).doesNotHaveDuplicates();
			Map<String, Long> perNamespace = sample.stream()
				.collect(Collectors.groupingBy((object) -> object.getMetadata().getNamespace(), Collectors.counting()));
			for (int namespace = 0; namespace < sizes.length; namespace++) {
				double share = sizes[namespace] * 512.0 / 1000;
				assertThat(perNamespace.getOrDefault("team-" + namespace, 0L)).as("team-%d", namespace)
					.isBetween((long) Math.floor(share) - 1, (long) Math.ceil(share) + 1);
			}
		}
	}

	@Test
	void everyObjectIsSampledAsOftenAsAnyOther() {
		// 750 objects for 100 places: a whole stride of 7 never reaches the last 50
		for (int i = 0; i < 750; i++) {
			this.store.add(configMap("team-" + (i % 7), "cm-" + i, "1"));
		}
		Map<String, Integer> picked = new HashMap<>();
		Random random = new Random(7);
		int samples = 2000;
		for (int i = 0; i < samples; i++) {
			for (V1ConfigMap object : this.store.sample(100, random)) {
				picked.merge(object.getMetadata().getNamespace() + "/" + object.getMetadata().getName(), 1,
						Integer::sum);
			}
		}
		// each object with a chance of 2/15 per sample: 267 of 2,000 on average, a
		// standard deviation of 15
		assertThat(picked).hasSize(750).allSatisfy((name, times) -> assertThat(times).isBetween(180, 355));
	}

	private static V1ConfigMap configMap(String namespace, String name, String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace(namespace).name(name).resourceVersion(resourceVersion));
	}

}
