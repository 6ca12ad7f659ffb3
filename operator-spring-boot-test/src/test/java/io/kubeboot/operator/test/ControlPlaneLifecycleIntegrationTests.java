package io.kubeboot.operator.test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Fault control and shutdown of a dedicated (not the shared) control plane.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ControlPlaneLifecycleIntegrationTests {

	private static ControlPlane controlPlane;

	@BeforeAll
	static void start() {
		controlPlane = ControlPlane.builder().apiServerFlag("--etcd-compaction-interval=5s").start();
	}

	@AfterAll
	static void stop() {
		if (controlPlane != null) {
			controlPlane.close();
		}
	}

	@Test
	@Order(1)
	void usesExtraApiServerFlags() throws Exception {
		assertThat(Files.readString(controlPlane.workDir().resolve("kube-apiserver.log")))
			.contains("--etcd-compaction-interval=5s")
			.doesNotContain("--etcd-compaction-interval=5m");
		assertThat(controlPlane).isNotSameAs(ControlPlaneExtension.controlPlane());
	}

	@Test
	@Order(2)
	void restartKeepsDataAndClientsWorkAgain() throws Exception {
		CoreV1Api api = new CoreV1Api(controlPlane.adminClient());
		api.createNamespacedConfigMap("default",
				new V1ConfigMap().metadata(new V1ObjectMeta().name("survivor")).data(Map.of("k", "v")))
			.execute();
		String url = controlPlane.apiServerUrl().toString();
		controlPlane.restartApiServer();
		assertThat(controlPlane.isApiServerRunning()).isTrue();
		assertThat(controlPlane.apiServerUrl()).hasToString(url);
		assertThat(api.readNamespacedConfigMap("survivor", "default").execute().getData()).containsEntry("k", "v");
	}

	@Test
	@Order(3)
	void killedApiServerRefusesConnectionsUntilStarted() throws Exception {
		CoreV1Api api = new CoreV1Api(controlPlane.adminClient());
		controlPlane.killApiServer();
		assertThat(controlPlane.isApiServerRunning()).isFalse();
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> api.listNamespace().execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isZero());
		controlPlane.startApiServer();
		assertThat(controlPlane.isApiServerRunning()).isTrue();
		assertThat(api.readNamespacedConfigMap("survivor", "default").execute().getData()).containsEntry("k", "v");
	}

	@Test
	@Order(4)
	void stoppedApiServerCanBeStartedAgain() throws Exception {
		controlPlane.stopApiServer();
		assertThat(controlPlane.isApiServerRunning()).isFalse();
		controlPlane.stopApiServer();
		controlPlane.startApiServer();
		assertThat(new CoreV1Api(controlPlane.adminClient()).readNamespace("default").execute()).isNotNull();
	}

	@Test
	@Order(5)
	void closeStopsProcessesAndDeletesWorkDir() {
		Path workDir = controlPlane.workDir();
		controlPlane.close();
		controlPlane.close();
		assertThat(controlPlane.isClosed()).isTrue();
		assertThat(controlPlane.isApiServerRunning()).isFalse();
		assertThat(workDir).doesNotExist();
		assertThat(ProcessHandle.current()
			.descendants()
			.filter(ProcessHandle::isAlive)
			.map(ProcessHandle::info)
			.filter((info) -> info.commandLine().orElse("").contains(workDir.toString()))).isEmpty();
	}

}
