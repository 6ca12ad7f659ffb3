package io.kubeboot.operator.controller;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.handler.MapFunction;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1OwnerReference;

/**
 * Maps an owned object to its controlling owner of the reconciled kind, as
 * controller-runtime's {@code Owns} with {@code OnlyControllerOwner} does: the owner
 * reference must say {@code controller: true} and name the owner's group and kind. An
 * owner of a namespaced kind is in the owned object's namespace; of a cluster-scoped
 * kind, in none.
 */
final class OwnerMapFunction<O extends KubernetesObject> implements MapFunction<O> {

	private final Cache cache;

	private final Class<? extends KubernetesObject> ownerType;

	OwnerMapFunction(Cache cache, Class<? extends KubernetesObject> ownerType) {
		this.cache = cache;
		this.ownerType = ownerType;
	}

	@Override
	public Collection<Request> map(O object) {
		if (object.getMetadata() == null || object.getMetadata().getOwnerReferences() == null) {
			return List.of();
		}
		// resolved when the cache started
		GroupVersionKind owner = this.cache.groupVersionKind(this.ownerType);
		boolean namespaced = this.cache.isNamespaced(this.ownerType);
		List<Request> requests = new ArrayList<>(1);
		for (V1OwnerReference reference : object.getMetadata().getOwnerReferences()) {
			if (Boolean.TRUE.equals(reference.getController()) && owner.getKind().equals(reference.getKind())
					&& owner.getGroup().equals(group(reference.getApiVersion()))) {
				requests.add(new Request(namespaced ? object.getMetadata().getNamespace() : null, reference.getName()));
			}
		}
		return requests;
	}

	private static String group(String apiVersion) {
		int slash = (apiVersion != null) ? apiVersion.indexOf('/') : -1;
		return (slash >= 0) ? apiVersion.substring(0, slash) : "";
	}

}
