package io.kubeboot.operator.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.kubeboot.operator.manager.StopSignal;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link StaticClusters} reports to the fleet, recorded by a sink in place of one.
 */
class StaticClustersTests {

	private static final String KUBECONFIG = """
			apiVersion: v1
			kind: Config
			clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]
			users: [{name: u, user: {token: t}}]
			contexts: [{name: x, context: {cluster: c, user: u}}]
			current-context: x
			""";

	@Test
	void aKubeconfigWhoseSupplierFailsIsRefusedAndTheNextIsEngaged() throws InterruptedException {
		Map<String, Supplier<String>> kubeconfigs = new LinkedHashMap<>();
		kubeconfigs.put("broken", () -> {
			throw new IllegalStateException("the container is not started");
		});
		kubeconfigs.put("invalid", () -> "not: [a kubeconfig");
		kubeconfigs.put("east", () -> KUBECONFIG);
		Recorded recorded = new Recorded();
		StopSignal stop = new StopSignal();
		stop.fire();
		StaticClusters.fromKubeconfigTexts(kubeconfigs).run(recorded, stop);
		assertThat(recorded.reports).hasSize(3);
		assertThat(recorded.reports.get(0)).isEqualTo("refuse broken: the container is not started");
		assertThat(recorded.reports.get(1)).startsWith("refuse invalid: ");
		assertThat(recorded.reports.get(2)).isEqualTo("engage east https://127.0.0.1:6443");
	}

	private static final class Recorded implements ClusterProvider.Clusters {

		private final List<String> reports = new ArrayList<>();

		@Override
		public void engage(String name, ApiClient client) {
			this.reports.add("engage " + name + " " + client.getBasePath());
		}

		@Override
		public void disengage(String name) {
			this.reports.add("disengage " + name);
		}

		@Override
		public void refuse(String name, String reason) {
			this.reports.add("refuse " + name + ": " + reason);
		}

	}

}
