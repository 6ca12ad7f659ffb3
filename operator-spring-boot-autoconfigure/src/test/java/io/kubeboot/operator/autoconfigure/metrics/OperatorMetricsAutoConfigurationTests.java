package io.kubeboot.operator.autoconfigure.metrics;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.ManagerBuilderCustomizer;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.TestKubeconfigs;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.micrometer.OperatorMetrics;
import io.kubeboot.operator.micrometer.RestClientMetricsInterceptor;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OperatorMetricsAutoConfiguration}.
 */
class OperatorMetricsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(OperatorAutoConfiguration.class, OperatorMetricsAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false");

	@Test
	void withMeterRegistryTheManagerIsInstrumented() {
		this.contextRunner
			.withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
			.withUserConfiguration(ReconcilerConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(OperatorMetrics.class).hasSingleBean(ManagerBuilderCustomizer.class);
				assertThat(scrape(context.getBean(PrometheusMeterRegistry.class))).contains(
						"controller_runtime_reconcile_total{controller=\"configmap\",result=\"success\"} 0.0",
						"controller_runtime_max_concurrent_reconciles{controller=\"configmap\"} 1.0");
			});
	}

	@Test
	void withoutMeterRegistryNothingIsInstrumented() {
		this.contextRunner.withUserConfiguration(ReconcilerConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(Manager.class)
				.doesNotHaveBean(OperatorMetrics.class)
				.doesNotHaveBean(ManagerBuilderCustomizer.class);
			assertThat(context.getBean(ApiClient.class).getHttpClient().interceptors())
				.noneMatch(RestClientMetricsInterceptor.class::isInstance);
		});
	}

	@Test
	void withoutMicrometerNothingIsInstrumented() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(Manager.class)
				.doesNotHaveBean(OperatorMetrics.class));
	}

	@Test
	void whenOperatorIsDisabledNothingIsInstrumented() {
		this.contextRunner
			.withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
			.withPropertyValues("operator.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(OperatorMetrics.class));
	}

	@Test
	void userApiClientBeanGetsTheInterceptor() {
		this.contextRunner
			.withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
			.run((context) -> assertThat(context.getBean(ApiClient.class).getHttpClient().interceptors())
				.filteredOn(RestClientMetricsInterceptor.class::isInstance)
				.hasSize(1));
	}

	@Test
	void autoConfiguredApiClientGetsTheInterceptor(@TempDir Path directory) throws IOException {
		TestKubeconfigs
			.withKubeconfig(
					new ApplicationContextRunner().withConfiguration(AutoConfigurations
						.of(OperatorAutoConfiguration.class, OperatorMetricsAutoConfiguration.class)),
					directory, "https://127.0.0.1:1")
			.withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
			.withPropertyValues("operator.auto-startup=false")
			.run((context) -> assertThat(context.getBean(ApiClient.class).getHttpClient().interceptors())
				.filteredOn(RestClientMetricsInterceptor.class::isInstance)
				.hasSize(1));
	}

	@Test
	void leaderElectionStatusIsRegisteredUnderTheLeaseName() {
		this.contextRunner
			.withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
			.withPropertyValues("operator.leader-election.enabled=true", "operator.leader-election.namespace=default",
					"spring.application.name=shop")
			.run((context) -> assertThat(scrape(context.getBean(PrometheusMeterRegistry.class)))
				.contains("leader_election_master_status{name=\"shop-leader\"} 0.0"));
	}

	@Test
	void withoutLeaderElectionThereIsNoLeaderStatus() {
		this.contextRunner
			.withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
			.run((context) -> assertThat(scrape(context.getBean(PrometheusMeterRegistry.class)))
				.noneMatch((line) -> line.contains("leader_election_master_status")));
	}

	@Test
	void worksWithBootsAutoConfiguredRegistryInAnyConfigurationOrder() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(OperatorMetricsAutoConfiguration.class,
					OperatorAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, MetricsAutoConfiguration.class))
			.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
			.withUserConfiguration(ReconcilerConfiguration.class)
			.withPropertyValues("operator.auto-startup=false")
			.run((context) -> {
				assertThat(context).hasSingleBean(OperatorMetrics.class);
				assertThat(scrape(context.getBean(PrometheusMeterRegistry.class)))
					.contains("controller_runtime_reconcile_total{controller=\"configmap\",result=\"success\"} 0.0");
				assertThat(context.getBean(ApiClient.class).getHttpClient().interceptors())
					.anyMatch(RestClientMetricsInterceptor.class::isInstance);
			});
	}

	@Test
	void userOperatorMetricsBeanIsUsed() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		OperatorMetrics metrics = new OperatorMetrics(registry);
		this.contextRunner.withBean(PrometheusMeterRegistry.class, () -> registry)
			.withBean(OperatorMetrics.class, () -> metrics)
			.withUserConfiguration(ReconcilerConfiguration.class)
			.run((context) -> {
				assertThat(context.getBean(OperatorMetrics.class)).isSameAs(metrics);
				assertThat(scrape(registry))
					.contains("controller_runtime_max_concurrent_reconciles{controller=\"configmap\"} 1.0");
			});
	}

	private static List<String> scrape(PrometheusMeterRegistry registry) {
		return registry.scrape().lines().toList();
	}

	@Configuration(proxyBeanMethods = false)
	static class ReconcilerConfiguration {

		@Bean
		ConfigMapReconciler configMapReconciler() {
			return new ConfigMapReconciler();
		}

	}

	@Reconciles(V1ConfigMap.class)
	static class ConfigMapReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

}
