package io.kubeboot.operator.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.kubeboot.operator.annotation.RbacRule;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.cluster.Cluster;
import io.kubeboot.operator.cluster.ClusterProvider;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.cluster.FleetReconciler;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wiring of {@code operator.clusters.*} and of fleet reconciler beans, without an API
 * server: what is created, and every mistake failing start-up with a message naming the
 * property or the bean.
 */
class FleetAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false");

	@Test
	void noFleetUnlessEnabled() {
		this.contextRunner.withUserConfiguration(Provider.class).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(Fleet.class);
			assertThat(context.getBean(Manager.class).runnableNamesExcept(Fleet.class)).doesNotContain("fleet");
		});
	}

	@Test
	void enabledFleetRunsOnTheManagerWithItsFleetControllers(@TempDir Path dir) throws Exception {
		Path kubeconfig = Files.writeString(dir.resolve("eu.yaml"), "apiVersion: v1\nkind: Config\n");
		this.contextRunner.withUserConfiguration(FleetBean.class)
			.withPropertyValues("operator.clusters.enabled=true", "operator.clusters.kubeconfigs.eu=" + kubeconfig,
					"operator.clusters.secrets.namespace=fleet")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(Fleet.class);
				Manager manager = context.getBean(Manager.class);
				assertThat(manager.runnables(Fleet.class)).containsExactly(context.getBean(Fleet.class));
				// the kubeconfig Secrets are read through the home cache, in their
				// namespace only
				assertThat(manager.informers()).anySatisfy((informer) -> {
					assertThat(informer.key().type()).isEqualTo(V1Secret.class);
					assertThat(informer.key().namespace()).isEqualTo("fleet");
					assertThat(informer.key().labelSelector()).isEqualTo("cluster.kubeboot.io/kubeconfig=true");
				});
				// the home kind of @Watches(home = true)
				assertThat(manager.informers())
					.anySatisfy((informer) -> assertThat(informer.key().type()).isEqualTo(V1ConfigMap.class));
			});
	}

	@Test
	void aClusterProviderBeanNamesClusters() {
		this.contextRunner.withUserConfiguration(Provider.class)
			.withPropertyValues("operator.clusters.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(Fleet.class));
	}

	@Test
	void enabledWithoutClustersFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("operator.clusters.enabled=true")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidOperatorPropertyException.class)
				.hasMessage("operator.clusters.enabled is true, and no cluster is named: set "
						+ "operator.clusters.kubeconfigs.<name>, operator.clusters.connection-details.<name> or "
						+ "operator.clusters.secrets.namespace, or declare a ClusterProvider bean"));
	}

	@Test
	void aFleetReconcilerWithoutAFleetFailsNamingTheBean() {
		this.contextRunner.withUserConfiguration(FleetBean.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidOperatorBeanException.class)
				.hasMessageContaining("@Reconciles bean 'copyReconciler' is invalid: it is a FleetReconciler")
				.hasMessageContaining("operator.clusters.enabled is not true"));
	}

	@Test
	void aHomeWatchOfASingleClusterReconcilerFailsNamingTheBean() {
		this.contextRunner.withUserConfiguration(HomeWatchOfAPlainReconciler.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidOperatorBeanException.class)
				.hasMessageContaining("@Reconciles bean 'plainReconciler' is invalid: @Watches(V1Secret, home = true) "
						+ "method secret watches the home cluster of a fleet, and the bean is no FleetReconciler"));
	}

	@Test
	void aFleetReconcilerWithAFinalizerFailsNamingTheBean() {
		this.contextRunner.withUserConfiguration(Provider.class, FinalizingFleetBean.class)
			.withPropertyValues("operator.clusters.enabled=true")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidOperatorBeanException.class)
				.hasMessageContaining("@Reconciles bean 'finalizingReconciler' is invalid: it is a FleetReconciler "
						+ "and declares a finalizer"));
	}

	@Test
	void shardingAFleetControllerFailsNamingTheProperty() {
		this.contextRunner.withUserConfiguration(Provider.class, FleetBean.class)
			.withPropertyValues("operator.clusters.enabled=true", "operator.sharding.enabled=true",
					"operator.sharding.controllers=configmap")
			.run((context) -> assertThat(context.getStartupFailure())
				.isInstanceOf(InvalidOperatorPropertyException.class)
				.hasMessage("operator.sharding.controllers[0] names the fleet controller configmap, whose objects "
						+ "sharding does not share: with sharding on, the fleet shares its clusters over the ring "
						+ "instead, and the controller runs in each cluster on the replica the ring gives it to"));
	}

	@Test
	void connectionDetailsNamedForAClusterAreNotTheHomeClustersOwn() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withPropertyValues("operator.auto-startup=false", "operator.clusters.enabled=true",
					"operator.clusters.connection-details.east=eastDetails")
			.withBean("homeDetails", KubernetesConnectionDetails.class, () -> details("https://127.0.0.1:1001"))
			.withBean("eastDetails", KubernetesConnectionDetails.class, () -> details("https://127.0.0.1:1002"))
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(Fleet.class);
				assertThat(context.getBean(ApiClient.class).getBasePath()).isEqualTo("https://127.0.0.1:1001");
			});
	}

	@Test
	void amongSeveralConnectionDetailsLeftThePrimaryOneIsTheHomeClusters() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withPropertyValues("operator.auto-startup=false", "operator.clusters.enabled=true",
					"operator.clusters.connection-details.east=eastDetails")
			.withBean("otherDetails", KubernetesConnectionDetails.class, () -> details("https://127.0.0.1:1003"))
			.withBean("homeDetails", KubernetesConnectionDetails.class, () -> details("https://127.0.0.1:1001"),
					(definition) -> definition.setPrimary(true))
			.withBean("eastDetails", KubernetesConnectionDetails.class, () -> details("https://127.0.0.1:1002"))
			.run((context) -> assertThat(context.getBean(ApiClient.class).getBasePath())
				.isEqualTo("https://127.0.0.1:1001"));
	}

	@Test
	void aPrimaryMemberIsNeverTheHomeClustersAndSeveralLeftWithoutOneFailNamingThem() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withPropertyValues("operator.auto-startup=false", "operator.clusters.enabled=true",
					"operator.clusters.connection-details.east=eastDetails")
			.withBean("oneDetails", KubernetesConnectionDetails.class, () -> details("https://127.0.0.1:1001"))
			.withBean("twoDetails", KubernetesConnectionDetails.class, () -> details("https://127.0.0.1:1003"))
			.withBean("eastDetails", KubernetesConnectionDetails.class, () -> details("https://127.0.0.1:1002"),
					(definition) -> definition.setPrimary(true))
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessage("Several KubernetesConnectionDetails beans could reach the home cluster: oneDetails, "
						+ "twoDetails. Mark the home cluster's @Primary, or name the others in "
						+ "operator.clusters.connection-details.<cluster>"));
	}

	@Test
	void connectionDetailsOfAClusterThatAreNoBeanFailNamingTheProperty() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withPropertyValues("operator.auto-startup=false", "operator.clusters.enabled=true",
					"operator.clusters.connection-details.east=missing")
			.withBean("homeDetails", KubernetesConnectionDetails.class, () -> details("https://127.0.0.1:1001"))
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidOperatorPropertyException.class)
				.hasMessage("operator.clusters.connection-details.east names no KubernetesConnectionDetails bean: "
						+ "there is none named missing"));
	}

	private static KubernetesConnectionDetails details(String server) {
		return KubernetesConnectionDetails.ofKubeconfig("""
				apiVersion: v1
				kind: Config
				clusters: [{name: c, cluster: {server: "%s"}}]
				users: [{name: u, user: {token: t}}]
				contexts: [{name: x, context: {cluster: c, user: u}}]
				current-context: x
				""".formatted(server));
	}

	@Test
	void withShardingTheFleetSharesItsClustersOverTheRingOnEveryReplica() {
		this.contextRunner.withUserConfiguration(Provider.class, FleetBean.class)
			.withPropertyValues("operator.clusters.enabled=true", "operator.sharding.enabled=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Fleet fleet = context.getBean(Fleet.class);
				assertThat(fleet.ring()).contains(context.getBean(ShardRing.class));
				assertThat(fleet.needsLeaderElection()).isFalse();
			});
	}

	@Test
	void withoutShardingTheFleetRunsOnTheLeader() {
		this.contextRunner.withUserConfiguration(Provider.class)
			.withPropertyValues("operator.clusters.enabled=true")
			.run((context) -> {
				Fleet fleet = context.getBean(Fleet.class);
				assertThat(fleet.ring()).isEmpty();
				assertThat(fleet.needsLeaderElection()).isTrue();
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Provider {

		@Bean
		ClusterProvider clusterProvider() {
			return (clusters, stop) -> stop.await();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FleetBean {

		@Bean
		CopyReconciler copyReconciler() {
			return new CopyReconciler();
		}

	}

	@Reconciles(V1ConfigMap.class)
	@RbacRule(verbs = { "create", "update" }, reason = "copies the home ConfigMaps")
	static class CopyReconciler implements FleetReconciler {

		@Watches(value = V1ConfigMap.class, home = true)
		List<Request> desired(V1ConfigMap desired) {
			return List.of(Request.of("fleet", desired.getMetadata().getName()));
		}

		@Override
		public Result reconcile(Cluster cluster, Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class HomeWatchOfAPlainReconciler {

		@Bean
		PlainReconciler plainReconciler() {
			return new PlainReconciler();
		}

	}

	@Reconciles(V1ConfigMap.class)
	static class PlainReconciler implements io.kubeboot.operator.reconcile.Reconciler {

		@Watches(value = V1Secret.class, home = true)
		List<Request> secret(V1Secret secret) {
			return List.of();
		}

		@Override
		public Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FinalizingFleetBean {

		@Bean
		FinalizingReconciler finalizingReconciler() {
			return new FinalizingReconciler();
		}

	}

	@Reconciles(value = V1ConfigMap.class, finalizer = "example.com/cleanup")
	static class FinalizingReconciler implements FleetReconciler {

		@Override
		public Result reconcile(Cluster cluster, Request request) {
			return Result.done();
		}

	}

}
