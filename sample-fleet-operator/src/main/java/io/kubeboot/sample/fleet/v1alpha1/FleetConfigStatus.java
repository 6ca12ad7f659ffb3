package io.kubeboot.sample.fleet.v1alpha1;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the members hold.
 */
public class FleetConfigStatus {

	private Map<String, Long> clusters = new LinkedHashMap<>();

	/**
	 * The generation of this object each member cluster last synced, by cluster name; a
	 * cluster that left the fleet keeps its last entry.
	 * @return the generations
	 */
	public Map<String, Long> getClusters() {
		return this.clusters;
	}

	public FleetConfigStatus clusters(Map<String, Long> clusters) {
		this.clusters = clusters;
		return this;
	}

}
