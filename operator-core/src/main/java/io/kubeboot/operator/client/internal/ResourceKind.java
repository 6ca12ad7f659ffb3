package io.kubeboot.operator.client.internal;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;

/**
 * A Kubernetes resource as the API server serves it, resolved from a model class.
 *
 * @param <T> the model type
 * @param type the model class
 * @param listType the list model class
 * @param group the API group, empty for the core group
 * @param version the API version
 * @param kind the kind
 * @param plural the plural resource name used in URLs
 * @param namespaced whether objects of the kind live in namespaces
 */
public record ResourceKind<T extends KubernetesObject>(Class<T> type, Class<? extends KubernetesListObject> listType,
		String group, String version, String kind, String plural, boolean namespaced) {

	/**
	 * Returns the {@code apiVersion} of the kind's objects, {@code group/version} or just
	 * {@code version} for the core group.
	 * @return the apiVersion
	 */
	public String apiVersion() {
		return this.group.isEmpty() ? this.version : this.group + "/" + this.version;
	}

	@Override
	public String toString() {
		return this.kind + " (" + (this.group.isEmpty() ? "core" : this.group) + "/" + this.version + ")";
	}

}
