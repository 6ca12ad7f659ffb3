package io.kubeboot.operator.cluster;

import io.kubeboot.operator.manager.StopSignal;
import io.kubernetes.client.openapi.ApiClient;

/**
 * Names the clusters of a {@link Fleet} while it runs, the counterpart of
 * multicluster-runtime's {@code multicluster.Provider}: {@link StaticClusters} for a
 * fixed list, {@link KubeconfigSecrets} for kubeconfig Secrets in the home cluster.
 * <p>
 * The fleet runs each provider on a thread of its own while it runs (on the leader, with
 * leader election), and disengages every cluster of a provider when it stops.
 */
@FunctionalInterface
public interface ClusterProvider {

	/**
	 * Engages and disengages clusters until the stop signal fires.
	 * @param clusters where to report clusters; thread-safe
	 * @param stop fires when the fleet stops
	 * @throws Exception if the provider failed; it is logged, its clusters stay engaged
	 * and the provider is not run again until the fleet starts again
	 */
	void run(Clusters clusters, StopSignal stop) throws Exception;

	/**
	 * What a provider reports to its fleet. A cluster's name is the provider's: a name
	 * another provider of the same fleet engaged is refused.
	 */
	interface Clusters {

		/**
		 * Engages a cluster, or engages it again with a new client: its caches start and
		 * every fleet controller runs in it once they synced. A cluster that cannot be
		 * reached is retried until it is disengaged, and never delays the others.
		 * @param name the cluster's name, as requests and logs carry it
		 * @param client a client of its API server
		 */
		void engage(String name, ApiClient client);

		/**
		 * Disengages a cluster: its controllers stop (reconciles in flight finish), its
		 * queued requests are dropped and its caches stop. Does nothing for a name not
		 * engaged.
		 * @param name the cluster's name
		 */
		void disengage(String name);

		/**
		 * Reports a cluster this provider cannot engage (an invalid kubeconfig, say), so
		 * that the fleet's status names it; an engaged cluster of that name is
		 * disengaged.
		 * @param name the cluster's name
		 * @param reason why, naming what is wrong
		 */
		void refuse(String name, String reason);

	}

}
