package io.kubeboot.operator.autoconfigure;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The clusters of the operator's fleet, besides its home cluster: where fleet controllers
 * ({@code @Reconciles} beans that implement {@code FleetReconciler}) run.
 */
@ConfigurationProperties(prefix = "operator.clusters", ignoreUnknownFields = false)
public class OperatorClustersProperties {

	/**
	 * Whether to create the Fleet bean, which engages the clusters named here (and by any
	 * ClusterProvider bean) and runs the fleet controllers in each: on the leader, or,
	 * with operator.sharding.enabled, on every replica, each engaging the clusters the
	 * shard ring gives it.
	 */
	private boolean enabled = false;

	/**
	 * Clusters given by kubeconfig files, by name: each file's current context is used,
	 * and may use everything a kubeconfig can (exec plugins, files relative to it).
	 */
	private Map<String, Path> kubeconfigs = new LinkedHashMap<>();

	/**
	 * Clusters given by KubernetesConnectionDetails beans, by name: the name of the bean
	 * whose kubeconfig reaches each (its current context is used, and may use everything
	 * a kubeconfig can). A bean named here is never the home cluster's.
	 */
	private Map<String, String> connectionDetails = new LinkedHashMap<>();

	private final Secrets secrets = new Secrets();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Map<String, Path> getKubeconfigs() {
		return this.kubeconfigs;
	}

	public void setKubeconfigs(Map<String, Path> kubeconfigs) {
		this.kubeconfigs = kubeconfigs;
	}

	public Map<String, String> getConnectionDetails() {
		return this.connectionDetails;
	}

	public void setConnectionDetails(Map<String, String> connectionDetails) {
		this.connectionDetails = connectionDetails;
	}

	public Secrets getSecrets() {
		return this.secrets;
	}

	/**
	 * Clusters given by kubeconfig Secrets of the home cluster, engaged and disengaged as
	 * the Secrets come and go.
	 */
	public static class Secrets {

		/**
		 * Namespace of the home cluster the kubeconfig Secrets are in; none: no cluster
		 * comes from Secrets.
		 */
		private @Nullable String namespace;

		/**
		 * Label selector of the kubeconfig Secrets.
		 */
		private String labelSelector = "cluster.kubeboot.io/kubeconfig=true";

		/**
		 * Key of a Secret's data that holds the kubeconfig. It may hold only data (a
		 * token, certificates and keys inline): one that runs a command or reads a file
		 * is refused.
		 */
		private String key = "kubeconfig";

		public @Nullable String getNamespace() {
			return this.namespace;
		}

		public void setNamespace(@Nullable String namespace) {
			this.namespace = namespace;
		}

		public String getLabelSelector() {
			return this.labelSelector;
		}

		public void setLabelSelector(String labelSelector) {
			this.labelSelector = labelSelector;
		}

		public String getKey() {
			return this.key;
		}

		public void setKey(String key) {
			this.key = key;
		}

	}

}
