package io.kubeboot.operator.autoconfigure;

import java.util.List;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The field selectors of {@code @Reconciles} and {@code @Watches} wired into the
 * informers of the controller.
 */
class FieldSelectorConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false", "operator.namespace=shop", "shop.node=node-1");

	@Test
	void runWithFieldSelectorsShouldKeyEveryInformerWithItsOwn() {
		this.contextRunner.withUserConfiguration(SelectingConfiguration.class).run((context) -> {
			Controller controller = Controller.of(context.getBean(Manager.class)).get(0);
			assertThat(controller.watches()).containsExactly(
					new InformerKey(V1Pod.class, "shop", "app=web", "spec.nodeName=node-1", false),
					new InformerKey(V1Secret.class, "shop", null, "type=kubernetes.io/tls", false),
					new InformerKey(V1ConfigMap.class, "shop", null, "type=kubernetes.io/tls", true),
					new InformerKey(V1Service.class, "shop", null, "spec.type=ClusterIP", false),
					new InformerKey(V1ServiceAccount.class, "shop", null, "metadata.name=default", true));
		});
	}

	@Test
	void runWithoutFieldSelectorsShouldSelectByNoField() {
		this.contextRunner.withUserConfiguration(PlainConfiguration.class).run((context) -> {
			Controller controller = Controller.of(context.getBean(Manager.class)).get(0);
			assertThat(controller.watches()).extracting(InformerKey::fieldSelector).containsOnlyNulls();
		});
	}

	@Test
	void runWithAMalformedFieldSelectorShouldFailNamingTheBean() {
		this.contextRunner.withUserConfiguration(MalformedConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidOperatorBeanException.class)
				.hasMessage("@Reconciles bean 'malformed' is invalid: Cannot parse field selector 'spec.nodeName' at "
						+ "'spec.nodeName': it has no operator (=, == or !=)"));
	}

	@Configuration(proxyBeanMethods = false)
	static class SelectingConfiguration {

		@Bean
		SelectingReconciler selectingReconciler() {
			return new SelectingReconciler();
		}

	}

	@Reconciles(value = V1Pod.class, labelSelector = "app=web", fieldSelector = "spec.nodeName=${shop.node}",
			owns = V1Secret.class, ownsMetadataOnly = V1ConfigMap.class, ownsFieldSelector = "type=kubernetes.io/tls")
	static class SelectingReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

		@Watches(value = V1Service.class, fieldSelector = "spec.type=ClusterIP")
		List<Request> service(V1Service service) {
			return List.of();
		}

		@Watches(value = V1ServiceAccount.class, fieldSelector = "metadata.name=default", metadataOnly = true)
		List<Request> account(PartialObjectMetadata account) {
			return List.of();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PlainConfiguration {

		@Bean
		PlainReconciler plainReconciler() {
			return new PlainReconciler();
		}

	}

	@Reconciles(value = V1Pod.class, owns = V1Secret.class)
	static class PlainReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

		@Watches(V1Service.class)
		List<Request> service(V1Service service) {
			return List.of();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MalformedConfiguration {

		@Bean
		MalformedReconciler malformed() {
			return new MalformedReconciler();
		}

	}

	@Reconciles(value = V1Pod.class, fieldSelector = "spec.nodeName")
	static class MalformedReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

}
