package io.kubeboot.operator.autoconfigure;

import java.util.List;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UnscopedInformerAdvisor}: the WARN of an informer of every Secret,
 * ConfigMap, Pod or Event names the annotation attribute that created it and what narrows
 * it there, and the property that acknowledges it.
 */
class UnscopedInformerAdvisorTests {

	private static final String HELM = "type!=helm.sh/release.v1";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false")
		.withUserConfiguration(AppConfiguration.class);

	@Test
	void anOwnedAndWatchedKindIsNarrowedByTheAttributesThatDeclaredIt() {
		this.contextRunner.run((context) -> {
			UnscopedInformerAdvisor advisor = new UnscopedInformerAdvisor(context.getBeanFactory(),
					context.getEnvironment());
			assertThat(advisor.advise(new InformerKey(V1Secret.class, null, null), List.of("controller-app"), HELM))
				.isEqualTo("@Reconciles(owns = V1Secret.class) on bean 'appReconciler': set its ownsFieldSelector = "
						+ "\"type!=helm.sh/release.v1\", ownsLabelSelector, or list V1Secret.class in "
						+ "ownsMetadataOnly instead; @Watches(V1Secret.class) on AppReconciler.appOfSecret: set its "
						+ "fieldSelector = \"type!=helm.sh/release.v1\", labelSelector or namespace, or "
						+ "metadataOnly = true; or a CacheTransform bean dropping what no reconciler reads; if "
						+ "intended, set operator.cache.acknowledged-unscoped-kinds=Secret");
		});
	}

	@Test
	void theReconciledKindIsNarrowedByItsSelectorsOrANamespace() {
		this.contextRunner
			.run((context) -> assertThat(new UnscopedInformerAdvisor(context.getBeanFactory(), context.getEnvironment())
				.advise(new InformerKey(V1ConfigMap.class, null, null), List.of("controller-app"), null)).startsWith(
						"@Reconciles(V1ConfigMap.class) on bean 'appReconciler': set its labelSelector or namespace, "
								+ "or operator.namespace; or a CacheTransform bean"));
	}

	@Test
	void anInformerNoReconcilerDeclaredIsNarrowedInGeneralTerms() {
		this.contextRunner
			.run((context) -> assertThat(new UnscopedInformerAdvisor(context.getBeanFactory(), context.getEnvironment())
				.advise(new InformerKey(V1Pod.class, null, null), List.of("podWatcher"), "spec.nodeName=<node>"))
				.isEqualTo("a namespace (operator.namespace), a label selector, a field selector such as "
						+ "spec.nodeName=<node> or the metadata-only form where the informer is declared; or a "
						+ "CacheTransform bean dropping what no reconciler reads; if intended, set "
						+ "operator.cache.acknowledged-unscoped-kinds=Pod"));
	}

	@Configuration(proxyBeanMethods = false)
	static class AppConfiguration {

		@Bean
		AppReconciler appReconciler() {
			return new AppReconciler();
		}

	}

	@Reconciles(value = V1ConfigMap.class, name = "app", owns = V1Secret.class)
	static class AppReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

		@Watches(V1Secret.class)
		Request appOfSecret(V1Secret secret) {
			return Request.of(secret.getMetadata().getNamespace(), "app");
		}

		@Watches(value = V1Secret.class, metadataOnly = true)
		Request appOfSecretMetadata(PartialObjectMetadata secret) {
			return Request.of(secret.getMetadata().getNamespace(), "app");
		}

	}

}
