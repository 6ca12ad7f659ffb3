package io.kubeboot.operator.deploy;

import io.kubeboot.operator.deploy.Template.Block;
import io.kubeboot.operator.deploy.Template.Cond;
import io.kubeboot.operator.deploy.Template.Mapping;
import io.kubeboot.operator.deploy.Template.MappingBuilder;
import io.kubeboot.operator.deploy.Template.Scalar;
import org.jspecify.annotations.Nullable;

/**
 * What every template of an operator's manifests shares: the model, the values, the
 * namespace it is installed in (the settings' in the plain manifests, the release's in
 * the chart), and the names and labels of its objects.
 * <p>
 * Names follow the release, as {@code helm create}'s do: the release's name, with the
 * operator's appended unless it holds it already ({@code fullnameOverride} and
 * {@code nameOverride} change that), within 40 characters so that the suffixed names stay
 * within Kubernetes' limits. Cluster-scoped objects (and those in namespaces other than
 * the release's, such as the watched one) add the release's namespace unless it is the
 * settings' namespace, so that two releases of one name in two namespaces do not collide.
 * The plain manifests are the chart installed as the operator's name in the settings'
 * namespace: every name is the operator's.
 *
 * @param model the operator
 * @param values the chart's values with the settings applied
 * @param settings the settings
 */
record Rendering(DeployModel model, ChartValues values, DeploySettings settings) {

	static final String NAME_LABEL = "app.kubernetes.io/name";

	static final String INSTANCE_LABEL = "app.kubernetes.io/instance";

	static final String COMPONENT_LABEL = "app.kubernetes.io/component";

	static final String VERSION_LABEL = "app.kubernetes.io/version";

	/** The Service port of the webhook server, as the API server and the CRDs call it. */
	static final int WEBHOOK_SERVICE_PORT = 443;

	/**
	 * The operator's name ({@code spring.application.name}): the chart's, and the prefix
	 * of its helpers.
	 */
	String name() {
		return this.model.name();
	}

	/**
	 * The name of a helper of the chart's {@code _helpers.tpl}.
	 */
	String helper(String helper) {
		return "include \"" + name() + "." + helper + "\" $";
	}

	/**
	 * The namespace the operator is installed in.
	 */
	Scalar namespace() {
		return new Scalar(this.settings.namespace(), "$.Release.Namespace");
	}

	/**
	 * The name of the release's objects in its namespace.
	 */
	Scalar fullname() {
		return new Scalar(name(), helper("fullname"));
	}

	/**
	 * A name of the release's objects in its namespace, with a suffix.
	 */
	Scalar named(String suffix) {
		return Template.concat(fullname(), suffix);
	}

	/**
	 * A name of the release's cluster-scoped objects, or of its objects in another
	 * namespace, with a suffix.
	 */
	Scalar clusterNamed(String suffix) {
		return Template.concat(new Scalar(name(), helper("clusterName")), suffix);
	}

	Scalar webhookService() {
		return named("-webhook");
	}

	Scalar metricsService() {
		return named("-metrics");
	}

	Scalar certificate() {
		return named("-webhook");
	}

	Scalar certificateSecret() {
		return named("-webhook-tls");
	}

	Scalar issuer() {
		return named("-selfsigned");
	}

	/**
	 * The CA of the serving certificate: its Certificate, Secret and Issuer.
	 */
	Scalar ca() {
		return named("-ca");
	}

	boolean servesWebhooks() {
		return !this.model.webhooks().isEmpty() || !this.model.conversions().isEmpty();
	}

	/**
	 * The labels that select the release's pods.
	 */
	Mapping selector() {
		return selector(null);
	}

	/**
	 * The labels that select the release's pods, and a component's.
	 */
	Mapping selector(@Nullable String component) {
		MappingBuilder labels = Template.map()
			.put(NAME_LABEL, new Scalar(name(), helper("name")))
			.put(INSTANCE_LABEL, new Scalar(name(), "$.Release.Name"));
		if (component != null) {
			labels.put(COMPONENT_LABEL, component);
		}
		return labels.build();
	}

	/**
	 * The labels of the release's objects: the selector's, the version, and Helm's own
	 * ({@code helm.sh/chart}, {@code app.kubernetes.io/managed-by}) in the chart only.
	 */
	Mapping labels(@Nullable String component) {
		return labels(component, null);
	}

	/**
	 * The labels of the release's objects, and more from the values.
	 */
	Mapping labels(@Nullable String component, @Nullable Block more) {
		MappingBuilder labels = Template.map()
			.put(NAME_LABEL, new Scalar(name(), helper("name")))
			.put(INSTANCE_LABEL, new Scalar(name(), "$.Release.Name"));
		if (component != null) {
			labels.put(COMPONENT_LABEL, component);
		}
		labels.put(VERSION_LABEL, this.values.string("image.tag"))
			.when(Cond.HELM)
			.put("helm.sh/chart", new Scalar("", helper("chart")))
			.when(Cond.HELM)
			.put("app.kubernetes.io/managed-by", new Scalar("", "$.Release.Service"));
		if (more != null) {
			labels.merge(more);
		}
		return labels.build();
	}

	/**
	 * An object's metadata: its name, its namespace if given, and the release's labels.
	 */
	Mapping metadata(Scalar objectName, @Nullable Scalar namespace, @Nullable String component) {
		return metadata(objectName, namespace, component, null);
	}

	/**
	 * An object's metadata, with more labels from the values.
	 */
	Mapping metadata(Scalar objectName, @Nullable Scalar namespace, @Nullable String component,
			@Nullable Block labels) {
		MappingBuilder metadata = Template.map().put("name", objectName);
		if (namespace != null) {
			metadata.put("namespace", namespace);
		}
		return metadata.put("labels", labels(component, labels)).build();
	}

	/**
	 * The name of the ServiceAccount the pods run as: {@code serviceAccount.name}, else
	 * the release's.
	 */
	Scalar serviceAccountName() {
		String given = (String) this.values.get("serviceAccount.name");
		return new Scalar(given.isEmpty() ? name() : given, helper("serviceAccountName"));
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
