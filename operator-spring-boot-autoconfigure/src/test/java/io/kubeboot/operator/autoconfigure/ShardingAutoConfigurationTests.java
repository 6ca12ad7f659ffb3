package io.kubeboot.operator.autoconfigure;

import java.time.Duration;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.endpoint.OperatorEndpoint;
import io.kubeboot.operator.autoconfigure.endpoint.OperatorEndpointAutoConfiguration;
import io.kubeboot.operator.autoconfigure.metrics.OperatorMetricsAutoConfiguration;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.healthz.CheckResult;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code operator.sharding.*}: the ring a replica joins, which controllers are sharded
 * over it, and the mistakes that fail start-up. Nothing here starts the manager; the
 * behaviour against an API server is in {@code ShardingIntegrationTests} and
 * {@code ShardingApplicationIntegrationTests}.
 */
@ExtendWith(OutputCaptureExtension.class)
class ShardingAutoConfigurationTests {

	/**
	 * The rule of a ring's name, as the core words it.
	 */
	private static final String LABEL_VALUE_RULE = "must be a label value: at most 63 letters, digits, '-', '_' or "
			+ "'.', starting and ending with a letter or digit";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withUserConfiguration(Reconcilers.class)
		.withPropertyValues("operator.auto-startup=false");

	@Test
	void withoutShardingNoRingIsJoinedAndNoControllerIsSharded() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(ShardRing.class);
			assertThat(Controller.of(context.getBean(Manager.class)))
				.allSatisfy((controller) -> assertThat(ShardRing.of(controller)).isNull());
		});
	}

	@Test
	void shardingShardsEveryReconcilerOverARingNamedAfterTheApplication() {
		this.contextRunner
			.withPropertyValues("spring.application.name=shop-operator", "operator.sharding.enabled=true",
					"operator.leader-election.namespace=operators", "operator.sharding.identity=pod-0")
			.run((context) -> {
				ShardRing ring = context.getBean(ShardRing.class);
				ShardingConfig config = ring.config();
				assertThat(config.ringName()).isEqualTo("shop-operator");
				assertThat(config.namespace()).as("from leader election").isEqualTo("operators");
				assertThat(config.identity()).isEqualTo("pod-0");
				assertThat(config.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
				assertThat(config.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
				assertThat(config.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
				assertThat(config.virtualNodes()).isEqualTo(100);
				Manager manager = context.getBean(Manager.class);
				assertThat(Controller.of(manager)).hasSize(2)
					.allSatisfy((controller) -> assertThat(ShardRing.of(controller)).isSameAs(ring));
				assertThat(manager.runnableNamesExcept(Controller.class)).contains("sharding-shop-operator");
				assertThat(manager.requiredPermissions()).anySatisfy((Permission permission) -> {
					assertThat(permission.resource()).isEqualTo("leases");
					assertThat(permission.verbs()).contains("delete");
					assertThat(permission.role()).isEqualTo("sharding");
				});
			});
	}

	@Test
	void theGeneratedIdentityIsTheHostNameAndARandomPartDistinctPerApplication() {
		this.contextRunner.withPropertyValues("operator.sharding.enabled=true").run((first) -> {
			this.contextRunner.withPropertyValues("operator.sharding.enabled=true").run((second) -> {
				String one = first.getBean(ShardRing.class).config().identity();
				String two = second.getBean(ShardRing.class).config().identity();
				assertThat(one).contains("_").isNotEqualTo(two);
				assertThat(first.getBean(ShardRing.class).config().ringName()).isEqualTo("operator");
			});
		});
	}

	@Test
	void propertiesSetEveryRingSetting() {
		this.contextRunner
			.withPropertyValues("operator.sharding.enabled=true", "operator.sharding.ring=buckets",
					"operator.sharding.namespace=shards", "operator.sharding.identity=pod-1",
					"operator.sharding.lease-duration=30s", "operator.sharding.renew-deadline=20s",
					"operator.sharding.retry-period=4s", "operator.sharding.virtual-nodes=200")
			.run((context) -> {
				ShardingConfig config = context.getBean(ShardRing.class).config();
				assertThat(config).isEqualTo(new ShardingConfig("shards", "buckets", "pod-1", Duration.ofSeconds(30),
						Duration.ofSeconds(20), Duration.ofSeconds(4), 200));
			});
	}

	@Test
	void onlyTheNamedControllersAreShardedAndTheOthersWarnWithoutLeaderElection(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("operator.sharding.enabled=true", "operator.sharding.controllers=configmap")
			.run((context) -> {
				Manager manager = context.getBean(Manager.class);
				assertThat(ShardRing.of(controller(manager, "configmap"))).isSameAs(context.getBean(ShardRing.class));
				assertThat(ShardRing.of(controller(manager, "secret"))).isNull();
				assertThat(controller(manager, "configmap").needsLeaderElection()).isFalse();
				assertThat(controller(manager, "secret").needsLeaderElection()).isTrue();
				assertThat(output).contains("Controllers not sharded run on every replica, as leader election is off: "
						+ "controllers=[secret] (set operator.leader-election.enabled=true to run them on one "
						+ "replica at a time)");
			});
	}

	@Test
	void aNameOfNoControllerFailsStartUpNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("operator.sharding.enabled=true", "operator.sharding.controllers=configmap,secrets")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(InvalidOperatorPropertyException.class)
					.hasMessage("operator.sharding.controllers[1] names no controller of a @Reconciles bean; the "
							+ "controllers are: configmap, secret");
			});
	}

	@Test
	void theLabelModeLabelsTheObjectsFromTheLeader() {
		this.contextRunner
			.withPropertyValues("operator.sharding.enabled=true", "operator.sharding.mode=label",
					"operator.leader-election.enabled=true", "operator.leader-election.namespace=operators",
					"operator.sharding.identity=pod-1")
			.run((context) -> {
				ShardRing ring = context.getBean(ShardRing.class);
				assertThat(ring.config().mode()).isEqualTo(ShardingConfig.Mode.LABEL);
				Manager manager = context.getBean(Manager.class);
				assertThat(manager.runnableNamesExcept(Controller.class))
					.contains("sharder-" + ring.config().ringName());
				assertThat(manager.requiredPermissions()).anySatisfy((Permission permission) -> {
					assertThat(permission.verbs()).contains("list", "watch", "patch");
					assertThat(permission.reason()).isEqualTo(
							"the sharder of ring operator labels every ConfigMap with the member that reconciles it");
				});
			});
	}

	@Test
	void theLabelModeWithoutLeaderElectionFailsStartUpNamingTheProperty() {
		this.contextRunner.withPropertyValues("operator.sharding.enabled=true", "operator.sharding.mode=label")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(
						new OperatorPropertiesFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
					.contains("Property: operator.sharding.mode")
					.contains("Reason: needs operator.leader-election.enabled=true: the sharder that labels the "
							+ "objects runs on the leader");
			});
	}

	@Test
	void controllersNamedWhileShardingIsOffFailStartUp() {
		this.contextRunner.withPropertyValues("operator.sharding.controllers=configmap").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(new OperatorPropertiesFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
				.contains("Property: operator.sharding.controllers")
				.contains("Reason: names controllers to shard, but operator.sharding.enabled is false: set it to "
						+ "true, or remove the names");
		});
	}

	@Test
	void invalidSettingsFailStartUpNamingEachProperty() {
		this.contextRunner
			.withPropertyValues("operator.sharding.enabled=true", "operator.sharding.ring=my ring",
					"operator.sharding.renew-deadline=20s", "operator.sharding.virtual-nodes=0",
					"operator.sharding.identity=a,b")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(
						new OperatorPropertiesFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
					.contains("Property: operator.sharding.ring")
					.contains("Reason: " + LABEL_VALUE_RULE)
					.contains("Property: operator.sharding.renew-deadline")
					.contains("Reason: must be less than operator.sharding.lease-duration (15s)")
					.contains("Property: operator.sharding.virtual-nodes")
					.contains("Reason: must be between 1 and 1000")
					.contains("Property: operator.sharding.identity")
					.contains("Reason: must not contain ','");
			});
	}

	@Test
	void aDefaultRingFromAnApplicationNameThatIsNoLabelValueFailsNamingTheRingProperty() {
		this.contextRunner.withPropertyValues("operator.sharding.enabled=true", "spring.application.name=Shop Operator")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidOperatorPropertyException.class)
					.hasMessage("operator.sharding.ring is not set, and its default 'Shop Operator' (from "
							+ "spring.application.name) " + LABEL_VALUE_RULE);
			});
	}

	@Test
	void readinessFailsUntilTheReplicaIsAMember() {
		this.contextRunner
			.withPropertyValues("operator.sharding.enabled=true", "operator.sharding.ring=buckets",
					"operator.sharding.namespace=shards", "operator.sharding.identity=pod-1")
			.run((context) -> {
				Check check = context.getBean(Manager.class)
					.checks()
					.stream()
					.filter((candidate) -> candidate.name().equals("shard-ring-buckets"))
					.findFirst()
					.orElseThrow();
				assertThat(check.probe()).isEqualTo(Check.Probe.READINESS);
				CheckResult outcome = check.run();
				assertThat(outcome.ok()).isFalse();
				assertThat(outcome.reason())
					.isEqualTo("not a member of shard ring buckets: its Lease shards/buckets-pod-1 is not held yet");
			});
	}

	@Test
	void theEndpointAndTheMetricsDescribeTheRing() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(OperatorMetricsAutoConfiguration.class,
					OperatorEndpointAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("management.endpoints.web.exposure.include=operator", "operator.sharding.enabled=true",
					"operator.sharding.ring=buckets", "operator.sharding.namespace=shards",
					"operator.sharding.identity=pod-1", "operator.sharding.controllers=configmap")
			.run((context) -> {
				OperatorEndpoint.ManagerDescriptor described = context.getBean(OperatorEndpoint.class).operator();
				assertThat(described.sharding()).singleElement().satisfies((ring) -> {
					assertThat(ring.ring()).isEqualTo("buckets");
					assertThat(ring.lease()).isEqualTo("shards/buckets-pod-1");
					assertThat(ring.identity()).isEqualTo("pod-1");
					assertThat(ring.member()).isFalse();
					assertThat(ring.members()).isEmpty();
					assertThat(ring.virtualNodes()).isEqualTo(100);
					assertThat(ring.mode()).isEqualTo("filter");
				});
				assertThat(described.controllers()).anySatisfy((controller) -> {
					assertThat(controller.name()).isEqualTo("configmap");
					assertThat(controller.shardRing()).isEqualTo("buckets");
					assertThat(controller.assignedObjects()).isZero();
				});
				assertThat(described.controllers()).anySatisfy((controller) -> {
					assertThat(controller.name()).isEqualTo("secret");
					assertThat(controller.shardRing()).isNull();
				});
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("operator.shard.ring.members").tag("ring", "buckets").gauge().value()).isZero();
				assertThat(registry.get("operator.shard.ring.member").tag("ring", "buckets").gauge().value()).isZero();
				assertThat(registry.get("operator.controller.assigned.objects")
					.tag("controller", "configmap")
					.gauge()
					.value()).isZero();
			});
	}

	private static Controller controller(Manager manager, String name) {
		return Controller.of(manager)
			.stream()
			.filter((controller) -> controller.name().equals(name))
			.findFirst()
			.orElseThrow();
	}

	@Configuration(proxyBeanMethods = false)
	static class Reconcilers {

		@Bean
		ConfigMapReconciler configMapReconciler() {
			return new ConfigMapReconciler();
		}

		@Bean
		SecretReconciler secretReconciler() {
			return new SecretReconciler();
		}

	}

	@Reconciles(V1ConfigMap.class)
	static class ConfigMapReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Reconciles(V1Secret.class)
	static class SecretReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

}
