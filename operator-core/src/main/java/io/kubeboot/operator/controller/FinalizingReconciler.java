package io.kubeboot.operator.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.reconcile.Cleaner;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reconciler with a finalizer: adds the finalizer before the first reconcile, runs the
 * cleanup instead of the reconcile while the object is being deleted, and removes the
 * finalizer once the cleanup is done (see {@link Cleaner}). Finalizer changes are merge
 * patches carrying the cached resource version, so a stale cache ends in a conflict,
 * which the controller retries at once, never in a lost finalizer of someone else.
 */
final class FinalizingReconciler implements Reconciler {

	private static final Logger logger = LoggerFactory.getLogger(FinalizingReconciler.class);

	// a qualified name: an optional DNS subdomain prefix and a slash, then a name of up
	// to
	// 63 characters
	private static final Pattern QUALIFIED_NAME = Pattern.compile(
			"^(([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$");

	private final Class<? extends KubernetesObject> type;

	private final String finalizer;

	private final Reconciler reconciler;

	private final Cleaner cleaner;

	private final Client client;

	FinalizingReconciler(Class<? extends KubernetesObject> type, String finalizer, Reconciler reconciler,
			Cleaner cleaner, Client client) {
		this.type = type;
		this.finalizer = requireQualifiedName(finalizer);
		this.reconciler = reconciler;
		this.cleaner = cleaner;
		this.client = client;
	}

	static String requireQualifiedName(String finalizer) {
		if (finalizer == null || !QUALIFIED_NAME.matcher(finalizer).matches() || finalizer.length() > 317) {
			throw new IllegalArgumentException("Finalizer '" + finalizer + "' is not a qualified name: use a domain "
					+ "you own and a name, such as 'storage.example.com/deregister'");
		}
		return finalizer;
	}

	@Override
	public Result reconcile(Request request) throws Exception {
		KubernetesObject object = this.client.get(this.type, request).orElse(null);
		if (object == null || object.getMetadata() == null) {
			return this.reconciler.reconcile(request); // gone: the reconciler decides
		}
		V1ObjectMeta metadata = object.getMetadata();
		List<String> finalizers = (metadata.getFinalizers() != null) ? metadata.getFinalizers() : List.of();
		if (metadata.getDeletionTimestamp() != null) {
			if (!finalizers.contains(this.finalizer)) {
				return Result.done(); // cleaned up already; other finalizers hold it
			}
			Result result = this.cleaner.cleanup(request);
			if (result != null && (result.isRequeue() || result.getRequeueAfter() != null)) {
				return result;
			}
			List<String> remaining = new ArrayList<>(finalizers);
			remaining.remove(this.finalizer);
			writeFinalizers(object, remaining);
			logger.info("Cleanup done, finalizer removed: request={} finalizer={}", request, this.finalizer);
			return Result.done();
		}
		if (!finalizers.contains(this.finalizer)) {
			List<String> added = new ArrayList<>(finalizers);
			added.add(this.finalizer);
			writeFinalizers(object, added);
		}
		return this.reconciler.reconcile(request);
	}

	private void writeFinalizers(KubernetesObject object, List<String> finalizers) {
		this.client.patch(object, Patch.merge(Map.of("metadata",
				Map.of("finalizers", finalizers, "resourceVersion", object.getMetadata().getResourceVersion()))));
	}

}
