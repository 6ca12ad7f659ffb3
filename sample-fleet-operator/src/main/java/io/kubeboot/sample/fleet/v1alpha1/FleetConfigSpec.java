package io.kubeboot.sample.fleet.v1alpha1;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every member cluster must hold.
 */
public class FleetConfigSpec {

	private String namespace;

	private Map<String, String> data = new LinkedHashMap<>();

	/**
	 * The namespace of every member the ConfigMap is kept in; the operator creates it
	 * where it is missing.
	 * @return the namespace
	 */
	public String getNamespace() {
		return this.namespace;
	}

	public FleetConfigSpec namespace(String namespace) {
		this.namespace = namespace;
		return this;
	}

	/**
	 * The data of the ConfigMap.
	 * @return the data
	 */
	public Map<String, String> getData() {
		return this.data;
	}

	public FleetConfigSpec data(Map<String, String> data) {
		this.data = data;
		return this;
	}

}
