package io.kubeboot.sample.fleet.v1alpha1;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.model.PrinterColumn;

/**
 * A ConfigMap that every member cluster of the fleet must hold.
 * <p>
 * The cluster-scoped custom resource {@code fleetconfigs.fleet.kubeboot.io} of the hub
 * (the operator's home cluster): in every member cluster, the operator keeps the
 * namespace {@code spec.namespace} and, in it, a ConfigMap of this object's name holding
 * {@code spec.data}, and records in {@code status.clusters} the generation each cluster
 * last synced.
 */
@KubernetesKind(group = FleetConfig.GROUP, version = FleetConfig.VERSION, kind = FleetConfig.KIND,
		scope = KubernetesKind.Scope.CLUSTER)
@PrinterColumn(name = "Namespace", jsonPath = ".spec.namespace")
@PrinterColumn(name = "Age", type = PrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
public class FleetConfig extends CustomResource<FleetConfigSpec, FleetConfigStatus> {

	/**
	 * The API group.
	 */
	public static final String GROUP = "fleet.kubeboot.io";

	/**
	 * The API version within the group.
	 */
	public static final String VERSION = "v1alpha1";

	/**
	 * The kind.
	 */
	public static final String KIND = "FleetConfig";

}
