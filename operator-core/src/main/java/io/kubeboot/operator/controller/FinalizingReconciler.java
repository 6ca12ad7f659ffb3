package io.kubeboot.operator.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.client.internal.FieldSelector;
import io.kubeboot.operator.client.internal.LabelSelector;
import io.kubeboot.operator.reconcile.Cleaner;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reconciler with a finalizer: adds the finalizer before the first reconcile, runs the
 * cleanup instead of the reconcile while the object is being deleted, and removes the
 * finalizer once the cleanup is done (see {@link Cleaner}). An object that leaves the
 * controller's label selector or field selector while it carries the finalizer is cleaned
 * up and loses the finalizer too: the controller stops managing it. Finalizer changes are
 * merge patches carrying the cached resource version, so a stale cache ends in a
 * conflict, which the controller retries at once, never in a lost finalizer of someone
 * else.
 */
final class FinalizingReconciler implements Reconciler {

	private static final Logger logger = LoggerFactory.getLogger(FinalizingReconciler.class);

	// a qualified name: an optional DNS subdomain prefix and a slash, then a name of up
	// to 63 characters
	private static final Pattern QUALIFIED_NAME = Pattern.compile(
			"^(([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$");

	private final Class<? extends KubernetesObject> type;

	private final String finalizer;

	private final Reconciler reconciler;

	private final Cleaner cleaner;

	private final Client client;

	private final @Nullable LabelSelector labelSelector;

	private final @Nullable FieldSelector fieldSelector;

	FinalizingReconciler(Class<? extends KubernetesObject> type, String finalizer, Reconciler reconciler,
			Cleaner cleaner, Client client, @Nullable String labelSelector, @Nullable String fieldSelector) {
		this.type = type;
		this.finalizer = requireQualifiedName(finalizer);
		this.reconciler = reconciler;
		this.cleaner = cleaner;
		this.client = client;
		this.labelSelector = (labelSelector != null && !labelSelector.isBlank()) ? LabelSelector.parse(labelSelector)
				: null;
		this.fieldSelector = (fieldSelector != null && !fieldSelector.isBlank())
				? FieldSelector.parse(fieldSelector.trim()) : null;
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
			KubernetesObject unselected = leftSelector(request);
			if (unselected != null) {
				logger.info("Object left the controller's selector with its finalizer: cleaning up, request={} "
						+ "finalizer={}", request, this.finalizer);
				return cleanUp(request, unselected);
			}
			return this.reconciler.reconcile(request); // gone: the reconciler decides
		}
		V1ObjectMeta metadata = object.getMetadata();
		List<String> finalizers = finalizers(object);
		if (metadata.getDeletionTimestamp() != null) {
			if (!finalizers.contains(this.finalizer)) {
				return Result.done(); // cleaned up already; other finalizers hold it
			}
			return cleanUp(request, object);
		}
		if (!finalizers.contains(this.finalizer)) {
			List<String> added = new ArrayList<>(finalizers);
			added.add(this.finalizer);
			writeFinalizers(object, added);
		}
		return this.reconciler.reconcile(request);
	}

	/**
	 * Runs the cleanup and removes the finalizer once it is done.
	 */
	private Result cleanUp(Request request, KubernetesObject object) throws Exception {
		Result result = this.cleaner.cleanup(request);
		if (result != null && (result.isRequeue() || result.getRequeueAfter() != null)) {
			return result;
		}
		List<String> remaining = new ArrayList<>(finalizers(object));
		remaining.remove(this.finalizer);
		writeFinalizers(object, remaining);
		logger.info("Cleanup done, finalizer removed: request={} finalizer={}", request, this.finalizer);
		return Result.done();
	}

	/**
	 * Finds an object the cache does not hold because it no longer matches the
	 * controller's label selector or field selector, although it still carries the
	 * finalizer: it would otherwise never lose the finalizer, and its deletion would
	 * hang. Only a controller with a selector asks, with one uncached read per object the
	 * cache misses (normally one per deletion). The field selector is read at the JSON
	 * paths its field names spell, as the API server reads a custom resource's selectable
	 * fields and the fields it supports for most built-in kinds.
	 * @return the object, or {@code null} if it is gone, matches the selectors (the cache
	 * has not seen it yet) or does not carry the finalizer
	 */
	private @Nullable KubernetesObject leftSelector(Request request) {
		if (this.labelSelector == null && this.fieldSelector == null) {
			return null;
		}
		KubernetesObject object = this.client.uncached().get(this.type, request).orElse(null);
		if (object == null || object.getMetadata() == null || !finalizers(object).contains(this.finalizer)) {
			return null;
		}
		boolean labelsMatch = this.labelSelector == null
				|| this.labelSelector.matches(object.getMetadata().getLabels());
		boolean fieldsMatch = this.fieldSelector == null || this.fieldSelector.matches(object);
		return (labelsMatch && fieldsMatch) ? null : object;
	}

	private static List<String> finalizers(KubernetesObject object) {
		List<String> finalizers = object.getMetadata().getFinalizers();
		return (finalizers != null) ? finalizers : List.of();
	}

	private void writeFinalizers(KubernetesObject object, List<String> finalizers) {
		this.client.patch(object, Patch.merge(Map.of("metadata",
				Map.of("finalizers", finalizers, "resourceVersion", object.getMetadata().getResourceVersion()))));
	}

}
