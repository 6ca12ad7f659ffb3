package io.kubeboot.operator.autoconfigure.docs.model;

import java.util.List;
import java.util.Map;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;

/**
 * An application that reads Secrets, for the examples of watches and event filters.
 */
@KubernetesKind(group = "apps.example.com", version = "v1", kind = "App")
public class App extends CustomResource<Map<String, Object>, Map<String, Object>> {

	/**
	 * Whether the application reads the Secret.
	 * @param secretName the name of the Secret
	 * @return whether its spec names the Secret
	 */
	public boolean usesSecret(String secretName) {
		return getSpec() != null && getSpec().get("secrets") instanceof List<?> secrets && secrets.contains(secretName);
	}

}
