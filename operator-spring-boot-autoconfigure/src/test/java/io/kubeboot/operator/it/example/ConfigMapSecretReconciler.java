package io.kubeboot.operator.it.example;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.annotation.Reconciler;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.OwnerReferences;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;

/**
 * The README's example: every ConfigMap labelled {@code secret=wanted} gets an owned
 * Secret with its data, kept in line; before a ConfigMap is deleted, its name goes to an
 * audit log outside the cluster.
 */
@Reconciler(value = V1ConfigMap.class, labelSelector = "secret=wanted", owns = V1Secret.class,
		finalizer = "example.kubeboot.io/audit")
public class ConfigMapSecretReconciler {

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
