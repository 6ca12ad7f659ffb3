package io.kubeboot.operator.autoconfigure.events;

import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.events.EventRecorder;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring application whose reconciler and runnable record events, against a real
 * kube-apiserver.
 */
@WithControlPlane
class OperatorEventsIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static List<CoreV1Event> events(ApiClient admin, TestNamespace namespace) throws ApiException {
		return new CoreV1Api(admin).listNamespacedEvent(namespace.name())
			.fieldSelector("involvedObject.name=settings")
			.execute()
			.getItems();
	}

	@Test
	void reconcilerRecordsEventsAndTheRecorderOutlivesTheLeaderOnlyRunnables(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		new CoreV1Api(admin)
			.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("settings")))
			.execute();
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(OperatorAutoConfiguration.class, OperatorEventsAutoConfiguration.class))
			.withBean(ApiClient.class, () -> admin)
			.withUserConfiguration(EventsConfiguration.class)
			.withPropertyValues("operator.namespace=" + namespace, "spring.application.name=shop-operator")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				await().atMost(WAIT)
					.until(() -> events(admin, namespace).stream()
						.anyMatch((event) -> "Reconciled".equals(event.getReason())));
			});
		// recorded while the manager stopped the leader-only runnable: the recorder,
		// which runs on every replica, stops after those and flushed it
		assertThat(events(admin, namespace)).anySatisfy((event) -> {
			assertThat(event.getReason()).isEqualTo("Stopped");
			// an events.k8s.io/v1 Event, whose reportingController this is
			assertThat(event.getReportingComponent()).isEqualTo("shop-operator");
			assertThat(event.getEventTime()).isNotNull();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class EventsConfiguration {

		@Bean
		@Reconciles(V1ConfigMap.class)
		io.kubeboot.operator.reconcile.Reconciler configMapReconciler(Cache cache, EventRecorder recorder) {
			return (Request request) -> {
				cache.get(V1ConfigMap.class, request)
					.ifPresent((configMap) -> recorder.normal(configMap, "Reconciled", "Reconciled the settings"));
				return Result.done();
			};
		}

		@Bean
		ManagerRunnable recordOnStop(EventRecorder recorder, @Value("${operator.namespace}") String namespace) {
			// leader-only, as controllers are: the manager stops these first
			return (StopSignal stop) -> {
				stop.await();
				recorder.normal(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name("settings")),
						"Stopped", "The operator stopped");
			};
		}

	}

}
