package io.kubeboot.operator.autoconfigure;

import java.util.Objects;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * How to reach a Kubernetes API server, Spring Boot's connection details for Kubernetes.
 * <p>
 * When the application context has a bean of this type, the auto-configured
 * {@link io.kubernetes.client.openapi.ApiClient} is built from it instead of from
 * {@code KUBECONFIG}, {@code ~/.kube/config} or the in-cluster service account (an
 * {@code ApiClient} bean of your own still wins over both). Tests get one without code: a
 * {@code @SpringBootTest} annotated with {@code @WithControlPlane}
 * ({@code operator-spring-boot-test}) connects to the local control plane through one. A
 * {@code @ServiceConnection} k3s container of Testcontainers gives one too, with
 * {@code spring-boot-testcontainers} and {@code testcontainers-k3s} on the class path. A
 * bean that {@code operator.clusters.connection-details.<name>} names is a member cluster
 * of the fleet instead, never the home cluster's. For another cluster, declare the bean
 * yourself:
 *
 * <pre class="code">
 * &#64;Bean
 * KubernetesConnectionDetails clusterConnectionDetails() throws IOException {
 *     return KubernetesConnectionDetails.ofKubeconfig(Files.readString(Path.of("/path/to/kubeconfig")));
 * }
 * </pre>
 */
@FunctionalInterface
public interface KubernetesConnectionDetails extends ConnectionDetails {

	/**
	 * Returns a kubeconfig (YAML) whose current context names the API server and the
	 * credentials to use. Certificates and keys should be embedded ({@code *-data}
	 * fields): a relative file path in it has no directory to resolve against. Called
	 * once, when the client is created; for a member cluster of the fleet, each time the
	 * fleet starts (on every leadership gained).
	 * @return the kubeconfig's content
	 */
	String kubeconfig();

	/**
	 * Returns connection details for the given kubeconfig.
	 * @param kubeconfig the kubeconfig's content (YAML)
	 * @return the connection details
	 */
	static KubernetesConnectionDetails ofKubeconfig(String kubeconfig) {
		Objects.requireNonNull(kubeconfig, "kubeconfig");
		return () -> kubeconfig;
	}

}
