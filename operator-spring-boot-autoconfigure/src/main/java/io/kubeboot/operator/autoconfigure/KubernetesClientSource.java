package io.kubeboot.operator.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

/**
 * The auto-configured client and where its configuration came from.
 *
 * @param client the client
 * @param where the place it was found: {@code KUBECONFIG=/path},
 * {@code ~/.kube/config (/home/me/.kube/config)} or {@code in-cluster (...)}
 * @param context the kubeconfig context, {@code null} in-cluster
 */
record KubernetesClientSource(ApiClient client, String where, @Nullable String context) {

	/**
	 * Describes the origin for a person: {@code KUBECONFIG=/path, context kind-dev}.
	 * @return the description
	 */
	String describe() {
		return (this.context != null) ? this.where + ", context " + this.context : this.where;
	}

}
