package io.kubeboot.operator.autoconfigure.events;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.TestKubeconfigs;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.events.EventApi;
import io.kubeboot.operator.events.EventRecorder;
import io.kubeboot.operator.events.KubernetesEventRecorder;
import io.kubeboot.operator.manager.Manager;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Conditions and settings of {@link OperatorEventsAutoConfiguration}.
 */
class OperatorEventsAutoConfigurationTests {

	private static final String UNREACHABLE = "https://127.0.0.1:1";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorEventsAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath(UNREACHABLE))
		.withBean(Manager.class, () -> Manager.builder(new ApiClient().setBasePath(UNREACHABLE)).build());

	@Test
	void runWithApiClientShouldCreateRecorder() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(EventRecorder.class);
			assertThat(context.getBean(EventRecorder.class)).isInstanceOf(KubernetesEventRecorder.class);
			assertThat(context.getBean(KubernetesEventRecorder.class).component()).isEqualTo("operator");
		});
	}

	@Test
	void runShouldAddRecorderToManagerAsRunnableOnEveryReplica() {
		this.contextRunner.run((context) -> {
			KubernetesEventRecorder recorder = context.getBean(KubernetesEventRecorder.class);
			Manager manager = context.getBean(Manager.class);
			assertThat(manager.runnables(KubernetesEventRecorder.class)).containsExactly(recorder);
			assertThat(manager.runnableNamesExcept(Controller.class))
				.containsExactly(OperatorEventsAutoConfiguration.RUNNABLE_NAME);
			assertThat(recorder.needsLeaderElection()).isFalse();
		});
	}

	@Test
	void runShouldNameComponentAfterTheApplication() {
		this.contextRunner.withPropertyValues("spring.application.name=shop-operator")
			.run((context) -> assertThat(context.getBean(KubernetesEventRecorder.class).component())
				.isEqualTo("shop-operator"));
	}

	@Test
	void runShouldMakeTheApplicationsNameAQualifiedNameForTheComponent() {
		this.contextRunner.withPropertyValues("spring.application.name=Shop Operator (EU)")
			.run((context) -> assertThat(context.getBean(KubernetesEventRecorder.class).component())
				.isEqualTo("shop-operator-eu"));
		assertThat(OperatorEventsAutoConfiguration.componentOf("example.com/shop", EventApi.AUTO))
			.isEqualTo("example.com/shop");
		assertThat(OperatorEventsAutoConfiguration.componentOf("example.com/Shop Operator", EventApi.AUTO))
			.isEqualTo("example.com-shop-operator");
		assertThat(OperatorEventsAutoConfiguration.componentOf("--", EventApi.AUTO)).isEqualTo("operator");
		assertThat(OperatorEventsAutoConfiguration.componentOf("x".repeat(70), EventApi.EVENTS_V1))
			.isEqualTo("x".repeat(63));
	}

	@Test
	void runWithCoreV1EventsShouldKeepTheApplicationsNameAsTheComponent() {
		// core/v1 Events put no rule on source.component: what users filter on stays
		this.contextRunner.withPropertyValues("spring.application.name=Shop Operator", "operator.events.api=core-v1")
			.run((context) -> assertThat(context.getBean(KubernetesEventRecorder.class).component())
				.isEqualTo("Shop Operator"));
	}

	@Test
	void runWithCoreV1EventsAndAComponentThatIsNoQualifiedNameShouldStart() {
		// the documented configuration: a qualified name only where events.k8s.io/v1
		// Events may be written
		this.contextRunner.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withPropertyValues("operator.events.api=core-v1", "operator.events.component=Shop Operator",
					"operator.auto-startup=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(KubernetesEventRecorder.class).component()).isEqualTo("Shop Operator");
			});
	}

	@Test
	void runWithApiPropertyShouldUseIt() {
		this.contextRunner.withPropertyValues("operator.events.api=core-v1")
			.run((context) -> assertThat(context.getBean(KubernetesEventRecorder.class).api())
				.isEqualTo(EventApi.CORE_V1));
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
		// checked with every operator.* property, by the operator's auto-configuration
		this.contextRunner.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withPropertyValues("operator.events.qps=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("operator.events.qps (0) must be positive"));
	}

	@Test
	void managerShouldRunTheRecorderAndStopItBeforeTheContextClosesIt() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(OperatorAutoConfiguration.class, OperatorEventsAutoConfiguration.class))
			.withBean(ApiClient.class, () -> new ApiClient().setBasePath(UNREACHABLE))
			.withUserConfiguration(RecorderObserverConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				// no informers and no leader election: the manager starts without the API
				// server, and runs the recorder on a thread of its own
				await().atMost(Duration.ofSeconds(20)).until(() -> isAlive("operator-event-recorder"));
				assertThat(context.getBean(KubernetesEventRecorder.class).isClosed()).isFalse();
			});
		assertThat(RecorderObserver.closedWhenDestroyed).isTrue();
		assertThat(isAlive("operator-event-recorder")).isFalse();
	}

	private static boolean isAlive(String threadName) {
		return Thread.getAllStackTraces().keySet().stream().anyMatch((thread) -> thread.getName().equals(threadName));
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
	void runWithoutManagerShouldNotCreateRecorder() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorEventsAutoConfiguration.class))
			.withBean(ApiClient.class, () -> new ApiClient().setBasePath(UNREACHABLE))
			.run((context) -> assertThat(context).doesNotHaveBean(EventRecorder.class));
	}

	@Test
	void runWithoutApiClientShouldNotCreateRecorder() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorEventsAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(EventRecorder.class));
	}

	@Test
	void runAfterOperatorAutoConfigurationShouldUseItsApiClient(@TempDir Path directory) throws IOException {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(OperatorEventsAutoConfiguration.class, OperatorAutoConfiguration.class))
			.withBean(ApiClient.class, () -> new ApiClient().setBasePath(UNREACHABLE))
			.withPropertyValues("operator.auto-startup=false")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(KubernetesEventRecorder.class);
				// the recorder is a Runnable bean, yet the manager runs it once
				assertThat(context.getBean(Manager.class).runnableNamesExcept(Controller.class))
					.containsExactly(OperatorEventsAutoConfiguration.RUNNABLE_NAME);
			});
		TestKubeconfigs
			.withKubeconfig(
					new ApplicationContextRunner().withConfiguration(AutoConfigurations
						.of(OperatorEventsAutoConfiguration.class, OperatorAutoConfiguration.class)),
					directory, UNREACHABLE)
			.withPropertyValues("operator.auto-startup=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(ApiClient.class)
				.hasSingleBean(KubernetesEventRecorder.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class RecorderObserverConfiguration {

		@Bean
		RecorderObserver recorderObserver(KubernetesEventRecorder recorder) {
			return new RecorderObserver(recorder);
		}

	}

	/**
	 * Destroyed before the recorder it depends on, after the lifecycle beans stopped.
	 */
	static class RecorderObserver implements DisposableBean {

		static volatile boolean closedWhenDestroyed;

		private final KubernetesEventRecorder recorder;

		RecorderObserver(KubernetesEventRecorder recorder) {
			this.recorder = recorder;
			closedWhenDestroyed = false;
		}

		@Override
		public void destroy() {
			closedWhenDestroyed = this.recorder.isClosed();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserRecorderConfiguration {

		@Bean
		EventRecorder myRecorder() {
			return EventRecorder.noop();
		}

	}

}
