package io.kubeboot.operator.handler;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.client.MatchingIndex;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MapFunctions#byIndex}: in which namespace it looks a changed object
 * up, and the requests it makes of what it finds.
 */
class MapFunctionsTests {

	private static final CacheIndex<V1ConfigMap> CONFIG_MAPS_BY_SECRET = CacheIndex.of(V1ConfigMap.class, "secretRef",
			(configMap) -> List.of());

	private static final CacheIndex<V1Namespace> NAMESPACES_BY_NODE = CacheIndex.of(V1Namespace.class, "node",
			(namespace) -> List.of());

	private final LookupCache cache = new LookupCache();

	@Test
	void aNamespacedObjectIsLookedUpInItsNamespaceAmongNamespacedObjects() {
		this.cache.found = List.of(configMap("shop", "web"), configMap("shop", "api"));
		MapFunction<V1Secret> users = MapFunctions.byIndex(this.cache, CONFIG_MAPS_BY_SECRET,
				(secret) -> secret.getMetadata().getName());
		assertThat(users.map(secret("shop", "db"))).containsExactly(Request.of("shop", "web"),
				Request.of("shop", "api"));
		assertThat(this.cache.lookups).containsExactly("V1ConfigMap shop secretRef=db");
	}

	@Test
	void aClusterScopedIndexedKindIsLookedUpInAllNamespaces() {
		this.cache.found = List.of(new V1Namespace().metadata(new V1ObjectMeta().name("shop")));
		MapFunction<V1Secret> namespaces = MapFunctions.byIndex(this.cache, NAMESPACES_BY_NODE,
				(secret) -> secret.getMetadata().getName());
		assertThat(namespaces.map(secret("shop", "db"))).containsExactly(Request.clusterScoped("shop"));
		assertThat(this.cache.lookups).containsExactly("V1Namespace null node=db");
	}

	@Test
	void aClusterScopedObjectIsLookedUpInAllNamespaces() {
		this.cache.found = List.of(configMap("shop", "web"), configMap("blog", "web"));
		MapFunction<V1Node> users = MapFunctions.byIndex(this.cache, CONFIG_MAPS_BY_SECRET,
				(node) -> node.getMetadata().getName());
		assertThat(users.map(new V1Node().metadata(new V1ObjectMeta().name("node-1"))))
			.containsExactly(Request.of("shop", "web"), Request.of("blog", "web"));
		assertThat(this.cache.lookups).containsExactly("V1ConfigMap null secretRef=node-1");
	}

	@Test
	void anObjectWithoutAKeyMapsToNothingWithoutALookup() {
		MapFunction<V1Secret> users = MapFunctions.byIndex(this.cache, CONFIG_MAPS_BY_SECRET, (secret) -> null);
		assertThat(users.map(secret("shop", "db"))).isEmpty();
		assertThat(this.cache.lookups).isEmpty();
	}

	private static V1Secret secret(String namespace, String name) {
		return new V1Secret().metadata(new V1ObjectMeta().namespace(namespace).name(name));
	}

	private static V1ConfigMap configMap(String namespace, String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name));
	}

	/**
	 * A cache that answers every index lookup with the objects given and records it;
	 * Namespaces are its only cluster-scoped kind.
	 */
	private static final class LookupCache implements Cache {

		private List<? extends KubernetesObject> found = List.of();

		private final List<String> lookups = new ArrayList<>();

		@Override
		@SuppressWarnings("unchecked")
		public <T extends KubernetesObject> List<T> list(Class<T> type, String namespace, MatchingIndex matching) {
			this.lookups.add(type.getSimpleName() + " " + namespace + " " + matching.index() + "=" + matching.key());
			return (List<T>) this.found;
		}

		@Override
		public boolean isNamespaced(Class<? extends KubernetesObject> type) {
			return type != V1Namespace.class;
		}

		@Override
		public <T extends KubernetesObject> Informer<T> informer(Class<T> type, String namespace,
				String labelSelector) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Informer<PartialObjectMetadata> metadataInformer(Class<? extends KubernetesObject> type,
				String namespace, String labelSelector) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Optional<PartialObjectMetadata> getMetadata(Class<? extends KubernetesObject> type, Request request) {
			throw new UnsupportedOperationException();
		}

		@Override
		public List<PartialObjectMetadata> listMetadata(Class<? extends KubernetesObject> type, String namespace) {
			throw new UnsupportedOperationException();
		}

		@Override
		public List<Informer<?>> informers() {
			return List.of();
		}

		@Override
		public void onInformerRegistered(Consumer<Informer<?>> listener) {
		}

		@Override
		public GroupVersionKind groupVersionKind(Class<? extends KubernetesObject> type) {
			throw new UnsupportedOperationException();
		}

		@Override
		public <T extends KubernetesObject> Optional<T> get(Class<T> type, Request request) {
			throw new UnsupportedOperationException();
		}

		@Override
		public <T extends KubernetesObject> List<T> list(Class<T> type, String namespace) {
			throw new UnsupportedOperationException();
		}

	}

}
