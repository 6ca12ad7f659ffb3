package io.kubeboot.operator.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.autoconfigure.KubernetesConnectionDetails;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.autoconfigure.endpoint.OperatorEndpoint;
import io.kubeboot.operator.autoconfigure.endpoint.OperatorEndpointAutoConfiguration;
import io.kubeboot.operator.autoconfigure.metrics.OperatorMetricsAutoConfiguration;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cluster.Cluster;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.cluster.FleetReconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application with {@code operator.clusters.*} and a {@code @Reconciles} bean that
 * implements {@code FleetReconciler}, against a home control plane and two members: one
 * named by a kubeconfig file and, as cluster {@code c}, by a
 * {@code KubernetesConnectionDetails} bean, the other by a kubeconfig Secret.
 * {@code /actuator/operator} and the metrics describe the fleet.
 */
@WithControlPlane
class FleetApplicationIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String MEMBER_NAMESPACE = "fleet-app-" + UUID.randomUUID().toString().substring(0, 8);

	private static List<ControlPlane> members;

	private static ControlPlane memberA;

	private static ControlPlane memberB;

	@BeforeAll
	static void startMembers() throws Exception {
		members = FleetMembers.start(MEMBER_NAMESPACE, 2);
		memberA = members.get(0);
		memberB = members.get(1);
	}

	@AfterAll
	static void stopMembers() {
		FleetMembers.close(members);
	}

	@Test
	void aFleetReconcilerBeanRunsInEveryClusterNamedByTheProperties(ApiClient admin, TestNamespace hub)
			throws Exception {
		CoreV1Api hubApi = new CoreV1Api(admin);
		hubApi
			.createNamespacedConfigMap(hub.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("desired-app")).data(Map.of("value", "1")))
			.execute();
		application(admin, hub).run((context) -> {
			assertThat(context).hasNotFailed();
			awaitCopy(memberA, "1");
			hubApi
				.createNamespacedSecret(hub.name(), new V1Secret()
					.metadata(new V1ObjectMeta().name("b").labels(Map.of("cluster.kubeboot.io/kubeconfig", "true")))
					.data(Map.of("kubeconfig",
							Files.readString(memberB.kubeconfig()).getBytes(StandardCharsets.UTF_8))))
				.execute();
			awaitCopy(memberB, "1");

			OperatorEndpoint.ManagerDescriptor described = context.getBean(OperatorEndpoint.class).operator();
			assertThat(described.runnables()).contains(Fleet.RUNNABLE_NAME);
			assertThat(described.clusters()).extracting(OperatorEndpoint.ClusterDescriptor::name)
				.containsExactly("a", "b", "c");
			assertThat(described.clusters()).allSatisfy((cluster) -> {
				assertThat(cluster.state()).isEqualTo("RUNNING");
				assertThat(cluster.error()).isNull();
				assertThat(cluster.controllers()).singleElement()
					.satisfies((controller) -> assertThat(controller.name()).isEqualTo("copy@" + cluster.name()));
				assertThat(cluster.caches()).isNotEmpty();
			});
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("operator.fleet.clusters").tag("state", "running").gauge().value()).isEqualTo(3);
			assertThat(registry.get("controller.runtime.reconcile").tag("controller", "copy@c").counters())
				.isNotEmpty();
			// each cluster's caches, and the home cluster's apart
			assertThat(registry.get("operator.informer.objects")
				.tag("cluster", "b")
				.tag("kind", "ConfigMap")
				.gauge()
				.value()).isGreaterThanOrEqualTo(1);
			assertThat(registry.get("operator.informer.objects").tag("cluster", "").tag("kind", "Secret").gauges())
				.isNotEmpty();
			assertThat(registry.get("controller.runtime.reconcile").tag("controller", "copy@a").counters())
				.isNotEmpty();
			assertThat(
					registry.find("rest.client.requests").tag("host", memberB.apiServerUrl().getAuthority()).counters())
				.isNotEmpty();

			hubApi.deleteNamespacedSecret("b", hub.name()).execute();
			await().atMost(WAIT)
				.until(() -> registry.find("controller.runtime.reconcile")
					.tag("controller", "copy@b")
					.meters()
					.isEmpty() && registry.get("operator.fleet.clusters").tag("state", "running").gauge().value() == 2);
			assertThat(registry.find("operator.informer.objects").tag("cluster", "b").meters()).isEmpty();
			assertThat(registry.find("operator.informer.objects").tag("cluster", "a").meters()).isNotEmpty();
			assertThat(context.getBean(OperatorEndpoint.class).operator().clusters())
				.extracting(OperatorEndpoint.ClusterDescriptor::name)
				.containsExactly("a", "c");
		});
	}

	private static ApplicationContextRunner application(ApiClient admin, TestNamespace hub) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class,
					OperatorMetricsAutoConfiguration.class, OperatorEndpointAutoConfiguration.class))
			.withBean(ApiClient.class, () -> admin)
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withBean("memberDetails", KubernetesConnectionDetails.class,
					() -> KubernetesConnectionDetails.ofKubeconfig(readString(memberA.kubeconfig())))
			.withUserConfiguration(CopyConfiguration.class)
			.withPropertyValues("operator.namespace=" + hub.name(),
					"management.endpoints.web.exposure.include=operator", "operator.clusters.enabled=true",
					"operator.clusters.kubeconfigs.a=" + memberA.kubeconfig(),
					"operator.clusters.connection-details.c=memberDetails",
					"operator.clusters.secrets.namespace=" + hub.name(), "fleet.member-namespace=" + MEMBER_NAMESPACE,
					"operator.graceful-shutdown-timeout=10s");
	}

	private static String readString(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void awaitCopy(ControlPlane member, String value) {
		await().atMost(WAIT).until(() -> copy(member), (copy) -> copy.equals(Optional.of(value)));
	}

	private static Optional<String> copy(ControlPlane member) throws ApiException {
		return FleetMembers.configMap(member, MEMBER_NAMESPACE, "desired-app")
			.map((copy) -> copy.getData().get("value"));
	}

	@Configuration(proxyBeanMethods = false)
	static class CopyConfiguration {

		@Bean
		CopyReconciler copyReconciler(Cache cache) {
			return new CopyReconciler(cache);
		}

	}

	/**
	 * Copies each home ConfigMap named {@code desired-*} into every member.
	 */
	@Reconciles(value = V1ConfigMap.class, name = "copy", namespace = "${fleet.member-namespace}")
	static class CopyReconciler implements FleetReconciler {

		private final Cache home;

		CopyReconciler(Cache home) {
			this.home = home;
		}

		@Watches(value = V1ConfigMap.class, home = true)
		List<Request> desired(V1ConfigMap desired) {
			String name = desired.getMetadata().getName();
			return name.startsWith("desired-") ? List.of(Request.of(memberNamespace(), name)) : List.of();
		}

		@Override
		public Result reconcile(Cluster cluster, Request request) {
			Optional<V1ConfigMap> desired = this.home.list(V1ConfigMap.class, null)
				.stream()
				.filter((configMap) -> configMap.getMetadata().getName().equals(request.name()))
				.findFirst();
			if (desired.isPresent()) {
				cluster.client()
					.createOrUpdate(
							new V1ConfigMap()
								.metadata(new V1ObjectMeta().namespace(request.namespace()).name(request.name())),
							(copy) -> copy.data(desired.get().getData()));
			}
			return Result.done();
		}

		private static String memberNamespace() {
			return MEMBER_NAMESPACE;
		}

	}

}
