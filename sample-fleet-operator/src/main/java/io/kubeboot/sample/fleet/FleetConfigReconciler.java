package io.kubeboot.sample.fleet;

import java.util.Map;
import java.util.Optional;

import io.kubeboot.operator.annotation.RbacRule;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.cluster.Cluster;
import io.kubeboot.operator.cluster.FleetReconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.sample.fleet.v1alpha1.FleetConfig;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps, in every member cluster, the ConfigMap each {@link FleetConfig} of the hub
 * describes. A request names the ConfigMap in a member: the FleetConfig's namespace and
 * name. It runs for every member cluster; a change of a FleetConfig in the hub queues its
 * request in each, and a change of one of its ConfigMaps in a member (an edit, a
 * deletion) queues it in that member.
 */
@Reconciles(value = V1ConfigMap.class, name = "fleetconfig",
		labelSelector = FleetConfigReconciler.MANAGED_BY + "=" + FleetConfigReconciler.OPERATOR, eventFilters = {})
@RbacRule(verbs = { "create", "update", "delete" }, reason = "keeps the ConfigMaps the hub's FleetConfigs describe")
@RbacRule(kind = V1ConfigMap.class, verbs = "get", reason = "reads a ConfigMap it may delete from the API server")
@RbacRule(kind = V1Namespace.class, verbs = { "get", "create" },
		reason = "creates the namespace of a FleetConfig where a member lacks it")
class FleetConfigReconciler implements FleetReconciler {

	static final String MANAGED_BY = "app.kubernetes.io/managed-by";

	static final String OPERATOR = "sample-fleet-operator";

	private static final Logger logger = LoggerFactory.getLogger(FleetConfigReconciler.class);

	/** The hub's client: reads FleetConfigs from its cache, writes their status. */
	private final Client hub;

	FleetConfigReconciler(Client hub) {
		this.hub = hub;
	}

	/**
	 * The ConfigMap a FleetConfig of the hub describes, in every member.
	 */
	@Watches(value = FleetConfig.class, home = true)
	Request configMapOf(FleetConfig config) {
		return (config.getSpec() != null && config.getSpec().getNamespace() != null)
				? Request.of(config.getSpec().getNamespace(), config.getMetadata().getName()) : null;
	}

	@Override
	public Result reconcile(Cluster cluster, Request request) {
		Optional<FleetConfig> config = this.hub.get(FleetConfig.class, Request.clusterScoped(request.name()));
		Client member = cluster.client();
		if (config.isEmpty() || config.get().getSpec() == null
				|| !request.namespace().equals(config.get().getSpec().getNamespace())) {
			// deleted, or its namespace changed: this ConfigMap is no longer wanted here
			member.uncached()
				.get(V1ConfigMap.class, request)
				.filter((configMap) -> OPERATOR.equals(configMap.getMetadata().getLabels().get(MANAGED_BY)))
				.ifPresent((configMap) -> {
					member.delete(configMap);
					logger.info("ConfigMap removed: cluster={} configMap={}", cluster.name(), request);
				});
			return Result.done();
		}
		FleetConfig wanted = config.get();
		if (member.uncached().get(V1Namespace.class, Request.clusterScoped(request.namespace())).isEmpty()) {
			member.create(new V1Namespace()
				.metadata(new V1ObjectMeta().name(request.namespace()).putLabelsItem(MANAGED_BY, OPERATOR)));
		}
		member.createOrUpdate(
				new V1ConfigMap().metadata(new V1ObjectMeta().namespace(request.namespace()).name(request.name())),
				(configMap) -> configMap.data(wanted.getSpec().getData())
					.getMetadata()
					.putLabelsItem(MANAGED_BY, OPERATOR));
		Long synced = (wanted.getStatus() != null) ? wanted.getStatus().getClusters().get(cluster.name()) : null;
		Long generation = wanted.getMetadata().getGeneration();
		if (generation != null && !generation.equals(synced)) {
			// a key per cluster: the members' patches never conflict
			this.hub.status()
				.patch(wanted, Patch.merge(Map.of("status", Map.of("clusters", Map.of(cluster.name(), generation)))));
		}
		return Result.done();
	}

}
