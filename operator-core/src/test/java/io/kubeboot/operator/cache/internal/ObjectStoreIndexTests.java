package io.kubeboot.operator.cache.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubeboot.operator.cache.CacheIndex;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.DeltaFIFO;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for the cache's indexes as an {@link ObjectStore} keeps them
 * ({@link StoreIndex}): ConfigMaps indexed by the Secrets their {@code secrets} value
 * names, comma-separated.
 */
class ObjectStoreIndexTests {

	private static final CacheIndex<V1ConfigMap> BY_SECRET = CacheIndex.of(V1ConfigMap.class, "secretRef",
			ObjectStoreIndexTests::secretsOf);

	private final ObjectStore<V1ConfigMap> store = new ObjectStore<>(List.of(BY_SECRET));

	@Test
	void aLookupInANamespaceFindsThatNamespacesObjectsAndOneInAllNamespacesEveryNamespaces() {
		V1ConfigMap a1 = configMap("team-a", "one", "db,cache");
		V1ConfigMap a2 = configMap("team-a", "two", "db");
		V1ConfigMap b1 = configMap("team-b", "one", "db");
		this.store.add(a1);
		this.store.add(a2);
		this.store.add(b1);
		this.store.add(configMap("team-a", "none", null));
		assertThat(lookup("team-a", "db")).containsExactlyInAnyOrder(a1, a2);
		assertThat(lookup("team-b", "db")).containsExactly(b1);
		assertThat(lookup(null, "db")).containsExactlyInAnyOrder(a1, a2, b1);
		assertThat(lookup("team-a", "cache")).containsExactly(a1);
		assertThat(lookup("team-b", "cache")).isEmpty();
		assertThat(lookup("team-c", "db")).isEmpty();
		assertThat(lookup("team-a", "missing")).isEmpty();
	}

	@Test
	void anUpdateMovesTheObjectFromTheKeysItLeftToTheKeysItGained() {
		this.store.add(configMap("team-a", "app", "db,cache"));
		V1ConfigMap moved = configMap("team-a", "app", "cache,queue");
		this.store.update(moved);
		assertThat(lookup("team-a", "db")).isEmpty();
		assertThat(lookup(null, "db")).isEmpty();
		assertThat(lookup("team-a", "cache")).containsExactly(moved);
		assertThat(lookup(null, "queue")).containsExactly(moved);
		// the informer updates through add when its store has the object already
		V1ConfigMap back = configMap("team-a", "app", "db");
		this.store.add(back);
		assertThat(lookup("team-a", "db")).containsExactly(back);
		assertThat(lookup("team-a", "cache")).isEmpty();
		assertThat(keyCount()).isEqualTo(2);
	}

	@Test
	void anObjectCreatedAgainUnderItsNameReplacesTheOldOneUnderEveryKey() {
		this.store.add(withUid(configMap("team-a", "app", "db"), "uid-1"));
		V1ConfigMap recreated = withUid(configMap("team-a", "app", "db"), "uid-2");
		this.store.update(recreated);
		assertThat(lookup("team-a", "db")).containsExactly(recreated);
		assertThat(lookup(null, "db")).containsExactly(recreated);
	}

	@Test
	void aDeleteTakesTheObjectOffEveryKey() {
		this.store.add(configMap("team-a", "app", "db,cache"));
		V1ConfigMap other = configMap("team-a", "other", "db");
		this.store.add(other);
		// a deletion carries the last state seen, which may differ from the one stored
		this.store.delete(configMap("team-a", "app", "something-else"));
		assertThat(lookup("team-a", "db")).containsExactly(other);
		assertThat(lookup(null, "cache")).isEmpty();
		this.store.delete(other);
		assertThat(keyCount()).isZero();
	}

	@Test
	void aRelistsTombstoneTakesTheStoredObjectOffItsKeys() throws InterruptedException {
		this.store.add(configMap("team-a", "gone", "db"));
		V1ConfigMap kept = configMap("team-a", "kept", "db");
		this.store.add(kept);
		// a relist that no longer finds an object deletes it through a tombstone, which
		// is no ConfigMap: the index function must not see it
		DeltaFIFO deltas = new DeltaFIFO(Caches::metaNamespaceKeyFunc, this.store);
		deltas.replace(List.of(kept), "2");
		List<KubernetesObject> deleted = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			deltas.pop((queued) -> {
				if (queued.peekLast().getLeft() == DeltaFIFO.DeltaType.Deleted) {
					deleted.add(queued.peekLast().getRight());
				}
			});
		}
		assertThat(deleted).singleElement().isNotInstanceOf(V1ConfigMap.class);
		deleted.forEach(this::deleteTombstone);
		assertThat(lookup("team-a", "db")).containsExactly(kept);
	}

	@Test
	void replaceRebuildsTheIndexFromTheNewContent() {
		this.store.add(configMap("team-a", "old", "db"));
		V1ConfigMap fresh = configMap("team-b", "new", "db");
		this.store.replace(List.of(fresh), "2");
		assertThat(lookup("team-a", "db")).isEmpty();
		assertThat(lookup(null, "db")).containsExactly(fresh);
	}

	@Test
	void anIndexAddedToAStoreHoldingObjectsFilesThemAtOnceAndKeepsTheNext() {
		ObjectStore<V1ConfigMap> unindexed = new ObjectStore<>();
		V1ConfigMap early = configMap("team-a", "early", "db");
		unindexed.add(early);
		unindexed.addIndex(BY_SECRET);
		unindexed.addIndex(BY_SECRET);
		assertThat(unindexed.byIndex("secretRef", "team-a", "db")).containsExactly(early);
		V1ConfigMap late = configMap("team-a", "late", "db");
		unindexed.add(late);
		assertThat(unindexed.byIndex("secretRef", "team-a", "db")).containsExactlyInAnyOrder(early, late);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> unindexed.addIndex(CacheIndex.of(V1ConfigMap.class, "secretRef", (cm) -> List.of())))
			.withMessageContaining("another index named 'secretRef'");
		assertThatIllegalStateException().isThrownBy(() -> unindexed.byIndex("other", null, "db"))
			.withMessage("Index 'other' is not built yet: it is being declared");
	}

	@Test
	void clusterScopedObjectsAreFoundByALookupInAllNamespaces() {
		CacheIndex<V1Namespace> byTeam = CacheIndex.of(V1Namespace.class, "team",
				(namespace) -> List.of(namespace.getMetadata().getLabels().get("team")));
		ObjectStore<V1Namespace> namespaces = new ObjectStore<>(List.of(byTeam));
		V1Namespace shop = new V1Namespace().metadata(new V1ObjectMeta().name("shop").putLabelsItem("team", "a"));
		namespaces.add(shop);
		namespaces.add(new V1Namespace().metadata(new V1ObjectMeta().name("blog").putLabelsItem("team", "b")));
		assertThat(namespaces.byIndex("team", null, "a")).containsExactly(shop);
		assertThat(namespaces.byIndex("team", "shop", "a")).isEmpty();
		V1Namespace moved = new V1Namespace().metadata(new V1ObjectMeta().name("shop").putLabelsItem("team", "b"));
		namespaces.update(moved);
		assertThat(namespaces.byIndex("team", null, "a")).isEmpty();
		assertThat(namespaces.byIndex("team", null, "b")).hasSize(2).contains(moved);
	}

	@Test
	void anIndexFunctionThatFailsFilesTheObjectUnderNoKeyAndLeavesNoStaleEntry() {
		AtomicBoolean failing = new AtomicBoolean();
		CacheIndex<V1ConfigMap> fragile = CacheIndex.of(V1ConfigMap.class, "fragile", (configMap) -> {
			if (failing.get()) {
				throw new IllegalStateException("cannot read " + configMap.getMetadata().getName());
			}
			return secretsOf(configMap);
		});
		ObjectStore<V1ConfigMap> store = new ObjectStore<>(List.of(fragile));
		store.add(configMap("team-a", "app", "db"));
		failing.set(true);
		// neither its new keys nor its old ones can be told: the old version is taken off
		// every key rather than left under one it may have left
		store.update(configMap("team-a", "app", "cache"));
		assertThat(store.byIndex("fragile", "team-a", "db")).isEmpty();
		assertThat(store.byIndex("fragile", "team-a", "cache")).isEmpty();
		failing.set(false);
		V1ConfigMap fixed = configMap("team-a", "app", "queue");
		store.update(fixed);
		assertThat(store.byIndex("fragile", null, "queue")).containsExactly(fixed);
		store.add(configMap("team-a", "other", "db"));
		failing.set(true);
		store.delete(configMap("team-a", "other", "db"));
		assertThat(store.byIndex("fragile", null, "db")).isEmpty();
		assertThat(store.byIndex("fragile", null, "queue")).containsExactly(fixed);
	}

	@Test
	void namespacedKeysFollowControllerRuntime() {
		assertThat(StoreIndex.namespaced("team-a", "db")).isEqualTo("team-a/db");
		assertThat(StoreIndex.namespaced(null, "db")).isEqualTo("__all_namespaces/db");
		assertThat(StoreIndex.namespaced("", "db")).isEqualTo("__all_namespaces/db");
	}

	@SuppressWarnings("unchecked")
	private void deleteTombstone(KubernetesObject tombstone) {
		((ObjectStore<KubernetesObject>) (ObjectStore<?>) this.store).delete(tombstone);
	}

	private List<V1ConfigMap> lookup(String namespace, String secret) {
		return this.store.byIndex("secretRef", namespace, secret);
	}

	private int keyCount() {
		return this.store.indexKeyCount("secretRef");
	}

	private static List<String> secretsOf(V1ConfigMap configMap) {
		String secrets = (configMap.getData() != null) ? configMap.getData().get("secrets") : null;
		return (secrets != null) ? Arrays.asList(secrets.split(",")) : List.of();
	}

	private static V1ConfigMap configMap(String namespace, String name, String secrets) {
		V1ConfigMap configMap = new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name));
		configMap.setData(new HashMap<>());
		if (secrets != null) {
			configMap.getData().put("secrets", secrets);
		}
		return configMap;
	}

	private static V1ConfigMap withUid(V1ConfigMap configMap, String uid) {
		configMap.getMetadata().setUid(uid);
		return configMap;
	}

}
