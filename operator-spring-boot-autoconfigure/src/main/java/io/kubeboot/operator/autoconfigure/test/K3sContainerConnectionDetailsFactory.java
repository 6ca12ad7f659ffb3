package io.kubeboot.operator.autoconfigure.test;

import io.kubeboot.operator.autoconfigure.KubernetesConnectionDetails;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.testcontainers.k3s.K3sContainer;

/**
 * {@link KubernetesConnectionDetails} for a {@code @ServiceConnection}
 * {@link K3sContainer}: the application's client reaches the k3s cluster in the container
 * with the kubeconfig the container wrote (its server at the container's mapped port, its
 * admin credentials embedded). Loaded by Spring Boot's Testcontainers support where it
 * and Testcontainers' k3s module are on the class path.
 */
class K3sContainerConnectionDetailsFactory
		extends ContainerConnectionDetailsFactory<K3sContainer, KubernetesConnectionDetails> {

	K3sContainerConnectionDetailsFactory() {
		super(ANY_CONNECTION_NAME, "org.testcontainers.k3s.K3sContainer");
	}

	@Override
	protected KubernetesConnectionDetails getContainerConnectionDetails(
			ContainerConnectionSource<K3sContainer> source) {
		return new K3sContainerConnectionDetails(source);
	}

	/**
	 * The kubeconfig of a started k3s container.
	 */
	static final class K3sContainerConnectionDetails extends ContainerConnectionDetails<K3sContainer>
			implements KubernetesConnectionDetails {

		K3sContainerConnectionDetails(ContainerConnectionSource<K3sContainer> source) {
			super(source);
		}

		@Override
		public String kubeconfig() {
			return getContainer().getKubeConfigYaml();
		}

	}

}
