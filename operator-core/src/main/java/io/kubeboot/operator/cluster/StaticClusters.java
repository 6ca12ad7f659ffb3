package io.kubeboot.operator.cluster;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import io.kubeboot.operator.manager.StopSignal;
import io.kubernetes.client.openapi.ApiClient;

/**
 * A fixed list of clusters, engaged when the fleet starts and disengaged when it stops:
 * each from a client, or from a kubeconfig file read as the fleet starts (a file that
 * cannot be read or used is refused, naming it, and the others are engaged).
 */
public final class StaticClusters implements ClusterProvider {

	private final Map<String, Supplier<ApiClient>> clusters;

	private StaticClusters(Map<String, Supplier<ApiClient>> clusters) {
		this.clusters = clusters;
	}

	/**
	 * Returns a provider of clusters given by their clients.
	 * @param clients the client of each cluster, by its name
	 * @return the provider
	 */
	public static StaticClusters of(Map<String, ApiClient> clients) {
		Map<String, Supplier<ApiClient>> clusters = new LinkedHashMap<>();
		clients.forEach((name, client) -> {
			Objects.requireNonNull(client, () -> "the client of cluster " + name + " must not be null");
			clusters.put(name, () -> client);
		});
		return new StaticClusters(clusters);
	}

	/**
	 * Returns a provider of clusters given by kubeconfig files, each used with its
	 * current context.
	 * @param kubeconfigs the kubeconfig file of each cluster, by its name
	 * @return the provider
	 */
	public static StaticClusters fromKubeconfigs(Map<String, Path> kubeconfigs) {
		Map<String, Supplier<ApiClient>> clusters = new LinkedHashMap<>();
		kubeconfigs.forEach((name, file) -> {
			Objects.requireNonNull(file, () -> "the kubeconfig of cluster " + name + " must not be null");
			clusters.put(name, () -> Kubeconfigs.fromFile(file));
		});
		return new StaticClusters(clusters);
	}

	/**
	 * Returns a provider of clusters given by kubeconfigs, each used with its current
	 * context, such as those of the application's own connection details. Each is read
	 * when the fleet starts; one that cannot be used is refused.
	 * @param kubeconfigs the kubeconfig (YAML) of each cluster, by its name
	 * @return the provider
	 */
	public static StaticClusters fromKubeconfigTexts(Map<String, Supplier<String>> kubeconfigs) {
		Map<String, Supplier<ApiClient>> clusters = new LinkedHashMap<>();
		kubeconfigs.forEach((name, kubeconfig) -> {
			Objects.requireNonNull(kubeconfig, () -> "the kubeconfig of cluster " + name + " must not be null");
			clusters.put(name, () -> Kubeconfigs.fromText(kubeconfig.get()));
		});
		return new StaticClusters(clusters);
	}

	@Override
	public void run(Clusters fleet, StopSignal stop) throws InterruptedException {
		this.clusters.forEach((name, client) -> {
			try {
				fleet.engage(name, client.get());
			}
			catch (RuntimeException ex) {
				// an unusable kubeconfig, or the application's code that gives one
				// failing:
				// this cluster is refused, the others are engaged all the same
				fleet.refuse(name, String.valueOf(ex.getMessage()));
			}
		});
		stop.await();
	}

	@Override
	public String toString() {
		return "StaticClusters" + this.clusters.keySet();
	}

}
