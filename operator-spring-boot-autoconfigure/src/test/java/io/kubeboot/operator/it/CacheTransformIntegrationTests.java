package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.cache.CacheTransform;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Cache transforms against a real kube-apiserver: applied to the objects of the first
 * list and of the watch alike, seen by the event handlers as by the readers, with the
 * objects' versions kept.
 */
@WithControlPlane
class CacheTransformIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String NOISE = "example.com/noise";

	@RegisterExtension
	private final TestResources resources = new TestResources();

	private Manager manager;

	private String namespace;

	@Test
	void transformsApplyToListedAndWatchedObjectsAndKeepTheirVersions(ApiClient admin, TestNamespace namespace)
			throws Exception {
		String ns = namespace.name();
		this.namespace = ns;
		CoreV1Api api = new CoreV1Api(admin);
		api.createNamespacedConfigMap(ns, configMap(ns, "listed")).execute();
		api.createNamespacedSecret(ns, new V1Secret().metadata(noisy(ns, "listed-secret"))).execute();
		this.manager = Manager.builder(admin).namespace(ns).cacheTransform(V1ConfigMap.class, (configMap) -> {
			configMap.getData().remove("large");
			return configMap;
		}).defaultCacheTransform(CacheTransform.removeAnnotations(NOISE)).build();
		this.resources.manager(this.manager);
		List<V1ConfigMap> handled = new CopyOnWriteArrayList<>();
		this.manager.cache().informer(V1ConfigMap.class, ns, null).addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap object) {
				handled.add(object);
			}

			@Override
			public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
				handled.add(newObject);
			}

			@Override
			public void onDelete(V1ConfigMap object, boolean deletedFinalStateUnknown) {
				handled.add(object);
			}

		});
		this.manager.cache().metadataInformer(V1Secret.class, ns, null);
		this.manager.start();

		// listed: the kind's own transform replaces the default one
		V1ConfigMap listed = cached("listed");
		assertThat(listed.getData()).containsOnlyKeys("small");
		assertThat(listed.getMetadata().getAnnotations()).containsKey(NOISE);
		// the default transform applies to a kind cached as metadata only
		PartialObjectMetadata secret = this.manager.cache()
			.getMetadata(V1Secret.class, Request.of(ns, "listed-secret"))
			.orElseThrow();
		assertThat(secret.getMetadata().getAnnotations()).doesNotContainKey(NOISE).containsKey("kept");

		// watched: a new object and a change
		V1ConfigMap created = api.createNamespacedConfigMap(ns, configMap(ns, "watched")).execute();
		await().atMost(WAIT)
			.until(() -> this.manager.cache().get(V1ConfigMap.class, Request.of(ns, "watched")).isPresent());
		assertThat(cached("watched").getData()).containsOnlyKeys("small");
		assertThat(cached("watched").getMetadata().getResourceVersion())
			.isEqualTo(created.getMetadata().getResourceVersion());
		V1ConfigMap changed = api.readNamespacedConfigMap("listed", ns).execute();
		changed.setData(new HashMap<>(Map.of("small", "changed", "large", "l".repeat(10_000))));
		V1ConfigMap replaced = api.replaceNamespacedConfigMap("listed", ns, changed).execute();
		await().atMost(WAIT)
			.until(() -> replaced.getMetadata()
				.getResourceVersion()
				.equals(cached("listed").getMetadata().getResourceVersion()));
		assertThat(cached("listed").getData()).containsExactly(Map.entry("small", "changed"));

		// the handlers saw the objects as cached
		await().atMost(WAIT).until(() -> handled.size() >= 3);
		assertThat(handled).allSatisfy((object) -> assertThat(object.getData()).doesNotContainKey("large"));
	}

	private V1ConfigMap cached(String name) {
		return this.manager.cache().get(V1ConfigMap.class, Request.of(this.namespace, name)).orElseThrow();
	}

	private static V1ConfigMap configMap(String namespace, String name) {
		return new V1ConfigMap().metadata(noisy(namespace, name))
			.data(Map.of("small", "s", "large", "l".repeat(10_000)));
	}

	private static V1ObjectMeta noisy(String namespace, String name) {
		return new V1ObjectMeta().namespace(namespace).name(name).annotations(Map.of(NOISE, "x", "kept", "y"));
	}

}
