package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.endpoint.OperatorEndpoint;
import io.kubeboot.operator.autoconfigure.endpoint.OperatorEndpointAutoConfiguration;
import io.kubeboot.operator.autoconfigure.metrics.OperatorMetricsAutoConfiguration;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerHealth;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two applications with {@code operator.sharding.enabled=true} against a real
 * kube-apiserver: each reconciles its share of the objects and nothing else, and
 * {@code /actuator/operator}, the metrics and readiness say so.
 */
@WithControlPlane
@ExtendWith(OutputCaptureExtension.class)
class ShardingApplicationIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final int OBJECTS = 40;

	@Test
	void twoApplicationsShareTheObjectsAndDescribeTheRing(ControlPlane controlPlane, TestNamespace namespace,
			CapturedOutput output) throws Exception {
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		for (int i = 0; i < OBJECTS; i++) {
			core.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("object-" + i).putLabelsItem("sharded", "yes")))
				.execute();
		}
		replica(controlPlane, namespace, "a").run((a) -> replica(controlPlane, namespace, "b").run((b) -> {
			assertThat(a).hasNotFailed();
			assertThat(b).hasNotFailed();
			ShardRing ringA = a.getBean(ShardRing.class);
			ShardRing ringB = b.getBean(ShardRing.class);
			await().atMost(WAIT)
				.until(() -> ringA.members().equals(List.of("a", "b")) && ringB.members().equals(List.of("a", "b"))
						&& assigned(a) + assigned(b) == OBJECTS && assigned(a) > 0 && assigned(b) > 0);
			long settled = System.nanoTime();
			Journal journalA = a.getBean(Journal.class);
			Journal journalB = b.getBean(Journal.class);
			await().atMost(WAIT).until(() -> {
				Set<String> all = new HashSet<>(journalA.since(settled));
				all.addAll(journalB.since(settled));
				return all.size() == OBJECTS;
			});
			Set<String> ofA = journalA.since(settled);
			Set<String> ofB = journalB.since(settled);
			assertThat(ofA).doesNotContainAnyElementsOf(ofB);
			for (AssertableApplicationContext replica : List.of(a, b)) {
				Set<String> share = (replica == a) ? ofA : ofB;
				String identity = (replica == a) ? "a" : "b";
				OperatorEndpoint.ManagerDescriptor described = replica.getBean(OperatorEndpoint.class).operator();
				assertThat(described.sharding()).singleElement().satisfies((ring) -> {
					assertThat(ring.ring()).isEqualTo("configmaps");
					assertThat(ring.identity()).isEqualTo(identity);
					assertThat(ring.lease()).isEqualTo(namespace.name() + "/configmaps-" + identity);
					assertThat(ring.member()).isTrue();
					assertThat(ring.members()).containsExactly("a", "b");
					assertThat(ring.lastError()).isNull();
				});
				assertThat(described.controllers()).singleElement().satisfies((controller) -> {
					assertThat(controller.shardRing()).isEqualTo("configmaps");
					assertThat(controller.running()).isTrue();
					assertThat(controller.assignedObjects()).isEqualTo(share.size());
				});
				MeterRegistry registry = replica.getBean(MeterRegistry.class);
				assertThat(registry.get("operator.shard.ring.members").tag("ring", "configmaps").gauge().value())
					.isEqualTo(2);
				assertThat(registry.get("operator.shard.ring.member").tag("ring", "configmaps").gauge().value())
					.isEqualTo(1);
				assertThat(registry.get("operator.controller.assigned.objects")
					.tag("controller", "configmap")
					.gauge()
					.value()).isEqualTo(share.size());
				assertThat(new ManagerHealth(replica.getBean(Manager.class), Duration.ofSeconds(10)).readiness())
					.anySatisfy((check) -> {
						assertThat(check.name()).isEqualTo("shard-ring-configmaps");
						assertThat(check.ok()).isTrue();
					});
			}
		}));
		// the shard Lease is logged as what it is, not as a leader's
		assertThat(output).contains("Successfully acquired shard lease: lease=" + namespace.name() + "/configmaps-a")
			.contains("Released shard lease: lease=" + namespace.name() + "/configmaps-b")
			.doesNotContain("leader lease")
			.doesNotContain("New leader observed");
	}

	private static int assigned(AssertableApplicationContext context) {
		return context.getBean(OperatorEndpoint.class).operator().controllers().get(0).assignedObjects();
	}

	private static ApplicationContextRunner replica(ControlPlane controlPlane, TestNamespace namespace,
			String identity) {
		ApiClient client = controlPlane.adminClient();
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class,
					OperatorMetricsAutoConfiguration.class, OperatorEndpointAutoConfiguration.class))
			.withBean(ApiClient.class, () -> client)
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withUserConfiguration(JournalingReconcilerConfiguration.class)
			.withPropertyValues("operator.namespace=" + namespace.name(),
					"management.endpoints.web.exposure.include=operator", "operator.sharding.enabled=true",
					"operator.sharding.ring=configmaps", "operator.sharding.namespace=" + namespace.name(),
					"operator.sharding.identity=" + identity, "operator.sharding.lease-duration=3s",
					"operator.sharding.renew-deadline=2s", "operator.sharding.retry-period=500ms",
					"operator.graceful-shutdown-timeout=10s");
	}

	@Configuration(proxyBeanMethods = false)
	static class JournalingReconcilerConfiguration {

		@Bean
		Journal journal() {
			return new Journal();
		}

		@Bean
		JournalingReconciler journalingReconciler(Journal journal) {
			return new JournalingReconciler(journal);
		}

	}

	/**
	 * When this replica last started a reconcile of each object.
	 */
	static class Journal {

		private final Map<String, Long> started = new ConcurrentHashMap<>();

		void started(String name) {
			this.started.put(name, System.nanoTime());
		}

		Set<String> since(long nanos) {
			Set<String> names = new HashSet<>();
			this.started.forEach((name, at) -> {
				if (at >= nanos) {
					names.add(name);
				}
			});
			return names;
		}

	}

	@Reconciles(value = V1ConfigMap.class, labelSelector = "sharded=yes", maxConcurrentReconciles = 2)
	static class JournalingReconciler {

		private final Journal journal;

		JournalingReconciler(Journal journal) {
			this.journal = journal;
		}

		Result reconcile(Request request) {
			this.journal.started(request.name());
			return Result.requeueAfter(Duration.ofMillis(300));
		}

	}

}
