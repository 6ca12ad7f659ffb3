package io.kubeboot.operator.rbac.internal;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;

/**
 * Finds what RBAC calls the objects of a model class: their API group, plural resource
 * name and scope.
 */
@FunctionalInterface
public interface KindNames {

	/**
	 * Names a kind.
	 * @param kind the model class
	 * @return its names
	 * @throws ApiException if asking the API server failed
	 * @throws IllegalArgumentException if the kind cannot be named
	 */
	Name resolve(Class<? extends KubernetesObject> kind) throws ApiException;

	/**
	 * What RBAC calls a kind.
	 *
	 * @param group the API group, empty for the core group
	 * @param plural the plural resource name
	 * @param namespaced whether its objects live in namespaces
	 */
	record Name(String group, String plural, boolean namespaced) {
	}

}
