package io.kubeboot.operator.autoconfigure.events;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.events.EventRecorder;
import io.kubeboot.operator.events.KubernetesEventRecorder;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Conditions and settings of {@link OperatorEventsAutoConfiguration}.
 */
class OperatorEventsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorEventsAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"));

	@Test
	void runWithApiClientShouldCreateRecorder() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(EventRecorder.class);
			assertThat(context.getBean(EventRecorder.class)).isInstanceOf(KubernetesEventRecorder.class);
			assertThat(context.getBean(KubernetesEventRecorder.class).component()).isEqualTo("operator");
		});
	}

	@Test
	void runShouldNameComponentAfterTheApplication() {
		this.contextRunner.withPropertyValues("spring.application.name=shop-operator")
			.run((context) -> assertThat(context.getBean(KubernetesEventRecorder.class).component())
				.isEqualTo("shop-operator"));
	}

	@Test
	void runWithComponentPropertyShouldUseIt() {
		this.contextRunner
			.withPropertyValues("spring.application.name=shop-operator", "operator.events.component=shop-controller",
					"operator.events.queue-capacity=10", "operator.events.aggregation-interval=2s",
					"operator.events.qps=5", "operator.events.burst=7", "operator.events.flush-timeout=1s")
			.run((context) -> assertThat(context.getBean(KubernetesEventRecorder.class).component())
				.isEqualTo("shop-controller"));
	}

	@Test
	void runWithInvalidSettingShouldFailNamingIt() {
		this.contextRunner.withPropertyValues("operator.events.qps=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("events.qps")
				.hasMessageContaining("must be positive"));
	}

	@Test
	void closingTheContextShouldCloseTheRecorder() {
		KubernetesEventRecorder[] recorder = new KubernetesEventRecorder[1];
		this.contextRunner.run((context) -> {
			recorder[0] = context.getBean(KubernetesEventRecorder.class);
			assertThat(recorder[0].isClosed()).isFalse();
		});
		assertThat(recorder[0].isClosed()).isTrue();
	}

	@Test
	void runWithUserRecorderShouldBackOff() {
		this.contextRunner.withUserConfiguration(UserRecorderConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(EventRecorder.class);
			assertThat(context).doesNotHaveBean(KubernetesEventRecorder.class);
			assertThat(context.getBean(EventRecorder.class)).isSameAs(context.getBean("myRecorder"));
		});
	}

	@Test
	void runWhenDisabledShouldNotCreateRecorder() {
		this.contextRunner.withPropertyValues("operator.events.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(EventRecorder.class));
	}

	@Test
	void runWithoutApiClientShouldNotCreateRecorder() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorEventsAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(EventRecorder.class));
	}

	@Test
	void runAfterOperatorAutoConfigurationShouldUseItsApiClient() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(OperatorEventsAutoConfiguration.class, OperatorAutoConfiguration.class))
			.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
			.withPropertyValues("operator.auto-startup=false")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(KubernetesEventRecorder.class));
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(OperatorEventsAutoConfiguration.class, OperatorAutoConfiguration.class))
			.withPropertyValues("operator.auto-startup=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(ApiClient.class)
				.hasSingleBean(KubernetesEventRecorder.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class UserRecorderConfiguration {

		@Bean
		EventRecorder myRecorder() {
			return EventRecorder.noop();
		}

	}

}
