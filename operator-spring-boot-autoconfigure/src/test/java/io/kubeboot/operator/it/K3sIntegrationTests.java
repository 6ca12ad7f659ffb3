package io.kubeboot.operator.it;

import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.KubernetesConnectionDetails;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Config;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The manager against a full k3s cluster in a container, where Docker is available. On
 * machines without Docker (such as this project's CI) the class is skipped by
 * Testcontainers; the same behaviour is covered there against the local control plane.
 */
@Testcontainers(disabledWithoutDocker = true)
class K3sIntegrationTests {

	@Container
	static final K3sContainer k3s = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.31.4-k3s1"));

	@Test
	void configMapReachesTheReconciler() throws Exception {
		ApiClient client = Config.fromConfig(new StringReader(k3s.getKubeConfigYaml()));
		CoreV1Api core = new CoreV1Api(client);
		core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("k3s-test"))).execute();
		Manager manager = Manager.builder(client).namespace("k3s-test").build();
		List<Request> seen = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> {
			seen.add(request);
			return Result.done();
		});
		manager.start();
		try {
			core.createNamespacedConfigMap("k3s-test", new V1ConfigMap().metadata(new V1ObjectMeta().name("hello")))
				.execute();
			await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains(Request.of("k3s-test", "hello")));
		}
		finally {
			manager.stop();
		}
	}

	@Test
	void applicationConnectsThroughConnectionDetails() throws Exception {
		ApiClient admin = Config.fromConfig(new StringReader(k3s.getKubeConfigYaml()));
		CoreV1Api core = new CoreV1Api(admin);
		core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("k3s-spring"))).execute();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withBean(KubernetesConnectionDetails.class,
					() -> KubernetesConnectionDetails.ofKubeconfig(k3s.getKubeConfigYaml()))
			.withBean(RecordingReconciler.class)
			.withPropertyValues("operator.namespace=k3s-spring")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				core.createNamespacedConfigMap("k3s-spring",
						new V1ConfigMap().metadata(new V1ObjectMeta().name("hello")))
					.execute();
				RecordingReconciler reconciler = context.getBean(RecordingReconciler.class);
				await().atMost(Duration.ofSeconds(30))
					.until(() -> reconciler.seen.contains(Request.of("k3s-spring", "hello")));
			});
	}

	@Reconciles(V1ConfigMap.class)
	static class RecordingReconciler {

		final List<Request> seen = new CopyOnWriteArrayList<>();

		Result reconcile(Request request) {
			this.seen.add(request);
			return Result.done();
		}

	}

}
