package io.kubeboot.operator.cache.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubeboot.operator.cache.CacheTransform;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.DeltaFIFO;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ManagedFieldsEntry;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StoreTransform}: what an informer does to each object before storing
 * it, and how it survives a user's transform that misbehaves.
 */
class StoreTransformTests {

	private static final InformerKey KEY = new InformerKey(V1ConfigMap.class, "team-a", null);

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private final Logger logger = (Logger) LoggerFactory.getLogger(StoreTransform.class);

	@BeforeEach
	void captureLogs() {
		this.logs.start();
		this.logger.addAppender(this.logs);
	}

	@AfterEach
	void releaseLogs() {
		this.logger.detachAppender(this.logs);
	}

	@Test
	void theUsersTransformChangesTheObjectAndRepeatedStringsAreShared() {
		StoreTransform<V1ConfigMap> transform = transform((configMap) -> {
			configMap.getData().remove("large");
			return configMap;
		});
		V1ConfigMap first = (V1ConfigMap) transform.transform(configMap("one", "1"));
		V1ConfigMap second = (V1ConfigMap) transform.transform(configMap("two", "2"));
		assertThat(first.getData()).containsOnlyKeys("small");
		assertThat(first.getMetadata().getResourceVersion()).isEqualTo("1");
		assertThat(second.getMetadata().getNamespace()).isSameAs(first.getMetadata().getNamespace());
		assertThat(this.logs.list).isEmpty();
	}

	@Test
	void aTransformMayReturnAnotherObjectOfTheClass() {
		StoreTransform<V1ConfigMap> transform = transform(
				(configMap) -> new V1ConfigMap().metadata(configMap.getMetadata()));
		V1ConfigMap stored = (V1ConfigMap) transform.transform(configMap("one", "1"));
		assertThat(stored.getData()).isNullOrEmpty();
		assertThat(stored.getMetadata().getName()).isEqualTo("one");
	}

	@Test
	void aChangedIdentityIsPutBackAndReportedOnce() {
		StoreTransform<V1ConfigMap> transform = transform((configMap) -> {
			configMap.getMetadata().name("renamed").resourceVersion(null).uid("other").namespace("elsewhere");
			return configMap;
		});
		V1ConfigMap stored = (V1ConfigMap) transform.transform(configMap("one", "1"));
		transform.transform(configMap("two", "2"));
		assertThat(stored.getMetadata().getName()).isEqualTo("one");
		assertThat(stored.getMetadata().getNamespace()).isEqualTo("team-a");
		assertThat(stored.getMetadata().getUid()).isEqualTo("uid-one");
		assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("1");
		assertThat(this.logs.list).singleElement()
			.extracting(ILoggingEvent::getFormattedMessage)
			.isEqualTo("Cache transform changed an object's namespace, name, uid or resourceVersion, restored: "
					+ "informer=V1ConfigMap[namespace=team-a] object=team-a/one");
	}

	@Test
	void aFailingTransformLeavesTheObjectCachedAndIsLoggedAtMostOnceAMinute() {
		StoreTransform<V1ConfigMap> transform = transform((configMap) -> {
			throw new IllegalStateException("broken");
		});
		V1ConfigMap original = configMap("one", "1");
		assertThat(transform.transform(original)).isSameAs(original);
		assertThat(original.getData()).containsKeys("small", "large");
		transform.transform(configMap("two", "2"));
		assertThat(this.logs.list).singleElement()
			.extracting(ILoggingEvent::getFormattedMessage)
			.isEqualTo("Cache transform failed, object cached as the transform left it: "
					+ "informer=V1ConfigMap[namespace=team-a] object=team-a/one unreportedFailures=0 "
					+ "error=\"it threw java.lang.IllegalStateException: broken\"");
	}

	@Test
	void aTransformReturningNullOrAnotherClassLeavesTheObjectCached() {
		StoreTransform<V1ConfigMap> returnsNull = transform((configMap) -> null);
		V1ConfigMap original = configMap("one", "1");
		assertThat(returnsNull.transform(original)).isSameAs(original);
		CacheTransform<KubernetesObject> wrongClass = (object) -> new V1Secret().metadata(object.getMetadata());
		@SuppressWarnings({ "unchecked", "rawtypes" })
		StoreTransform<V1ConfigMap> returnsSecret = new StoreTransform<>(KEY, V1ConfigMap.class, null, null, false,
				(CacheTransform) wrongClass, new MetadataDeduplicator());
		V1ConfigMap other = configMap("two", "2");
		assertThat(returnsSecret.transform(other)).isSameAs(other);
		assertThat(this.logs.list).extracting(ILoggingEvent::getFormattedMessage)
			.anySatisfy((message) -> assertThat(message).contains(
					"error=\"it returned null instead of a " + "io.kubernetes.client.openapi.models.V1ConfigMap\""))
			.anySatisfy((message) -> assertThat(message)
				.contains("error=\"it returned a io.kubernetes.client.openapi.models.V1Secret instead of a "
						+ "io.kubernetes.client.openapi.models.V1ConfigMap\""));
	}

	@Test
	void objectsReadAsMetadataOnlyNameTheirKindAndManagedFieldsAreDroppedIfAsked() {
		String json = """
				{"apiVersion": "meta.k8s.io/v1", "kind": "PartialObjectMetadata",
				 "metadata": {"name": "creds", "namespace": "team-a", "resourceVersion": "7",
				   "labels": {"app": "shop", "tier": "web"}, "finalizers": ["example.com/f"]}}
				""";
		PartialObjectMetadata partial = new JSON().getGson().fromJson(json, PartialObjectMetadata.class);
		PartialObjectMetadata parsed = new JSON().getGson().fromJson(json, PartialObjectMetadata.class);
		partial.getMetadata().managedFields(List.of(new V1ManagedFieldsEntry().manager("kubectl")));
		StoreTransform<PartialObjectMetadata> transform = new StoreTransform<>(
				new InformerKey(V1Secret.class, "team-a", null, true), PartialObjectMetadata.class, "v1", "Secret",
				true, null, new MetadataDeduplicator());
		PartialObjectMetadata stored = (PartialObjectMetadata) transform.transform(partial);
		assertThat(stored.getApiVersion()).isEqualTo("v1");
		assertThat(stored.getKind()).isEqualTo("Secret");
		assertThat(stored.getMetadata().getManagedFields()).isNull();
		assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("7");
		// compact and immutable, equal to what was parsed
		assertThat(stored.getMetadata().getLabels()).isEqualTo(parsed.getMetadata().getLabels()).isUnmodifiable();
		assertThat(stored.getMetadata().getFinalizers()).containsExactly("example.com/f").isUnmodifiable();
		assertThat(stored.getMetadata().getAnnotations()).isSameAs(Map.of());
		assertThat(stored.getMetadata().getOwnerReferences()).isSameAs(List.of());
	}

	@Test
	void aRelistsTombstoneIsNotHandedToTheUsersTransform() throws InterruptedException {
		// a relist that no longer has a cached object deletes it with a tombstone
		// wrapping the cached (transformed) object
		ObjectStore<V1ConfigMap> store = new ObjectStore<>();
		store.add(configMap("gone", "1"));
		DeltaFIFO deltas = new DeltaFIFO(Caches::metaNamespaceKeyFunc, store);
		deltas.replace(List.of(), "2");
		StoreTransform<V1ConfigMap> transform = transform((configMap) -> {
			throw new IllegalStateException("must not be called");
		});
		deltas.pop((queued) -> transform.transform(queued.peekLast().getRight()));
		assertThat(this.logs.list).isEmpty();
	}

	@Test
	void removeAnnotationsDropsOnlyTheNamedOnes() {
		V1ConfigMap configMap = configMap("one", "1");
		configMap.getMetadata()
			.annotations(
					new HashMap<>(Map.of("kubectl.kubernetes.io/last-applied-configuration", "{...}", "team", "a")));
		CacheTransform.<V1ConfigMap>removeAnnotations("kubectl.kubernetes.io/last-applied-configuration")
			.transform(configMap);
		assertThat(configMap.getMetadata().getAnnotations()).containsOnlyKeys("team");
	}

	private static StoreTransform<V1ConfigMap> transform(CacheTransform<V1ConfigMap> user) {
		return new StoreTransform<>(KEY, V1ConfigMap.class, null, null, false, user, new MetadataDeduplicator());
	}

	private static V1ConfigMap configMap(String name, String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace(new String("team-a"))
				.name(name)
				.uid("uid-" + name)
				.resourceVersion(resourceVersion))
			.data(new HashMap<>(Map.of("small", "s", "large", "l".repeat(1000))));
	}

}
