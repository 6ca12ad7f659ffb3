package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.CacheTransform;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @Reconciles(ownsMetadataOnly = ...)}, {@code @Watches(metadataOnly = true)} and
 * a {@code CacheTransform} bean in a Spring Boot application against a real
 * kube-apiserver.
 */
@WithControlPlane
class MetadataOnlyReconcilerIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private ConfigurableApplicationContext context;

	@AfterEach
	void close() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void ownedAndWatchedKindsCachedAsMetadataOnlyReconcileTheirOwnerAndTheTransformBeanApplies(
			ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		ApiClient client = controlPlane.adminClient();
		CoreV1Api api = new CoreV1Api(controlPlane.adminClient());
		this.context = new SpringApplicationBuilder(MetadataOnlyApplication.class)
			.initializers((context) -> ((GenericApplicationContext) context).registerBean("kubernetesApiClient",
					ApiClient.class, () -> client))
			.run("--spring.main.web-application-type=none", "--spring.main.banner-mode=off",
					"--operator.namespace=" + ns);
		OwnerReconciler reconciler = this.context.getBean(OwnerReconciler.class);
		Cache cache = this.context.getBean(Cache.class);

		V1ConfigMap owner = api
			.createNamespacedConfigMap(ns,
					new V1ConfigMap()
						.metadata(new V1ObjectMeta().namespace(ns).name("app").putLabelsItem("meta-test", "true"))
						.data(Map.of("small", "s", "large", "l".repeat(10_000))))
			.execute();
		await().atMost(WAIT).until(() -> reconciler.count("app") >= 1);
		// the CacheTransform<V1ConfigMap> bean
		assertThat(cache.get(V1ConfigMap.class, Request.of(ns, "app")).orElseThrow().getData())
			.containsOnlyKeys("small");

		// an owned Secret, cached as metadata only, reconciles its owner
		int beforeSecret = reconciler.count("app");
		api.createNamespacedSecret(ns,
				new V1Secret()
					.metadata(new V1ObjectMeta().namespace(ns)
						.name("app-secret")
						.addOwnerReferencesItem(new V1OwnerReference().apiVersion("v1")
							.kind("ConfigMap")
							.name("app")
							.uid(owner.getMetadata().getUid())
							.controller(true)))
					.putDataItem("password", "s3cret".getBytes()))
			.execute();
		await().atMost(WAIT).until(() -> reconciler.count("app") > beforeSecret);
		assertThat(cache.getMetadata(V1Secret.class, Request.of(ns, "app-secret")).orElseThrow().getKind())
			.isEqualTo("Secret");

		// a watched ServiceAccount, cached as metadata only, is mapped from its metadata
		int beforeAccount = reconciler.count("app");
		api.createNamespacedServiceAccount(ns,
				new V1ServiceAccount()
					.metadata(new V1ObjectMeta().namespace(ns).name("app-runner").putLabelsItem("config", "app")))
			.execute();
		await().atMost(WAIT).until(() -> reconciler.count("app") > beforeAccount);
		assertThat(reconciler.mapped).anySatisfy((account) -> {
			assertThat(account.getKind()).isEqualTo("ServiceAccount");
			assertThat(account.getMetadata().getName()).isEqualTo("app-runner");
		});
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class MetadataOnlyApplication {

		@Bean
		OwnerReconciler ownerReconciler() {
			return new OwnerReconciler();
		}

		@Bean
		CacheTransform<V1ConfigMap> dropLargeValues() {
			return (configMap) -> {
				if (configMap.getData() != null) {
					configMap.getData().remove("large");
				}
				return configMap;
			};
		}

	}

	@Reconciles(value = V1ConfigMap.class, labelSelector = "meta-test=true", ownsMetadataOnly = V1Secret.class)
	static class OwnerReconciler {

		final Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();

		final List<PartialObjectMetadata> mapped = new CopyOnWriteArrayList<>();

		Result reconcile(Request request) {
			this.reconciles.computeIfAbsent(request.name(), (name) -> new AtomicInteger()).incrementAndGet();
			return Result.done();
		}

		@Watches(value = V1ServiceAccount.class, metadataOnly = true)
		Request serviceAccount(PartialObjectMetadata account) {
			this.mapped.add(account);
			String config = (account.getMetadata().getLabels() != null)
					? account.getMetadata().getLabels().get("config") : null;
			return (config != null) ? Request.of(account.getMetadata().getNamespace(), config) : null;
		}

		int count(String name) {
			AtomicInteger count = this.reconciles.get(name);
			return (count != null) ? count.get() : 0;
		}

	}

}
