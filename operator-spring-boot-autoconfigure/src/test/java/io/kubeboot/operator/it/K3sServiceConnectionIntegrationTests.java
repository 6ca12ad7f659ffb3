package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Import;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code @SpringBootTest} whose operator reaches a k3s cluster in a container through
 * {@code @ServiceConnection}, with no code, where Docker is available; skipped by
 * Testcontainers where it is not (such as this project's CI, where
 * {@code K3sContainerConnectionDetailsFactoryTests} checks the connection details without
 * a container).
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(classes = K3sServiceConnectionIntegrationTests.Application.class, webEnvironment = WebEnvironment.NONE,
		properties = "operator.namespace=default")
class K3sServiceConnectionIntegrationTests {

	@Container
	@ServiceConnection
	static final K3sContainer k3s = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.31.4-k3s1"));

	@Autowired
	ApiClient client;

	@Autowired
	RecordingReconciler reconciler;

	@Test
	void operatorReconcilesInTheContainersCluster() throws Exception {
		assertThat(this.client.getBasePath()).endsWith(":" + k3s.getMappedPort(K3sContainer.KUBE_SECURE_PORT));
		new CoreV1Api(this.client)
			.createNamespacedConfigMap("default", new V1ConfigMap().metadata(new V1ObjectMeta().name("hello")))
			.execute();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.reconciler.seen.contains(Request.of("default", "hello")));
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@ImportAutoConfiguration(OperatorAutoConfiguration.class)
	@Import(RecordingReconciler.class)
	static class Application {

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
