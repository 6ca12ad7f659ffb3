package io.kubeboot.operator.deploy;

import java.util.LinkedHashMap;
import java.util.Map;

import io.kubeboot.operator.deploy.Template.Mapping;
import io.kubeboot.operator.deploy.Template.MappingBuilder;
import io.kubeboot.operator.deploy.Template.Scalar;
import org.jspecify.annotations.Nullable;

/**
 * What every template of an operator's manifests shares: the model, the values, the
 * namespace it is installed in (the settings' in the plain manifests, the release's in
 * the chart), and the names and labels made from the operator's name.
 *
 * @param model the operator
 * @param values the chart's values with the settings applied
 * @param settings the settings
 */
record Rendering(DeployModel model, ChartValues values, DeploySettings settings) {

	static final String NAME_LABEL = "app.kubernetes.io/name";

	static final String COMPONENT_LABEL = "app.kubernetes.io/component";

	/** The Service port of the webhook server, as the API server and the CRDs call it. */
	static final int WEBHOOK_SERVICE_PORT = 443;

	String name() {
		return this.model.name();
	}

	/**
	 * The namespace the operator is installed in.
	 */
	Scalar namespace() {
		return new Scalar(this.settings.namespace(), "$.Release.Namespace");
	}

	String webhookService() {
		return name() + "-webhook";
	}

	String metricsService() {
		return name() + "-metrics";
	}

	String certificate() {
		return name() + "-webhook";
	}

	String certificateSecret() {
		return name() + "-webhook-tls";
	}

	String issuer() {
		return name() + "-selfsigned";
	}

	/**
	 * The CA of the serving certificate: its Certificate, Secret and Issuer.
	 */
	String ca() {
		return name() + "-ca";
	}

	boolean servesWebhooks() {
		return !this.model.webhooks().isEmpty() || !this.model.conversions().isEmpty();
	}

	/**
	 * The labels that select the operator's pods.
	 */
	Map<String, Object> selector() {
		return Map.of(NAME_LABEL, name());
	}

	/**
	 * An object's metadata: its name, its namespace if given, and the operator's labels.
	 */
	Mapping metadata(String objectName, @Nullable Scalar namespace, @Nullable String component) {
		return metadata(new Scalar(objectName, null), namespace, component);
	}

	Mapping metadata(Scalar objectName, @Nullable Scalar namespace, @Nullable String component) {
		MappingBuilder metadata = Template.map().put("name", objectName);
		if (namespace != null) {
			metadata.put("namespace", namespace);
		}
		Map<String, Object> labels = new LinkedHashMap<>();
		labels.put(NAME_LABEL, name());
		if (component != null) {
			labels.put(COMPONENT_LABEL, component);
		}
		return metadata.put("labels", Template.of(labels)).build();
	}

	/**
	 * The start of an object: its {@code apiVersion}, {@code kind} and metadata.
	 */
	MappingBuilder object(String apiVersion, String kind, Mapping metadata) {
		return Template.map().put("apiVersion", apiVersion).put("kind", kind).put("metadata", metadata);
	}

	/**
	 * The port the probes and the metrics' port name resolve to: {@code http} for the
	 * application's port, {@code management} for Actuator's own.
	 */
	String managementPortName() {
		return (this.model.managementPort() != null) ? "management" : "http";
	}

	/**
	 * Actuator's port number.
	 */
	int managementPortNumber() {
		Integer port = (this.model.managementPort() != null) ? this.model.managementPort()
				: this.model.applicationPort();
		if (port == null) {
			throw new IllegalStateException("The operator serves metrics but has no HTTP port");
		}
		return port;
	}

}
