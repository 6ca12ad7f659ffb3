package io.kubeboot.operator.autoconfigure.docs.model;

import io.kubernetes.client.openapi.models.V1ConfigMap;

/**
 * A system outside the cluster that a reconciler keeps in line with ConfigMaps.
 */
public interface Backend {

	/**
	 * Copies the ConfigMap's data to the backend.
	 * @param configMap the ConfigMap
	 * @return why it failed, or {@code null}
	 */
	String sync(V1ConfigMap configMap);

}
