package com.example.shop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.example.shop.v1alpha1.Website;
import com.example.shop.v1alpha1.WebsiteStatus;
import io.kubeboot.operator.annotation.RbacRule;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.OwnerReferences;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.events.EventRecorder;
import io.kubeboot.operator.model.Condition;
import io.kubeboot.operator.model.Conditions;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every Website's ConfigMap in line with its spec and reports it in the {@code Ready}
 * condition. {@code reconcile} runs when a Website or its ConfigMap changes and writes only
 * what differs; {@code cleanup} runs before the finalizer lets a deleted Website go (the
 * garbage collector deletes its ConfigMap, an owned object). The {@link RbacRule @RbacRule}s
 * declare the writes the framework cannot see, for {@code deploy/rbac.yaml}.
 */
@Reconciles(value = Website.class, owns = V1ConfigMap.class, ownsLabelSelector = WebsiteReconciler.MANAGED_BY,
		finalizer = WebsiteReconciler.FINALIZER)
@RbacRule(subresource = "status", verbs = "patch", reason = "writes the status with a merge patch")
@RbacRule(kind = V1ConfigMap.class, verbs = { "create", "update" }, reason = "keeps the ConfigMap with createOrUpdate")
@RbacRule(subresource = "finalizers", verbs = "update",
		reason = "sets blockOwnerDeletion on the ConfigMap's owner reference, which clusters enforcing "
				+ "OwnerReferencesPermissionEnforcement allow only to who may update the owner's finalizers")
class WebsiteReconciler {

	/**
	 * The finalizer that keeps a deleted Website until {@code cleanup} returned done.
	 */
	static final String FINALIZER = "shop.example.com/finalizer";

	/**
	 * The label of the ConfigMaps this operator writes; only those are cached and watched.
	 */
	static final String MANAGED_BY = "app.kubernetes.io/managed-by=shop-operator";

	private static final Logger logger = LoggerFactory.getLogger(WebsiteReconciler.class);

	private final Client client;

	private final EventRecorder events;

	WebsiteReconciler(Client client, EventRecorder events) {
		this.client = client;
		this.events = events;
	}

	Result reconcile(Request request) {
		Optional<Website> found = this.client.get(Website.class, request);
		if (found.isEmpty()) {
			return Result.done(); // deleted meanwhile
		}
		Website resource = found.get();
		Map<String, String> data = (resource.getSpec() != null) ? resource.getSpec().getData() : Map.of();

		// the desired state: a ConfigMap of the same name with the spec's data, controlled by
		// the resource (the client writes it only if it differs)
		V1ConfigMap configMap = new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace(request.namespace()).name(request.name()));
		Client.Written<V1ConfigMap> written = this.client.createOrUpdate(configMap, (desired) -> {
			desired.getMetadata().putLabelsItem("app.kubernetes.io/managed-by", "shop-operator");
			desired.setData(new LinkedHashMap<>(data));
			OwnerReferences.setController(this.client, resource, desired);
		});
		if (written.operation() != Client.Operation.UNCHANGED) {
			String operation = written.operation().name().toLowerCase();
			logger.info("ConfigMap {}: {} entries={}", operation, request, data.size());
			// kubectl describe shows it with the resource
			this.events.normal(resource, "ConfigMapWritten", "ConfigMap " + request.name() + " " + operation);
		}

		// the observed state, written only when it changed; Conditions.set moves
		// lastTransitionTime only when the status changes
		Long generation = resource.getMetadata().getGeneration();
		WebsiteStatus current = (resource.getStatus() != null) ? resource.getStatus() : new WebsiteStatus();
		List<Condition> conditions = new ArrayList<>(current.getConditions()); // the cached list is shared
		if (!Conditions.set(conditions, Condition.of(WebsiteStatus.READY, Condition.TRUE, "ConfigMapUpToDate",
				"ConfigMap " + request.name() + " holds " + data.size() + " entries").observedGeneration(generation))) {
			return Result.done();
		}
		WebsiteStatus status = new WebsiteStatus().observedGeneration(generation)
			.configMapName(request.name())
			.conditions(conditions);
		// a merge patch of the status subresource carrying the resourceVersion read: if the
		// resource changed meanwhile, it fails with a conflict and is reconciled again at once
		Patch patch = Patch.merge(Map.of("metadata",
				Map.of("resourceVersion", resource.getMetadata().getResourceVersion()), "status", status));
		this.client.status().patch(resource, patch);
		return Result.done();
	}

	Result cleanup(Request request) {
		// release here what the Website holds outside the cluster; throwing (or returning
		// Result.requeue()) keeps the finalizer and retries with backoff
		logger.info("Website deleted: {}", request);
		return Result.done();
	}

}
