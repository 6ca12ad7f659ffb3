package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.MatchingIndex;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.handler.MapFunction;
import io.kubeboot.operator.handler.MapFunctions;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Cache indexes against a real kube-apiserver: ConfigMaps (the primaries, labelled
 * {@code index-test=true}) name a Secret in {@code data.secret}, and a change of a Secret
 * is mapped, through an index of the ConfigMaps by that name, to exactly the ConfigMaps
 * that name it; one that names another Secret after an update is mapped from that one.
 * Once through {@code MapFunctions.byIndex} on a plain {@code Manager}, once through a
 * {@code CacheIndex} bean and a {@code @Watches} method as the guide writes them.
 */
@WithControlPlane
class CacheIndexIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String SELECTED = "index-test";

	private static final CacheIndex<V1ConfigMap> BY_SECRET = CacheIndex.of(V1ConfigMap.class, "secretRef",
			CacheIndexIntegrationTests::secretOf);

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void aSecretsChangeReconcilesExactlyTheConfigMapsNamingItAndFollowsAMovedReference(ApiClient admin,
			TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		Manager manager = this.resources.manager(Manager.builder(admin).namespace(ns).build());
		manager.cache().addIndex(BY_SECRET);
		Journal journal = new Journal();
		MapFunction<V1Secret> users = MapFunctions.byIndex(manager.cache(), BY_SECRET,
				(secret) -> secret.getMetadata().getName());
		Controller.builder(manager, V1ConfigMap.class)
			.labelSelector(SELECTED + "=true")
			.watches(V1Secret.class, (secret) -> journal.mapped(secret, users.map(secret)))
			.complete(journal::reconcile);
		Client client = manager.client();
		client.create(secret(ns, "db"));
		client.create(secret(ns, "cache"));
		client.create(configMap(ns, "app-1", "db"));
		client.create(configMap(ns, "app-2", "db"));
		client.create(configMap(ns, "app-3", "cache"));
		manager.start();

		assertMovedReferenceRetargetsTheMapping(client, manager.cache(), ns, journal);
	}

	@Test
	void aCacheIndexBeanServesAWatchesMethod(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		ApiClient admin = controlPlane.adminClient();
		ConfigurableApplicationContext context = this.resources
			.closeable(new SpringApplicationBuilder(IndexedApplication.class)
				.initializers((initialized) -> ((GenericApplicationContext) initialized)
					.registerBean("kubernetesApiClient", ApiClient.class, () -> admin))
				.run("--spring.main.web-application-type=none", "--spring.main.banner-mode=off",
						"--operator.namespace=" + ns));
		Client client = context.getBean(Client.class);
		Cache cache = context.getBean(Cache.class);
		Journal journal = context.getBean(SecretUsersReconciler.class).journal;
		client.create(secret(ns, "db"));
		client.create(secret(ns, "cache"));
		client.create(configMap(ns, "app-1", "db"));
		client.create(configMap(ns, "app-2", "db"));
		client.create(configMap(ns, "app-3", "cache"));

		assertMovedReferenceRetargetsTheMapping(client, cache, ns, journal);
	}

	/**
	 * app-1 and app-2 name {@code db}, app-3 names {@code cache}: a change of {@code db}
	 * is mapped to app-1 and app-2 and reconciles them, not app-3; once app-3 names
	 * {@code db}, a change of {@code db} is mapped to all three and one of {@code cache}
	 * to none.
	 */
	private static void assertMovedReferenceRetargetsTheMapping(Client client, Cache cache, String ns,
			Journal journal) {
		await().atMost(WAIT)
			.until(() -> names(cache, ns, "db").equals(List.of("app-1", "app-2"))
					&& names(cache, ns, "cache").equals(List.of("app-3")));
		await().atMost(WAIT)
			.until(() -> journal.reconciles("app-1") > 0 && journal.reconciles("app-2") > 0
					&& journal.reconciles("app-3") > 0);
		journal.awaitQuiet();
		int app1 = journal.reconciles("app-1");
		int app2 = journal.reconciles("app-2");
		int app3 = journal.reconciles("app-3");

		V1Secret changed = change(client, ns, "db");
		assertThat(journal.awaitMapped(changed)).containsExactlyInAnyOrder(Request.of(ns, "app-1"),
				Request.of(ns, "app-2"));
		await().atMost(WAIT).until(() -> journal.reconciles("app-1") > app1 && journal.reconciles("app-2") > app2);
		assertThat(journal.reconciles("app-3")).isEqualTo(app3);

		// app-3 now names db: the index moves it, and the next change of db reaches it
		V1ConfigMap app3Cached = cache.get(V1ConfigMap.class, Request.of(ns, "app-3")).orElseThrow();
		client.patch(app3Cached, Patch.merge(Map.of("data", Map.of("secret", "db"))));
		await().atMost(WAIT).until(() -> names(cache, ns, "db").equals(List.of("app-1", "app-2", "app-3")));
		assertThat(names(cache, ns, "cache")).isEmpty();
		assertThat(names(cache, null, "db")).containsExactly("app-1", "app-2", "app-3");
		V1Secret again = change(client, ns, "db");
		assertThat(journal.awaitMapped(again)).containsExactlyInAnyOrder(Request.of(ns, "app-1"),
				Request.of(ns, "app-2"), Request.of(ns, "app-3"));
		V1Secret cacheChanged = change(client, ns, "cache");
		assertThat(journal.awaitMapped(cacheChanged)).isEmpty();

		// a deleted ConfigMap leaves the index
		client.delete(cache.get(V1ConfigMap.class, Request.of(ns, "app-1")).orElseThrow());
		await().atMost(WAIT).until(() -> names(cache, ns, "db").equals(List.of("app-2", "app-3")));
		V1Secret afterDelete = change(client, ns, "db");
		assertThat(journal.awaitMapped(afterDelete)).containsExactlyInAnyOrder(Request.of(ns, "app-2"),
				Request.of(ns, "app-3"));
	}

	private static V1Secret change(Client client, String ns, String name) {
		V1Secret current = client.uncached().get(V1Secret.class, Request.of(ns, name)).orElseThrow();
		return client.patch(current,
				Patch.merge(Map.of("stringData", Map.of("changed", String.valueOf(System.nanoTime())))));
	}

	private static List<String> names(Cache cache, String namespace, String secret) {
		return cache.list(V1ConfigMap.class, namespace, BY_SECRET.matching(secret))
			.stream()
			.map((configMap) -> configMap.getMetadata().getName())
			.sorted()
			.toList();
	}

	private static List<String> secretOf(V1ConfigMap configMap) {
		String secret = (configMap.getData() != null) ? configMap.getData().get("secret") : null;
		return (secret != null) ? List.of(secret) : List.of();
	}

	private static V1Secret secret(String namespace, String name) {
		return new V1Secret().metadata(new V1ObjectMeta().namespace(namespace).name(name))
			.putStringDataItem("changed", "0");
	}

	private static V1ConfigMap configMap(String namespace, String name, String secret) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace(namespace).name(name).putLabelsItem(SELECTED, "true"))
			.putDataItem("secret", secret);
	}

	/**
	 * What the mapping returned for each version of each Secret, and how often each
	 * ConfigMap was reconciled.
	 */
	static final class Journal {

		private final Map<String, Set<Request>> mappedByVersion = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();

		private volatile long lastReconcileNanos = System.nanoTime();

		Collection<Request> mapped(V1Secret secret, Collection<Request> requests) {
			// an update maps the old and the new version: keep what the newest mapped
			this.mappedByVersion.put(secret.getMetadata().getName() + "@" + secret.getMetadata().getResourceVersion(),
					Set.copyOf(requests));
			return requests;
		}

		Result reconcile(Request request) {
			this.reconciles.computeIfAbsent(request.name(), (name) -> new AtomicInteger()).incrementAndGet();
			this.lastReconcileNanos = System.nanoTime();
			return Result.done();
		}

		int reconciles(String name) {
			AtomicInteger count = this.reconciles.get(name);
			return (count != null) ? count.get() : 0;
		}

		Set<Request> awaitMapped(V1Secret version) {
			String key = version.getMetadata().getName() + "@" + version.getMetadata().getResourceVersion();
			await().atMost(WAIT).until(() -> this.mappedByVersion.containsKey(key));
			return this.mappedByVersion.get(key);
		}

		/**
		 * Waits until nothing was reconciled for a second: the start-up replay and the
		 * initial list may both reconcile an object.
		 */
		void awaitQuiet() {
			await().atMost(WAIT)
				.until(() -> System.nanoTime() - this.lastReconcileNanos > Duration.ofSeconds(1).toNanos());
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class IndexedApplication {

		@Bean
		CacheIndex<V1ConfigMap> configMapsBySecret() {
			return BY_SECRET;
		}

		@Bean
		SecretUsersReconciler secretUsersReconciler(Cache cache) {
			return new SecretUsersReconciler(cache);
		}

	}

	@Reconciles(value = V1ConfigMap.class, labelSelector = SELECTED + "=true")
	static class SecretUsersReconciler {

		final Journal journal = new Journal();

		private final Cache cache;

		SecretUsersReconciler(Cache cache) {
			this.cache = cache;
		}

		Result reconcile(Request request) {
			return this.journal.reconcile(request);
		}

		@Watches(V1Secret.class)
		List<Request> configMapsUsingSecret(V1Secret secret) {
			List<Request> requests = new ArrayList<>();
			for (V1ConfigMap user : this.cache.list(V1ConfigMap.class, secret.getMetadata().getNamespace(),
					MatchingIndex.of("secretRef", secret.getMetadata().getName()))) {
				requests.add(Request.of(user));
			}
			this.journal.mapped(secret, requests);
			return requests;
		}

	}

}
