package io.kubeboot.operator.deploy;

import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.deploy.Template.Cond;
import io.kubeboot.operator.deploy.Template.Document;
import io.kubeboot.operator.deploy.Template.Mapping;
import io.kubeboot.operator.deploy.Template.MappingBuilder;
import io.kubeboot.operator.deploy.Template.Scalar;
import io.kubeboot.operator.deploy.Template.SequenceBuilder;

/**
 * The operator's workload and what reaches it: the Deployment and its
 * PodDisruptionBudget, the Services of the webhook server and of the metrics, the
 * NetworkPolicy and the ServiceMonitor.
 */
final class WorkloadTemplates {

	/** Beyond the graceful shutdown timeout, for the JVM to stop and the Lease to go. */
	private static final int SHUTDOWN_MARGIN_SECONDS = 15;

	/** Where a pod's ServiceAccount token is mounted, Prometheus's in its pod. */
	private static final String SERVICE_ACCOUNT_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";

	/** Without a bound on the graceful shutdown, what the kubelet waits all the same. */
	private static final int UNBOUNDED_SHUTDOWN_SECONDS = 3600;

	private WorkloadTemplates() {
	}

	static List<Object> deployment(Rendering rendering) {
		ChartValues values = rendering.values();
		Cond severalReplicas = values.above("replicas", 1);
		Mapping deployment = rendering
			.object("apps/v1", "Deployment", rendering.metadata(rendering.fullname(), rendering.namespace(), null))
			.put("spec",
					Template.map()
						.put("replicas", values.integer("replicas"))
						.put("revisionHistoryLimit", values.integer("revisionHistoryLimit"))
						.put("selector", Template.map().put("matchLabels", rendering.selector()).build())
						.put("template", podTemplate(rendering, severalReplicas))
						.build())
			.build();
		Mapping budget = rendering
			.object("policy/v1", "PodDisruptionBudget",
					rendering.metadata(rendering.fullname(), rendering.namespace(), null))
			.put("spec",
					Template.map()
						.put("minAvailable", values.integer("podDisruptionBudget.minAvailable"))
						.put("selector", Template.map().put("matchLabels", rendering.selector()).build())
						.build())
			.build();
		List<String> comments = new ArrayList<>();
		comments.add("The operator: with more than one replica, one leads (runs the controllers) and the others keep "
				+ "warm caches and take over when it goes away (leader election on a Lease).");
		return List.of(new Document(comments, deployment, Cond.ALWAYS), new Document(
				List.of("With more than one replica, a node drain leaves one running"), budget, severalReplicas));
	}

	private static Mapping podTemplate(Rendering rendering, Cond severalReplicas) {
		ChartValues values = rendering.values();
		DeployModel model = rendering.model();
		long shutdown = model.gracefulShutdownTimeout().isNegative() ? UNBOUNDED_SHUTDOWN_SECONDS
				: model.gracefulShutdownTimeout().toSeconds() + SHUTDOWN_MARGIN_SECONDS;
		MappingBuilder spec = Template.map()
			.put("serviceAccountName", rendering.serviceAccountName())
			.comment("no <SERVICE>_PORT=tcp://... variables of the namespace's Services: Spring Boot would bind "
					+ "them (a Service named operator-webhook sets operator.webhook.port)")
			.put("enableServiceLinks", false)
			.comment("Above operator.graceful-shutdown-timeout (" + model.gracefulShutdownTimeout().toSeconds()
					+ "s) plus a margin: on SIGTERM the leader lets in-flight reconciles finish, stops, and only then "
					+ "releases its Lease for a standby")
			.put("terminationGracePeriodSeconds", (int) shutdown)
			.put("securityContext", values.block("podSecurityContext"))
			.when(values.notEmpty("priorityClassName"))
			.put("priorityClassName", values.string("priorityClassName"))
			.when(values.notEmpty("imagePullSecrets"))
			.put("imagePullSecrets", values.block("imagePullSecrets"))
			.when(values.notEmpty("nodeSelector"))
			.put("nodeSelector", values.block("nodeSelector"))
			.when(values.notEmpty("tolerations"))
			.put("tolerations", values.block("tolerations"))
			.when(values.notEmpty("affinity"))
			.put("affinity", values.block("affinity"))
			.comment("a standby is only worth something on another node")
			.when(values.notEmpty("affinity").not().and(severalReplicas))
			.put("affinity", antiAffinity(rendering))
			.when(values.notEmpty("topologySpreadConstraints"))
			.put("topologySpreadConstraints", values.block("topologySpreadConstraints"))
			.put("containers", Template.seq().add(container(rendering)).build())
			.put("volumes", volumes(rendering));
		Mapping labels = Template.map()
			.put(Rendering.NAME_LABEL, rendering.selector().entries().get(0).value())
			.put(Rendering.INSTANCE_LABEL, rendering.selector().entries().get(1).value())
			.merge(values.block("podLabels"))
			.build();
		MappingBuilder metadata = Template.map().put("labels", labels);
		metadata.when(values.notEmpty("podAnnotations")).put("annotations", values.block("podAnnotations"));
		return Template.map().put("metadata", metadata.build()).put("spec", spec.build()).build();
	}

	private static Mapping antiAffinity(Rendering rendering) {
		Mapping term = Template.map()
			.put("weight", 100)
			.put("podAffinityTerm",
					Template.map()
						.put("topologyKey", "kubernetes.io/hostname")
						.put("labelSelector", Template.map().put("matchLabels", rendering.selector()).build())
						.build())
			.build();
		return Template.map()
			.put("podAntiAffinity",
					Template.map()
						.put("preferredDuringSchedulingIgnoredDuringExecution", Template.seq().add(term).build())
						.build())
			.build();
	}

	private static Mapping container(Rendering rendering) {
		ChartValues values = rendering.values();
		DeployModel model = rendering.model();
		MappingBuilder container = Template.map()
			.put("name", "operator")
			.put("image", Template.concat(values.string("image.repository"), ":", values.string("image.tag")))
			.when(values.notEmpty("image.pullPolicy"))
			.put("imagePullPolicy", values.string("image.pullPolicy"))
			.put("env", env(rendering))
			.when(values.notEmpty("envFrom"))
			.put("envFrom", values.block("envFrom"))
			.put("ports", ports(rendering));
		if (model.livenessPath() != null) {
			String port = (model.probesOnManagementPort() && model.managementPort() != null) ? "management" : "http";
			container.put("livenessProbe", probe(model.livenessPath(), port, 10, 3))
				.comment("a standby is ready too: leadership is not part of readiness")
				.put("readinessProbe", probe(model.readinessPath(), port, 5, 3))
				.comment("the caches of a large cluster take a while to sync; liveness counts from the first success")
				.put("startupProbe", probe(model.livenessPath(), port, 5, 60));
		}
		container.put("resources", values.block("resources"))
			.put("securityContext", values.block("securityContext"))
			.put("volumeMounts", volumeMounts(rendering));
		return container.build();
	}

	private static Mapping probe(String path, String port, int period, int failureThreshold) {
		return Template.map()
			.put("httpGet", Template.map().put("path", path).put("port", port).build())
			.put("periodSeconds", period)
			.put("failureThreshold", failureThreshold)
			.build();
	}

	private static Template.Sequence env(Rendering rendering) {
		ChartValues values = rendering.values();
		List<String> watched = values.strings("watchNamespaces");
		SequenceBuilder env = Template.seq();
		if (rendering.model().namespaceProperty()) {
			env.comment("operator.namespace of the application, cleared: OPERATOR_NAMESPACES names the namespaces")
				.add(variable("OPERATOR_NAMESPACE", new Scalar("", null)));
		}
		env.comment("operator.namespaces: the namespaces watched, empty for all (the roles follow them)")
			.add(variable("OPERATOR_NAMESPACES",
					new Scalar(String.join(",", watched), "join \",\" $.Values.watchNamespaces")))
			.add(variable("OPERATOR_LEADERELECTION_ENABLED", new Scalar(
					String.valueOf(values.get("leaderElection.enabled")), "$.Values.leaderElection.enabled")));
		if (!rendering.model().leaseNamed()) {
			env.comment("operator.leader-election.lease-name: the release's, so that two releases elect apart")
				.add(variable("OPERATOR_LEADERELECTION_LEASENAME", leaseName(rendering)));
		}
		if (values.has("metrics.secure")) {
			env.comment("operator.metrics.auth.enabled: " + rendering.model().metricsPath() + ", and the other "
					+ "endpoints of operator.metrics.auth.endpoints, answer only callers the API server authenticates "
					+ "and RBAC lets get them (values metrics.secure)")
				.add(variable("OPERATOR_METRICS_AUTH_ENABLED",
						new Scalar(String.valueOf(values.get("metrics.secure")), "$.Values.metrics.secure")));
		}
		String options = javaToolOptions(values);
		env.comment("the image's AOT cache or CDS archive, and more JVM options")
			.when(new Cond(!options.isEmpty(), "include \"" + rendering.name() + ".javaToolOptions\" $"))
			.add(variable("JAVA_TOOL_OPTIONS",
					new Scalar(options, "include \"" + rendering.name() + ".javaToolOptions\" $")));
		return env.splice(values.block("env")).build();
	}

	/**
	 * The name of the Lease when the application names none: the release's.
	 */
	static Scalar leaseName(Rendering rendering) {
		return rendering.named("-leader");
	}

	/**
	 * The JVM options of the values, as the chart's {@code javaToolOptions} helper joins
	 * them.
	 */
	static String javaToolOptions(ChartValues values) {
		List<String> options = new ArrayList<>();
		if (!values.get("image.aotCache").equals("")) {
			options.add("-XX:AOTCache=" + values.get("image.aotCache"));
		}
		if (!values.get("image.cds").equals("")) {
			options.add("-XX:SharedArchiveFile=" + values.get("image.cds"));
		}
		if (!values.get("javaToolOptions").equals("")) {
			options.add((String) values.get("javaToolOptions"));
		}
		return String.join(" ", options);
	}

	private static Mapping variable(Object name, Scalar value) {
		return Template.map().put("name", name).put("value", value).build();
	}

	private static Template.Sequence ports(Rendering rendering) {
		DeployModel model = rendering.model();
		SequenceBuilder ports = Template.seq();
		if (model.applicationPort() != null) {
			ports.comment("server.port: the application's, with /healthz and /readyz")
				.add(port("http", model.applicationPort()));
		}
		if (model.managementPort() != null) {
			ports.comment("management.server.port: Actuator's own").add(port("management", model.managementPort()));
		}
		if (model.webhookPort() != null) {
			ports.comment("operator.webhook.port: the admission and conversion webhooks, over HTTPS")
				.add(port("webhook", model.webhookPort()));
		}
		return ports.build();
	}

	private static Mapping port(String name, int number) {
		return Template.map().put("name", name).put("containerPort", number).put("protocol", "TCP").build();
	}

	private static Template.Sequence volumeMounts(Rendering rendering) {
		SequenceBuilder mounts = Template.seq()
			.comment("the root filesystem is read-only: Tomcat's work directory and the JVM's temporary files go to "
					+ "/tmp, an emptyDir")
			.add(Template.map().put("name", "tmp").put("mountPath", "/tmp").build());
		if (rendering.servesWebhooks()) {
			mounts
				.comment("the webhook's serving certificate, where operator.webhook.cert-dir points; re-read when "
						+ "renewed")
				.add(Template.map()
					.put("name", "webhook-tls")
					.put("mountPath", rendering.model().webhookCertDir())
					.put("readOnly", true)
					.build());
		}
		return mounts.splice(rendering.values().block("extraVolumeMounts")).build();
	}

	private static Template.Sequence volumes(Rendering rendering) {
		SequenceBuilder volumes = Template.seq()
			.add(Template.map()
				.put("name", "tmp")
				.put("emptyDir", Template.map().put("sizeLimit", "64Mi").build())
				.build());
		if (rendering.servesWebhooks()) {
			volumes.comment("tls.crt and tls.key, kept (and renewed) by cert-manager, or made by you without it")
				.add(Template.map().put("name", "webhook-tls").put("secret", certificateVolume(rendering)).build());
		}
		return volumes.splice(rendering.values().block("extraVolumes")).build();
	}

	/**
	 * The Secret of the serving certificate, its keys under the names the webhook server
	 * reads ({@code operator.webhook.cert-name} and {@code key-name}).
	 */
	private static Mapping certificateVolume(Rendering rendering) {
		MappingBuilder secret = Template.map().put("secretName", rendering.certificateSecret());
		List<String> files = rendering.model().webhookCertFiles();
		if (!files.equals(List.of("tls.crt", "tls.key"))) {
			secret.comment("the names operator.webhook.cert-name and key-name give the files")
				.put("items",
						Template.seq()
							.add(Template.map().put("key", "tls.crt").put("path", files.get(0)).build())
							.add(Template.map().put("key", "tls.key").put("path", files.get(1)).build())
							.build());
		}
		return secret.build();
	}

	static List<Object> services(Rendering rendering) {
		List<Object> documents = new ArrayList<>();
		if (rendering.servesWebhooks()) {
			Mapping service = rendering
				.object("v1", "Service",
						rendering.metadata(rendering.webhookService(), rendering.namespace(), "webhook"))
				.put("spec",
						Template.map()
							.put("selector", rendering.selector())
							.put("ports",
									Template.seq()
										.add(Template.map()
											.put("name", "webhook")
											.put("port", Rendering.WEBHOOK_SERVICE_PORT)
											.put("targetPort", "webhook")
											.put("protocol", "TCP")
											.build())
										.build())
							.build())
				.build();
			documents.add(new Document(List.of("Where the API server calls the webhooks: every replica serves them"),
					service, Cond.ALWAYS));
		}
		if (rendering.model().metricsPath() != null) {
			Mapping service = rendering
				.object("v1", "Service",
						rendering.metadata(rendering.metricsService(), rendering.namespace(), "metrics"))
				.put("spec",
						Template.map()
							.put("selector", rendering.selector())
							.put("ports",
									Template.seq()
										.add(Template.map()
											.put("name", "metrics")
											.put("port", rendering.managementPortNumber())
											.put("targetPort", rendering.managementPortName())
											.put("protocol", "TCP")
											.build())
										.build())
							.build())
				.build();
			documents.add(new Document(
					List.of("Actuator, for Prometheus: " + rendering.model().metricsPath()
							+ " of every replica (each counts its own work; only the leader reconciles)"),
					service, Cond.ALWAYS));
		}
		return documents;
	}

	static List<Object> networkPolicy(Rendering rendering) {
		SequenceBuilder ingress = Template.seq();
		if (rendering.servesWebhooks()) {
			ingress
				.comment("The webhooks, from the API server: it is no pod a selector could name, and where its calls "
						+ "come from depends on the cluster, so from anywhere. Only AdmissionReviews over TLS are "
						+ "served there.")
				.add(Template.map().put("ports", Template.seq().add(tcp("webhook")).build()).build());
		}
		if (rendering.model().metricsPath() != null) {
			Mapping namespace = Template.map()
				.put("namespaceSelector",
						Template.map()
							.put("matchLabels",
									Template.map()
										.put("kubernetes.io/metadata.name",
												rendering.values().string("networkPolicy.metricsNamespace"))
										.build())
							.build())
				.build();
			ingress.comment("Actuator, from Prometheus's namespace")
				.add(Template.map()
					.put("from", Template.seq().add(namespace).build())
					.put("ports", Template.seq().add(tcp(rendering.managementPortName())).build())
					.build());
		}
		Mapping policy = rendering
			.object("networking.k8s.io/v1", "NetworkPolicy",
					rendering.metadata(rendering.fullname(), rendering.namespace(), null))
			.put("spec",
					Template.map()
						.put("podSelector", Template.map().put("matchLabels", rendering.selector()).build())
						.put("policyTypes", Template.flow(List.of("Ingress")))
						.put("ingress", ingress.build())
						.build())
			.build();
		return List.of(new Document(List.of("Who may connect to the operator's pods; the kubelet's probes come from "
				+ "the node, which NetworkPolicy always lets through. It takes effect only with a network plugin that "
				+ "enforces NetworkPolicy."), policy, rendering.values().isTrue("networkPolicy.enabled")));
	}

	private static Mapping tcp(String port) {
		return Template.map().put("protocol", "TCP").put("port", port).build();
	}

	static List<Object> serviceMonitor(Rendering rendering) {
		if (rendering.model().metricsPath() == null) {
			return List.of();
		}
		ChartValues values = rendering.values();
		Cond secure = values.isTrue("metrics.secure");
		Cond tokenSecret = values.notEmpty("metrics.serviceMonitor.tokenSecret.name");
		Mapping authorization = Template.map()
			.put("type", "Bearer")
			.put("credentials",
					Template.map()
						.put("name", values.string("metrics.serviceMonitor.tokenSecret.name"))
						.put("key", values.string("metrics.serviceMonitor.tokenSecret.key"))
						.build())
			.build();
		MappingBuilder endpoint = Template.map()
			.put("port", "metrics")
			.put("path", rendering.model().metricsPath())
			.put("scheme", "http")
			.comment("the scraper's token, which the operator has the API server authenticate and authorize "
					+ "(values metrics.secure): a Secret's")
			.when(secure.and(tokenSecret))
			.put("authorization", authorization)
			.comment("the token mounted in Prometheus's own pod")
			.when(secure.and(tokenSecret.not()))
			.put("bearerTokenFile", SERVICE_ACCOUNT_TOKEN)
			.when(values.notEmpty("metrics.serviceMonitor.interval"))
			.put("interval", values.string("metrics.serviceMonitor.interval"))
			.when(values.notEmpty("metrics.serviceMonitor.scrapeTimeout"))
			.put("scrapeTimeout", values.string("metrics.serviceMonitor.scrapeTimeout"));
		Mapping monitor = rendering
			.object("monitoring.coreos.com/v1", "ServiceMonitor",
					rendering.metadata(rendering.fullname(), rendering.namespace(), "metrics",
							values.block("metrics.serviceMonitor.labels")))
			.put("spec",
					Template.map()
						.put("selector", Template.map().put("matchLabels", rendering.selector("metrics")).build())
						.put("endpoints", Template.seq().add(endpoint.build()).build())
						.build())
			.build();
		return List
			.of(new Document(List.of("Tells the Prometheus Operator to scrape the metrics Service (needs its CRDs)"),
					monitor, rendering.values().isTrue("metrics.serviceMonitor.enabled")));
	}

}
