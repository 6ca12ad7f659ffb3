package io.kubeboot.operator.it;

import java.util.Map;

import io.kubeboot.operator.model.KubernetesKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * A custom resource for tests, served by the CRD {@link Widgets#install installs}.
 */
@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Widget")
public class Widget implements KubernetesObject {

	private String apiVersion = "test.kubeboot.io/v1";

	private String kind = "Widget";

	private V1ObjectMeta metadata = new V1ObjectMeta();

	private Map<String, Object> spec;

	private Map<String, Object> status;

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	@Override
	public V1ObjectMeta getMetadata() {
		return this.metadata;
	}

	public Widget metadata(V1ObjectMeta metadata) {
		this.metadata = metadata;
		return this;
	}

	public Map<String, Object> getSpec() {
		return this.spec;
	}

	public Widget spec(Map<String, Object> spec) {
		this.spec = spec;
		return this;
	}

	public Map<String, Object> getStatus() {
		return this.status;
	}

	public Widget status(Map<String, Object> status) {
		this.status = status;
		return this;
	}

}
