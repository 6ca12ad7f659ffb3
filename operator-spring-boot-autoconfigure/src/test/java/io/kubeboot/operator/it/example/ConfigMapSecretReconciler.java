package io.kubeboot.operator.it.example;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.annotation.RbacRule;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.OwnerReferences;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;

/**
 * The example of {@code docs/guides/writing-to-the-cluster.md}: every ConfigMap labelled
 * {@code secret=wanted} gets an owned Secret with its data, kept in line; before a
 * ConfigMap is deleted, its name goes to an audit log outside the cluster. The Secrets
 * carry a label that limits the cache to them, and the {@link RbacRule} declares the
 * writes the generated RBAC cannot see.
 */
@Reconciles(value = V1ConfigMap.class, labelSelector = "secret=wanted", owns = V1Secret.class,
		ownsLabelSelector = ConfigMapSecretReconciler.MANAGED_BY, finalizer = "example.kubeboot.io/audit")
@RbacRule(kind = V1Secret.class, verbs = { "create", "update" }, reason = "keeps the Secret with createOrUpdate")
public class ConfigMapSecretReconciler {

	/** The label of the Secrets it writes: only those are cached, not every Secret. */
	static final String MANAGED_BY = "app.kubernetes.io/managed-by=configmap-secret";

	/** Stands in for a system outside the cluster. */
	public static final List<String> AUDIT_LOG = new CopyOnWriteArrayList<>();

	private final Client client;

	ConfigMapSecretReconciler(Client client) {
		this.client = client;
	}

	Result reconcile(Request request) {
		V1ConfigMap source = this.client.get(V1ConfigMap.class, request).orElse(null);
		if (source == null) {
			return Result.done(); // deleted: the garbage collector deletes the Secret
		}
		V1Secret secret = new V1Secret()
			.metadata(new V1ObjectMeta().namespace(request.namespace()).name(request.name() + "-secret"));
		this.client.createOrUpdate(secret, (desired) -> {
			desired.getMetadata().putLabelsItem("app.kubernetes.io/managed-by", "configmap-secret");
			desired.data(null);
			if (source.getData() != null) {
				source.getData()
					.forEach((key, value) -> desired.putDataItem(key, value.getBytes(StandardCharsets.UTF_8)));
			}
			OwnerReferences.setController(this.client, source, desired);
		});
		return Result.done();
	}

	Result cleanup(Request request) {
		AUDIT_LOG.add("deleted " + request);
		return Result.done();
	}

}
