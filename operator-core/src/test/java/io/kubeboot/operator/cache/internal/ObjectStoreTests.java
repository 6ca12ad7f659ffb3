package io.kubeboot.operator.cache.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

	private static V1ConfigMap configMap(String namespace, String name, String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace(namespace).name(name).resourceVersion(resourceVersion));
	}

}
