package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.LeadershipEvent;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerState;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring application with the auto-configuration and a {@code @Reconciles} bean,
 * against a real kube-apiserver.
 */
@WithControlPlane
class OperatorApplicationIntegrationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class));

	@Test
	void reconcilerBeanReconcilesEveryConfigMapOfTheNamespace(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient admin = controlPlane.adminClient();
		CoreV1Api core = new CoreV1Api(admin);
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("existing")).data(Map.of("a", "1")))
			.execute();
		this.contextRunner.withBean(ApiClient.class, () -> admin)
			.withUserConfiguration(ConfigMapReconcilerConfiguration.class)
			.withPropertyValues("operator.namespace=" + namespace)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(Manager.class).state()).isEqualTo(ManagerState.RUNNING);
				assertThat(keepAliveThread()).isNotNull()
					.satisfies((thread) -> assertThat(thread.isDaemon()).isFalse());
				RecordingReconciler reconciler = context.getBean(RecordingReconciler.class);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> reconciler.seen.contains(namespace + "/existing data={a=1}"));
				core.createNamespacedConfigMap(namespace.name(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name("created")).data(Map.of("b", "2")))
					.execute();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> reconciler.seen.contains(namespace + "/created data={b=2}"));
			});
		await().atMost(Duration.ofSeconds(10)).until(() -> keepAliveThread() == null);
	}

	@Test
	void reconcilerForKindWithoutCrdFailsStartupNamingTheKind(ControlPlane controlPlane, TestNamespace namespace) {
		this.contextRunner.withBean(ApiClient.class, controlPlane::adminClient)
			.withUserConfiguration(GadgetReconcilerConfiguration.class)
			.withPropertyValues("operator.namespace=" + namespace)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("Kind Gadget (test.kubeboot.io/v1)")
				.hasMessageContaining("is not served by the API server")
				.hasMessageContaining("is its CustomResourceDefinition installed?"));
	}

	@Test
	void leaderElectionPublishesEventsAndReleasesTheLeaseOnClose(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		CoordinationV1Api leases = new CoordinationV1Api(controlPlane.adminClient());
		this.contextRunner.withBean(ApiClient.class, controlPlane::adminClient)
			.withUserConfiguration(ConfigMapReconcilerConfiguration.class, LeadershipEventsConfiguration.class)
			.withPropertyValues("operator.namespace=" + namespace, "operator.leader-election.enabled=true",
					"operator.leader-election.namespace=" + namespace, "operator.leader-election.identity=replica-1",
					"operator.leader-election.lease-duration=3s", "operator.leader-election.renew-deadline=2s",
					"operator.leader-election.retry-period=500ms")
			.run((context) -> {
				List<LeadershipEvent> events = context.getBean(LeadershipEventsConfiguration.class).events;
				await().atMost(Duration.ofSeconds(10))
					.until(() -> events.stream().anyMatch(LeadershipEvent.StartedLeading.class::isInstance));
				assertThat(events).first().isInstanceOf(LeadershipEvent.NewLeader.class);
				assertThat(events.get(0).getIdentity()).isEqualTo("replica-1");
				assertThat(leases.readNamespacedLease("operator-leader", namespace.name())
					.execute()
					.getSpec()
					.getHolderIdentity()).isEqualTo("replica-1");
				assertThat(context.getBean(Manager.class).isLeader()).isTrue();
			});
		assertThat(
				leases.readNamespacedLease("operator-leader", namespace.name()).execute().getSpec().getHolderIdentity())
			.isEmpty();
	}

	private static Thread keepAliveThread() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().equals("operator-keep-alive") && thread.isAlive())
			.findFirst()
			.orElse(null);
	}

	@Configuration(proxyBeanMethods = false)
	static class ConfigMapReconcilerConfiguration {

		@Bean
		RecordingReconciler recordingReconciler(Cache cache) {
			return new RecordingReconciler(cache);
		}

	}

	@Reconciles(V1ConfigMap.class)
	static class RecordingReconciler {

		final List<String> seen = new CopyOnWriteArrayList<>();

		private final Cache cache;

		RecordingReconciler(Cache cache) {
			this.cache = cache;
		}

		Result reconcile(Request request) {
			this.cache.get(V1ConfigMap.class, request)
				.ifPresent((configMap) -> this.seen.add(request + " data=" + configMap.getData()));
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LeadershipEventsConfiguration {

		final List<LeadershipEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void on(LeadershipEvent event) {
			this.events.add(event);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class GadgetReconcilerConfiguration {

		@Bean
		GadgetReconciler gadgetReconciler() {
			return new GadgetReconciler();
		}

	}

	@Reconciles(ManagerIntegrationTests.Gadget.class)
	static class GadgetReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

}
