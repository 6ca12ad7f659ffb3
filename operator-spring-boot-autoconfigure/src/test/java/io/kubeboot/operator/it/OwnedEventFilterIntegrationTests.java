package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.predicate.LabelsChangedPredicate;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @Reconciles(ownsEventFilters = ...)}: only the changes of owned objects that
 * pass the filters reconcile their owner.
 */
@WithControlPlane
class OwnedEventFilterIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@Test
	void onlyOwnedChangesThatPassTheFiltersReconcileTheOwner(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient admin = controlPlane.adminClient();
		CoreV1Api core = new CoreV1Api(admin);
		String ns = namespace.name();
		V1Secret first = childOf(core, parent(core, ns, "first"), "first-child");
		V1Secret second = childOf(core, parent(core, ns, "second"), "second-child");
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withBean(ApiClient.class, () -> admin)
			.withUserConfiguration(ParentReconcilerConfiguration.class)
			.withPropertyValues("operator.namespace=" + ns)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ParentReconciler reconciler = context.getBean(ParentReconciler.class);
				// the informers' initial adds, queued before the workers start, coalesce
				// into one reconcile of each owner
				await().atMost(WAIT).until(() -> reconciler.count("first") >= 1 && reconciler.count("second") >= 1);
				int firstBefore = reconciler.count("first");
				int secondBefore = reconciler.count("second");

				// a data change of the first child does not pass LabelsChangedPredicate
				first.setStringData(Map.of("password", "changed"));
				core.replaceNamespacedSecret(first.getMetadata().getName(), ns, first).execute();
				// a label change of the second child does, and comes after it on the same
				// informer and, with one worker, in the same queue
				second.getMetadata().setLabels(Map.of("rotated", "true"));
				core.replaceNamespacedSecret(second.getMetadata().getName(), ns, second).execute();
				await().atMost(WAIT).until(() -> reconciler.count("second") > secondBefore);
				assertThat(reconciler.count("first")).isEqualTo(firstBefore);
			});
	}

	private static V1ConfigMap parent(CoreV1Api core, String namespace, String name) throws Exception {
		return core
			.createNamespacedConfigMap(namespace,
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("role", "parent"))))
			.execute();
	}

	private static V1Secret childOf(CoreV1Api core, V1ConfigMap parent, String name) throws Exception {
		V1ObjectMeta metadata = new V1ObjectMeta().name(name)
			.addOwnerReferencesItem(new V1OwnerReference().apiVersion("v1")
				.kind("ConfigMap")
				.name(parent.getMetadata().getName())
				.uid(parent.getMetadata().getUid())
				.controller(true));
		return core
			.createNamespacedSecret(parent.getMetadata().getNamespace(),
					new V1Secret().metadata(metadata).stringData(Map.of("password", "initial")))
			.execute();
	}

	@Configuration(proxyBeanMethods = false)
	static class ParentReconcilerConfiguration {

		@Bean
		ParentReconciler parentReconciler() {
			return new ParentReconciler();
		}

	}

	@Reconciles(value = V1ConfigMap.class, labelSelector = "role=parent", owns = V1Secret.class,
			ownsEventFilters = LabelsChangedPredicate.class, maxConcurrentReconciles = 1)
	static class ParentReconciler {

		private final Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();

		Result reconcile(Request request) {
			this.reconciles.computeIfAbsent(request.name(), (name) -> new AtomicInteger()).incrementAndGet();
			return Result.done();
		}

		int count(String name) {
			AtomicInteger count = this.reconciles.get(name);
			return (count != null) ? count.get() : 0;
		}

	}

}
