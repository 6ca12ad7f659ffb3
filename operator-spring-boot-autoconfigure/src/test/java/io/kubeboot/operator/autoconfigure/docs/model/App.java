package io.kubeboot.operator.autoconfigure.docs.model;

import java.util.List;
import java.util.Map;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;

/**
 * An application that reads Secrets, for the examples of watches, indexes and event
 * filters.
 */
@KubernetesKind(group = "apps.example.com", version = "v1", kind = "App")
public class App extends CustomResource<Map<String, Object>, Map<String, Object>> {

	/**
	 * Returns the names of the Secrets the application reads.
	 * @return the names its spec lists
	 */
	public List<String> secretNames() {
		if (getSpec() != null && getSpec().get("secrets") instanceof List<?> secrets) {
			return secrets.stream().map(String::valueOf).toList();
		}
		return List.of();
	}

}
