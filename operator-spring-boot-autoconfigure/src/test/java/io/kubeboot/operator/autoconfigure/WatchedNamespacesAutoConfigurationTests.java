package io.kubeboot.operator.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.endpoint.OperatorEndpoint;
import io.kubeboot.operator.autoconfigure.endpoint.OperatorEndpointAutoConfiguration;
import io.kubeboot.operator.autoconfigure.metrics.OperatorMetricsAutoConfiguration;
import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The namespaces of {@code operator.namespace} and {@code operator.namespaces}: the set
 * the manager is built with, the {@link WatchedNamespaces} bean that changes it, and a
 * Spring Cloud refresh of the properties that changes it too (with the stand-in of Spring
 * Cloud's {@link EnvironmentChangeEvent}), unless the refreshed values break a rule.
 */
@ExtendWith(OutputCaptureExtension.class)
class WatchedNamespacesAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false");

	@Test
	void runWithNamespacesShouldWatchThemThroughABeanThatChangesThem() {
		this.contextRunner.withPropertyValues("operator.namespaces=shop-b,shop-a").run((context) -> {
			WatchedNamespaces namespaces = context.getBean(WatchedNamespaces.class);
			assertThat(namespaces).isSameAs(context.getBean(Manager.class).namespaces());
			assertThat(namespaces.watchesAll()).isFalse();
			assertThat(namespaces.current()).containsExactly("shop-a", "shop-b");
			namespaces.add("shop-c");
			assertThat(context.getBean(Manager.class).namespaces().current()).containsExactly("shop-a", "shop-b",
					"shop-c");
		});
	}

	@Test
	void runWithANamespaceShouldWatchItAsASetOfOne() {
		this.contextRunner.withPropertyValues("operator.namespace=shop")
			.run((context) -> assertThat(context.getBean(WatchedNamespaces.class).current()).containsExactly("shop"));
	}

	@Test
	void runWithoutNamespacesShouldWatchAllNamespaces() {
		this.contextRunner.run((context) -> assertThat(context.getBean(WatchedNamespaces.class).watchesAll()).isTrue());
	}

	@Test
	void refreshedNamespacesShouldChangeTheSet() {
		this.contextRunner.withPropertyValues("operator.namespaces=shop-a,shop-b").run((context) -> {
			refresh(context, Map.of("operator.namespaces", "shop-a,shop-c"));
			assertThat(context.getBean(WatchedNamespaces.class).current()).containsExactly("shop-a", "shop-c");
		});
	}

	@Test
	void aRefreshOfOtherKeysShouldLeaveAnOperatorOfAllNamespacesAloneAndLogNothing(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			refresh(context, Map.of("logging.level.io.kubeboot", "debug"));
			assertThat(context.getBean(WatchedNamespaces.class).watchesAll()).isTrue();
		});
		assertThat(output).doesNotContain("Watched namespaces");
	}

	@Test
	void namespacesChangedThroughTheBeanShouldSurviveRefreshesThatLeaveThePropertiesAsTheyWere() {
		this.contextRunner.withPropertyValues("operator.namespaces=shop-a").run((context) -> {
			WatchedNamespaces namespaces = context.getBean(WatchedNamespaces.class);
			namespaces.add("shop-x");
			refresh(context, Map.of("logging.level.io.kubeboot", "debug"));
			assertThat(namespaces.current()).containsExactly("shop-a", "shop-x");
			refresh(context, Map.of("operator.namespaces", "shop-a"));
			assertThat(namespaces.current()).containsExactly("shop-a", "shop-x");
			// a refresh that changes them replaces the whole set
			refresh(context, Map.of("operator.namespaces", "shop-b"));
			assertThat(namespaces.current()).containsExactly("shop-b");
		});
	}

	@Test
	void theKeysOfTheNamespacePropertiesShouldBeToldInEveryForm() {
		assertThat(List.of("operator.namespace", "operator.namespaces", "operator.namespaces[1]", "OPERATOR_NAMESPACE",
				"OPERATOR_NAMESPACES", "OPERATOR_NAMESPACES_0"))
			.allMatch(NamespacesRefresh::namesTheNamespaces);
		assertThat(List.of("operator.name", "operator.namespaced", "logging.level.root", "OPERATOR_LIST_PAGE_SIZE"))
			.noneMatch(NamespacesRefresh::namesTheNamespaces);
	}

	@Test
	void aRefreshedNamespaceThatIsNoNamespaceNameShouldLeaveTheSetAsItIsAndSayWhy(CapturedOutput output) {
		this.contextRunner.withPropertyValues("operator.namespaces=shop-a").run((context) -> {
			refresh(context, Map.of("operator.namespaces[0]", "shop-a", "operator.namespaces[1]", "Shop_B"));
			assertThat(context.getBean(WatchedNamespaces.class).current()).containsExactly("shop-a");
		});
		assertThat(output).contains("Watched namespaces not changed by the refreshed properties, the operator keeps "
				+ "[shop-a]: operator.namespaces[1] (Shop_B) must be a lowercase RFC 1123 label");
	}

	@Test
	void refreshedPropertiesThatSetBothShouldLeaveTheSetAsItIsAndNameBoth(CapturedOutput output) {
		this.contextRunner.withPropertyValues("operator.namespaces=shop-a").run((context) -> {
			refresh(context, Map.of("operator.namespace", "shop-b"));
			assertThat(context.getBean(WatchedNamespaces.class).current()).containsExactly("shop-a");
		});
		assertThat(output)
			.contains("operator.namespaces (shop-a) cannot be set together with operator.namespace " + "(shop-b)");
	}

	@Test
	void aRefreshThatEmptiesTheSetShouldLeaveItAsItIs(CapturedOutput output) {
		this.contextRunner.withPropertyValues("operator.namespace=shop-a").run((context) -> {
			refresh(context, Map.of("operator.namespace", ""));
			assertThat(context.getBean(WatchedNamespaces.class).current()).containsExactly("shop-a");
		});
		assertThat(output).contains("operator.namespaces cannot be emptied while the operator runs");
	}

	@Test
	void aRefreshThatRestrictsAnOperatorOfAllNamespacesShouldLeaveItAsItIs(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			refresh(context, Map.of("operator.namespaces", "shop-a"));
			assertThat(context.getBean(WatchedNamespaces.class).watchesAll()).isTrue();
		});
		assertThat(output).contains("operator.namespaces (shop-a) cannot restrict an operator that watches all "
				+ "namespaces while it runs");
	}

	@Test
	void runWithoutSpringCloudShouldNotListenForRefreshes() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.cloud"))
			.run((context) -> assertThat(context).doesNotHaveBean(NamespacesRefresh.class));
	}

	@Test
	void runWithSpringCloudShouldListenForRefreshes() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(NamespacesRefresh.class));
	}

	@Test
	void theEndpointAndTheMetricsShowOneCachePerNamespaceAndDropThoseOfARemovedNamespace() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(OperatorMetricsAutoConfiguration.class,
					OperatorEndpointAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withUserConfiguration(OwningConfiguration.class)
			.withPropertyValues("management.endpoints.web.exposure.include=operator",
					"operator.namespaces=shop-a,shop-b")
			.run((context) -> {
				OperatorEndpoint endpoint = context.getBean(OperatorEndpoint.class);
				OperatorEndpoint.ManagerDescriptor described = endpoint.operator();
				assertThat(described.namespaces().watched()).containsExactly("shop-a", "shop-b");
				assertThat(described.namespaces().unsynced()).containsExactly("shop-a", "shop-b");
				assertThat(described.controllers()).singleElement().satisfies((controller) -> {
					assertThat(controller.kind()).isEqualTo("V1ConfigMap");
					assertThat(controller.namespace()).isNull();
					assertThat(controller.alsoWatches()).containsExactly("V1Secret[namespace=shop-a]",
							"V1Secret[namespace=shop-b]");
				});
				assertThat(described.caches()).extracting(OperatorEndpoint.CacheDescriptor::namespace)
					.containsExactlyInAnyOrder("shop-a", "shop-b", "shop-a", "shop-b");
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.find("operator.informer.silence.seconds").tag("namespace", "shop-b").gauges())
					.hasSize(2);
				context.getBean(WatchedNamespaces.class).remove("shop-b");
				assertThat(registry.find("operator.informer.silence.seconds").tag("namespace", "shop-b").gauges())
					.isEmpty();
				assertThat(endpoint.operator().caches()).extracting(OperatorEndpoint.CacheDescriptor::namespace)
					.containsOnly("shop-a");
			});
	}

	/**
	 * Changes the environment and publishes the event, as Spring Cloud's
	 * {@code ContextRefresher} does.
	 */
	private static void refresh(AssertableApplicationContext context, Map<String, Object> properties) {
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("refreshed", properties));
		context.publishEvent(new EnvironmentChangeEvent(context, Set.copyOf(properties.keySet())));
	}

	@Configuration(proxyBeanMethods = false)
	static class OwningConfiguration {

		@Bean
		OwningReconciler owningReconciler() {
			return new OwningReconciler();
		}

	}

	@Reconciles(value = V1ConfigMap.class, owns = V1Secret.class)
	static class OwningReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

}
