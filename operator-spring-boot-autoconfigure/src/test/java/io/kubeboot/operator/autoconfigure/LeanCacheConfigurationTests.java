package io.kubeboot.operator.autoconfigure;

import java.util.List;
import java.util.Map;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.cache.CacheTransform;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Metadata-only owned and watched kinds of {@code @Reconciles} beans, and
 * {@link CacheTransform} and {@link CacheIndex} beans, wired into the manager.
 */
class LeanCacheConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false");

	@Test
	void runWithMetadataOnlyOwnedAndWatchedKindsShouldCacheThemAsMetadataOnly() {
		this.contextRunner.withUserConfiguration(MetadataOnlyReconcilerConfiguration.class).run((context) -> {
			Controller controller = Controller.of(context.getBean(Manager.class)).get(0);
			assertThat(controller.watches()).containsExactly(new InformerKey(V1ConfigMap.class, null, null, false),
					new InformerKey(V1Secret.class, null, "app=shop", true),
					new InformerKey(V1ServiceAccount.class, null, null, true));
		});
	}

	@Test
	void runWithAKindBothOwnedAndOwnedAsMetadataOnlyShouldFailNamingTheBean() {
		this.contextRunner.withUserConfiguration(TwiceOwnedConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidOperatorBeanException.class)
				.hasMessage("@Reconciles bean 'twiceOwned' is invalid: V1Secret is listed in both owns and "
						+ "ownsMetadataOnly; keep it in one of them"));
	}

	@Test
	void runWithAMetadataOnlyWatchTakingTheKindShouldFailNamingTheMethod() {
		this.contextRunner.withUserConfiguration(WrongParameterConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidOperatorBeanException.class)
				.hasMessage("@Reconciles bean 'wrongParameter' is invalid: @Watches(V1Secret, metadataOnly = true) "
						+ "method secret must take exactly one parameter of type PartialObjectMetadata"));
	}

	@Test
	void runWithCacheTransformBeansShouldRegisterThemByTheirKind() {
		this.contextRunner.withUserConfiguration(TransformConfiguration.class).run((context) -> {
			@SuppressWarnings("unchecked")
			Map<Class<?>, Object> transforms = (Map<Class<?>, Object>) ReflectionTestUtils
				.getField(context.getBean(Manager.class).cache(), "transforms");
			assertThat(transforms).containsOnlyKeys(V1ConfigMap.class, KubernetesObject.class,
					PartialObjectMetadata.class);
			assertThat(transforms.get(V1ConfigMap.class)).isSameAs(context.getBean("configMapTransform"));
			assertThat(transforms.get(KubernetesObject.class)).isSameAs(context.getBean("everyKindTransform"));
		});
	}

	@Test
	void runWithACacheTransformBeanThatNamesNoKindShouldFailNamingTheBean() {
		this.contextRunner.withBean("untyped", CacheTransform.class, () -> (object) -> object)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidOperatorBeanException.class)
				.hasMessageStartingWith("CacheTransform bean 'untyped' is invalid: its type does not say which kind "
						+ "it transforms; declare it as CacheTransform<V1ConfigMap>"));
	}

	@Test
	void runWithTwoCacheTransformBeansOfOneKindShouldFailNamingBoth() {
		this.contextRunner.withUserConfiguration(TransformConfiguration.class, OtherTransformConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidOperatorBeanException.class)
				.hasMessage("CacheTransform beans 'configMapTransform' and 'otherConfigMapTransform' both transform "
						+ "V1ConfigMap; combine them into one bean"));
	}

	@Test
	void runWithCacheIndexBeansShouldDeclareThemToTheCache() {
		this.contextRunner.withUserConfiguration(IndexConfiguration.class).run((context) -> {
			Cache cache = context.getBean(Manager.class).cache();
			CacheIndex<?> bySecret = context.getBean("configMapsBySecret", CacheIndex.class);
			// declared already: the same index again changes nothing, another of its name
			// is refused
			cache.addIndex(bySecret);
			assertThatIllegalArgumentException()
				.isThrownBy(() -> cache.addIndex(CacheIndex.of(V1ConfigMap.class, "secretRef", (cm) -> List.of())))
				.withMessageContaining("V1ConfigMap has an index named 'secretRef' already");
			assertThatIllegalArgumentException()
				.isThrownBy(() -> cache.addIndex(CacheIndex.of(V1Secret.class, "type", (secret) -> List.of())))
				.withMessageContaining("V1Secret has an index named 'type' already");
		});
	}

	@Test
	void runWithTwoCacheIndexBeansOfOneKindAndNameShouldFailNamingBoth() {
		this.contextRunner.withUserConfiguration(IndexConfiguration.class)
			.withBean("otherConfigMapsBySecret", CacheIndex.class,
					() -> CacheIndex.of(V1ConfigMap.class, "secretRef", (configMap) -> List.of()))
			.run((context) -> assertThat(invalidBean(context.getStartupFailure()))
				.hasMessageStartingWith("CacheIndex beans '")
				.hasMessageContaining("'configMapsBySecret'")
				.hasMessageContaining("'otherConfigMapsBySecret'")
				.hasMessageEndingWith("both index V1ConfigMap as 'secretRef'; give one of them another name"));
	}

	private static Throwable invalidBean(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidOperatorBeanException) {
				return cause;
			}
		}
		throw new AssertionError("No InvalidOperatorBeanException in " + failure, failure);
	}

	@Configuration(proxyBeanMethods = false)
	static class IndexConfiguration {

		@Bean
		CacheIndex<V1ConfigMap> configMapsBySecret() {
			return CacheIndex.of(V1ConfigMap.class, "secretRef",
					(configMap) -> (configMap.getData() != null) ? List.of(configMap.getData().get("secret")) : null);
		}

		@Bean
		CacheIndex<V1Secret> secretsByType() {
			return CacheIndex.of(V1Secret.class, "type", (secret) -> List.of(secret.getType()));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MetadataOnlyReconcilerConfiguration {

		@Bean
		ShopReconciler shopReconciler() {
			return new ShopReconciler();
		}

	}

	@Reconciles(value = V1ConfigMap.class, ownsMetadataOnly = V1Secret.class, ownsLabelSelector = "app=shop")
	static class ShopReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

		@Watches(value = V1ServiceAccount.class, metadataOnly = true)
		Request account(PartialObjectMetadata account) {
			return Request.of(account.getMetadata().getNamespace(), account.getMetadata().getName());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwiceOwnedConfiguration {

		@Bean
		TwiceOwned twiceOwned() {
			return new TwiceOwned();
		}

	}

	@Reconciles(value = V1ConfigMap.class, owns = V1Secret.class, ownsMetadataOnly = V1Secret.class)
	static class TwiceOwned {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WrongParameterConfiguration {

		@Bean
		WrongParameter wrongParameter() {
			return new WrongParameter();
		}

	}

	@Reconciles(V1ConfigMap.class)
	static class WrongParameter {

		Result reconcile(Request request) {
			return Result.done();
		}

		@Watches(value = V1Secret.class, metadataOnly = true)
		Request secret(V1Secret secret) {
			return null;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TransformConfiguration {

		@Bean
		CacheTransform<V1ConfigMap> configMapTransform() {
			return (configMap) -> configMap;
		}

		@Bean
		CacheTransform<KubernetesObject> everyKindTransform() {
			return CacheTransform.removeAnnotations("kubectl.kubernetes.io/last-applied-configuration");
		}

		@Bean
		MetadataTransform metadataTransform() {
			return new MetadataTransform();
		}

	}

	static class MetadataTransform implements CacheTransform<PartialObjectMetadata> {

		@Override
		public PartialObjectMetadata transform(PartialObjectMetadata object) {
			return object;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OtherTransformConfiguration {

		@Bean
		CacheTransform<V1ConfigMap> otherConfigMapTransform() {
			return (configMap) -> configMap;
		}

	}

}
