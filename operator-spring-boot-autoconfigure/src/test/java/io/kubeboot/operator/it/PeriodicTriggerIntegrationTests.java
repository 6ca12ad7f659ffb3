package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.annotation.PeriodicTrigger;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.controller.Enqueuer;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.source.IntervalTrigger;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Periodic triggers and external event sources against a real kube-apiserver.
 */
@WithControlPlane
class PeriodicTriggerIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void slowReconcilerDoesNotMakeTicksPileUp(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = this.resources.manager(Manager.builder(admin).namespace(namespace.name()).build());
		AtomicInteger reconciles = new AtomicInteger();
		AtomicInteger ticks = new AtomicInteger();
		var controller = Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			reconciles.incrementAndGet();
			Thread.sleep(1000);
			return Result.done();
		});
		controller.watch(new IntervalTrigger("fast-trigger", Duration.ofMillis(20), Duration.ZERO, 0, () -> {
			ticks.incrementAndGet();
			return controller.cachedRequests();
		}));
		new CoreV1Api(admin)
			.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("slow")))
			.execute();
		manager.start();
		await().atMost(WAIT).until(() -> ticks.get() >= 100);
		int reconcilesSoFar = reconciles.get();
		// 100 ticks of 20ms took at least 2s: one reconcile at a time, each re-run at
		// most once
		assertThat(reconcilesSoFar).isBetween(1, (int) Math.ceil(ticks.get() * 20 / 1000.0) + 2);
	}

	@Test
	void leaderOnlyTriggerNeverFiresOnAStandby(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		new CoordinationV1Api(controlPlane.adminClient())
			.createNamespacedLease(namespace.name(),
					new V1Lease().metadata(new V1ObjectMeta().name("lease"))
						.spec(new V1LeaseSpec().holderIdentity("the-leader").leaseDurationSeconds(3600)))
			.execute();
		Manager standby = this.resources.manager(Manager.builder(controlPlane.adminClient())
			.namespace(namespace.name())
			.leaderElection(new LeaderElectionConfig(namespace.name(), "lease", "standby", Duration.ofSeconds(3),
					Duration.ofSeconds(2), Duration.ofMillis(500), true, LostLeasePolicy.EXIT))
			.build());
		AtomicInteger ticks = new AtomicInteger();
		AtomicInteger everywhereTicks = new AtomicInteger();
		Controller controller = Controller.builder(standby, V1ConfigMap.class)
			.watches(new IntervalTrigger("leader-trigger", Duration.ofMillis(20), Duration.ZERO, 0, () -> {
				ticks.incrementAndGet();
				return List.of();
			}))
			.complete((request) -> Result.done());
		standby.add("everywhere-trigger", controller
			.onEveryReplica(new IntervalTrigger("everywhere-trigger", Duration.ofMillis(20), Duration.ZERO, 0, () -> {
				everywhereTicks.incrementAndGet();
				return List.of();
			})));
		standby.start();
		await().atMost(WAIT).until(() -> "the-leader".equals(standby.leaderElection().observedLeader()));
		await().atMost(WAIT).until(() -> everywhereTicks.get() >= 20); // the opt-out
																		// runs, a second
																		// or so
		assertThat(ticks).hasValue(0);
	}

	@Test
	void periodicTriggerOnAReconcilerReconcilesEveryObjectAgainAndAgain(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		core.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("a")))
			.execute();
		core.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("b")))
			.execute();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::adminClient)
			.withUserConfiguration(TriggeredConfiguration.class)
			.withPropertyValues("operator.namespace=" + namespace, "probe.interval=150ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(Controller.named(context.getBean(Manager.class), "configmap").sources())
					.map(Object::toString)
					.anyMatch((source) -> source.startsWith("IntervalTrigger[trigger-triggeredReconciler,"))
					.anyMatch((source) -> source.startsWith("IntervalTrigger[trigger-externalBuckets-bucketsToCheck,"));
				TriggeredReconciler reconciler = context.getBean(TriggeredReconciler.class);
				await().atMost(WAIT)
					.until(() -> reconciler.count("a") >= 4 && reconciler.count("b") >= 4
							&& reconciler.count("from-method") >= 3);
				// an external event, as an HTTP handler would send it
				context.getBean(Enqueuer.class)
					.enqueue(V1ConfigMap.class, Request.of(namespace.name(), "from-webhook"));
				await().atMost(WAIT).until(() -> reconciler.count("from-webhook") >= 1);
			});
	}

	@Test
	void periodicTriggerWithAnInvalidIntervalFailsStartupNamingTheBean(ControlPlane controlPlane) {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::adminClient)
			.withUserConfiguration(TriggeredConfiguration.class)
			.withPropertyValues("operator.auto-startup=false", "probe.interval=often")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining(
						"@PeriodicTrigger on bean 'triggeredReconciler' is invalid: interval 'often' is not a duration"));
	}

	@Test
	void periodicTriggerMethodForAnUnknownControllerFailsStartupNamingIt(ControlPlane controlPlane) {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::adminClient)
			.withUserConfiguration(UnknownControllerConfiguration.class)
			.withPropertyValues("operator.auto-startup=false")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("@PeriodicTrigger on bean 'orphan' method requests() is invalid: "
						+ "No controller named 'buckets'; the controllers are []"));
	}

	@Configuration(proxyBeanMethods = false)
	static class TriggeredConfiguration {

		@Bean
		TriggeredReconciler triggeredReconciler() {
			return new TriggeredReconciler();
		}

		@Bean
		ExternalBuckets externalBuckets() {
			return new ExternalBuckets();
		}

	}

	@Reconciles(V1ConfigMap.class)
	@PeriodicTrigger(interval = "${probe.interval}", initialDelay = "0s")
	static class TriggeredReconciler {

		final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

		Result reconcile(Request request) {
			this.counts.computeIfAbsent(request.name(), (name) -> new AtomicInteger()).incrementAndGet();
			return Result.done();
		}

		int count(String name) {
			AtomicInteger count = this.counts.get(name);
			return (count != null) ? count.get() : 0;
		}

	}

	/** Not a reconciler: a list of things outside the cluster to check. */
	static class ExternalBuckets {

		@PeriodicTrigger(interval = "200ms", kind = V1ConfigMap.class)
		List<Request> bucketsToCheck() {
			return List.of(Request.of("anywhere", "from-method"));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UnknownControllerConfiguration {

		@Bean
		Orphan orphan() {
			return new Orphan();
		}

	}

	static class Orphan {

		@PeriodicTrigger(interval = "1s", controller = "buckets")
		Request requests() {
			return Request.of("ns", "x");
		}

	}

}
