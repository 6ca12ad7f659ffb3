package io.kubeboot.operator.autoconfigure.test;

import java.util.Map;

import io.kubeboot.operator.autoconfigure.KubernetesConnectionDetails;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.boot.testcontainers.service.connection.TestConnectionSources;
import org.testcontainers.k3s.K3sContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * A {@code @ServiceConnection} {@link K3sContainer} becomes
 * {@link KubernetesConnectionDetails} with the container's kubeconfig, through Spring
 * Boot's discovery of connection details factories (the container is never started: there
 * may be no Docker; {@code K3sIntegrationTests} runs a real one where there is).
 */
class K3sContainerConnectionDetailsFactoryTests {

	private static final String KUBECONFIG = """
			apiVersion: v1
			kind: Config
			clusters:
			- name: default
			  cluster:
			    server: https://127.0.0.1:32771
			contexts:
			- name: default
			  context: {cluster: default, user: default}
			current-context: default
			users:
			- name: default
			  user: {token: secret}
			""";

	/**
	 * A started k3s container, as far as the factory can tell: creating one needs Docker.
	 */
	@ServiceConnection
	static K3sContainer k3s = mock(K3sContainer.class);

	@Test
	void k3sContainerGivesTheApplicationItsKubeconfig() throws Exception {
		given(k3s.getDockerImageName()).willReturn("rancher/k3s:v1.31.4-k3s1");
		given(k3s.getKubeConfigYaml()).willReturn(KUBECONFIG);
		Map<Class<?>, ConnectionDetails> details = new ConnectionDetailsFactories(getClass().getClassLoader())
			.getConnectionDetails(TestConnectionSources.of(getClass().getDeclaredField("k3s"), K3sContainer.class, k3s),
					true);
		assertThat(details).containsKey(KubernetesConnectionDetails.class);
		KubernetesConnectionDetails kubernetes = (KubernetesConnectionDetails) details
			.get(KubernetesConnectionDetails.class);
		// as Spring does when it creates the bean
		((InitializingBean) kubernetes).afterPropertiesSet();
		assertThat(kubernetes.kubeconfig()).isEqualTo(KUBECONFIG);
	}

}
