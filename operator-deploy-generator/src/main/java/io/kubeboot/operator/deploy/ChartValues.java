package io.kubeboot.operator.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubeboot.operator.deploy.Template.Block;
import io.kubeboot.operator.deploy.Template.Cond;
import io.kubeboot.operator.deploy.Template.MappingBuilder;
import io.kubeboot.operator.deploy.Template.Scalar;
import org.jspecify.annotations.Nullable;

/**
 * The chart's values: which there are (some only when the operator serves webhooks or
 * metrics), their types, defaults and descriptions, and the value of each with the
 * settings applied. The plain manifests are rendered with these values, the chart's
 * {@code values.yaml} holds them as its defaults, and {@code values.schema.json} their
 * types, which {@code helm} checks on install.
 */
final class ChartValues {

	private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

	/**
	 * The environment variables the chart sets from the values and the model, which
	 * {@code env} may not name (nor {@code OPERATOR_WEBHOOK_*}: the port and certificate
	 * the manifests were generated for).
	 */
	static final List<String> DERIVED_ENV = List.of("SERVER_PORT", "MANAGEMENT_SERVER_PORT", "OPERATOR_NAMESPACE",
			"OPERATOR_NAMESPACES", "OPERATOR_LEADERELECTION_ENABLED", "OPERATOR_LEADERELECTION_LEASENAME",
			"OPERATOR_METRICS_AUTH_ENABLED", "JAVA_TOOL_OPTIONS");

	static final String DERIVED_ENV_PREFIX = "OPERATOR_WEBHOOK_";

	private static final Map<String, Object> POD_SECURITY_CONTEXT = Map.of("runAsNonRoot", true, "seccompProfile",
			Map.of("type", "RuntimeDefault"));

	private static final Map<String, Object> SECURITY_CONTEXT = Map.of("allowPrivilegeEscalation", false,
			"readOnlyRootFilesystem", true, "runAsNonRoot", true, "capabilities", Map.of("drop", List.of("ALL")),
			"seccompProfile", Map.of("type", "RuntimeDefault"));

	private final List<Definition> definitions;

	private final Map<String, Object> values = new LinkedHashMap<>();

	private ChartValues(List<Definition> definitions) {
		this.definitions = definitions;
		for (Definition definition : definitions) {
			this.values.put(definition.path(), definition.defaultValue());
		}
	}

	/**
	 * The values of an operator's chart, with the settings applied.
	 * @param model the operator
	 * @param settings the settings
	 * @return the values
	 * @throws IllegalArgumentException naming the settings file and the key of a value
	 * that is unknown or of the wrong type
	 */
	static ChartValues of(DeployModel model, DeploySettings settings) {
		ChartValues values = new ChartValues(definitions(model));
		values.apply("", settings.values(), settings.source());
		values.check(settings.source());
		return values;
	}

	private static List<Definition> definitions(DeployModel model) {
		List<Definition> definitions = new ArrayList<>();
		definitions.add(new Definition("nameOverride", Type.STRING, "",
				"Replaces the operator's name in the objects' names and the label app.kubernetes.io/name."));
		definitions.add(new Definition("fullnameOverride", Type.STRING, "",
				"The objects' names, instead of the release's name followed by the operator's (at most 40 characters "
						+ "are kept). Cluster-scoped objects add the release's namespace unless it is the one the "
						+ "chart was generated for."));
		definitions.add(new Definition("image.repository", Type.STRING, model.name(),
				"The operator's image, without its tag."));
		definitions.add(new Definition("image.tag", Type.TAG, "latest", "The image's tag, a string or a number."));
		definitions.add(new Definition("image.pullPolicy", Type.PULL_POLICY, "",
				"When the kubelet pulls the image: Always, IfNotPresent or Never; empty: Kubernetes' default "
						+ "(Always for the tag latest, else IfNotPresent)."));
		definitions.add(new Definition("image.aotCache", Type.STRING, "",
				"Path of a JDK AOT cache in the image (JDK 25: java -XX:AOTCacheOutput=... "
						+ "-Dspring.context.exit=onRefresh), started with -XX:AOTCache. Empty: the image's own start "
						+ "(an image built by spring-boot:build-image with BP_JVM_AOTCACHE_ENABLED=true starts with "
						+ "its cache already)."));
		definitions.add(new Definition("image.cds", Type.STRING, "",
				"Path of a CDS archive in the image (JDK 17 to 24: -XX:ArchiveClassesAtExit in a training run), "
						+ "started with -XX:SharedArchiveFile. Empty: none."));
		definitions.add(new Definition("imagePullSecrets", Type.OBJECTS, List.of(),
				"Secrets in the release's namespace to pull the image with, as a Pod's ([{name: regcred}])."));
		definitions.add(new Definition("replicas", Type.COUNT, 1,
				"Pods of the operator. Above 1, leader election must be on: one replica leads, the others keep "
						+ "warm caches and take over; a PodDisruptionBudget keeps one running through node drains."));
		definitions.add(new Definition("resources", Type.OBJECT,
				Map.of("requests", Map.of("cpu", "100m", "memory", "256Mi"), "limits", Map.of("memory", "512Mi")),
				"The container's resources."));
		definitions.add(new Definition("watchNamespaces", Type.NAMESPACES, model.watchNamespaces(),
				"The namespaces the operator watches (operator.namespaces), or none for all namespaces. With some, "
						+ "its roles are Roles bound in each of them instead of cluster-wide, and its webhooks are "
						+ "called for requests there only."));
		definitions.add(new Definition("leaderElection.enabled", Type.BOOLEAN, model.leaderElection(),
				"Whether the replicas elect a leader (operator.leader-election.enabled): needed for more than one."));
		if (hasPerNamespaceGrants(model)) {
			definitions.add(new Definition("grantedNamespaces", Type.STRINGS, List.of(),
					"Namespaces in which the roles granted namespace by namespace are bound (watching all "
							+ "namespaces; with watchNamespaces they are bound there)."));
		}
		definitions
			.add(new Definition("javaToolOptions", Type.STRING, "", "More JVM options, passed in JAVA_TOOL_OPTIONS."));
		definitions.add(new Definition("env", Type.ENV, List.of(),
				"More environment variables of the container, as a Pod's (name with value or valueFrom): Spring Boot "
						+ "properties such as OPERATOR_CONTROLLER_MAXCONCURRENTRECONCILES, a secretKeyRef's credentials. "
						+ "Not those the chart derives: " + String.join(", ", DERIVED_ENV)
						+ " and OPERATOR_WEBHOOK_*."));
		definitions.add(new Definition("envFrom", Type.OBJECTS, List.of(),
				"Sources of environment variables of the container (configMapRef, secretRef), as a Pod's."));
		definitions.add(new Definition("extraVolumes", Type.OBJECTS, List.of(),
				"More volumes of the pods, as a Pod's (a CA bundle, a credentials file)."));
		definitions.add(new Definition("extraVolumeMounts", Type.OBJECTS, List.of(),
				"More volume mounts of the container, as a Pod's."));
		definitions.add(new Definition("serviceAccount.create", Type.BOOLEAN, true,
				"Whether to create the ServiceAccount the pods run as; false to use one of serviceAccount.name."));
		definitions.add(new Definition("serviceAccount.name", Type.STRING, "",
				"The ServiceAccount's name; empty: the release's objects' name."));
		definitions.add(new Definition("serviceAccount.annotations", Type.LABELS, Map.of(),
				"The ServiceAccount's annotations: a cloud's workload identity (eks.amazonaws.com/role-arn, "
						+ "iam.gke.io/gcp-service-account, azure.workload.identity/client-id)."));
		Map<String, Object> annotations = new LinkedHashMap<>();
		definitions.add(new Definition("podAnnotations", Type.LABELS, annotations,
				"The pods' annotations (prometheus.io/* for a Prometheus that finds its targets by annotation; the "
						+ "ServiceMonitor is the default)."));
		definitions.add(new Definition("podLabels", Type.LABELS, Map.of(), "More labels of the pods."));
		definitions.add(new Definition("podSecurityContext", Type.OBJECT, POD_SECURITY_CONTEXT,
				"The pods' securityContext, as a Pod's: replaced as a whole (keep runAsNonRoot and the seccomp "
						+ "profile for the restricted Pod Security Standard; add runAsUser for an image whose USER is "
						+ "no number, fsGroup for a volume)."));
		definitions.add(new Definition("securityContext", Type.OBJECT, SECURITY_CONTEXT,
				"The container's securityContext, as a Pod's: replaced as a whole."));
		definitions.add(new Definition("nodeSelector", Type.LABELS, Map.of(), "The pods' node selector."));
		definitions.add(new Definition("tolerations", Type.OBJECTS, List.of(), "The pods' tolerations."));
		definitions.add(new Definition("affinity", Type.OBJECT, Map.of(),
				"The pods' affinity; empty: with more than one replica, a preference for different nodes."));
		definitions.add(new Definition("topologySpreadConstraints", Type.OBJECTS, List.of(),
				"The pods' topology spread constraints."));
		definitions.add(new Definition("priorityClassName", Type.STRING, "", "The pods' priority class, if any."));
		definitions.add(new Definition("podDisruptionBudget.minAvailable", Type.INT_OR_PERCENT, 1,
				"Pods a voluntary disruption (a node drain) leaves running, with more than one replica: a number, "
						+ "or a percentage (\"50%\")."));
		definitions.add(new Definition("revisionHistoryLimit", Type.COUNT, 10,
				"Old ReplicaSets the Deployment keeps for a rollback."));
		if (model.metricsPath() != null) {
			definitions.add(new Definition("metrics.serviceMonitor.enabled", Type.BOOLEAN, true,
					"Whether to create a ServiceMonitor (monitoring.coreos.com/v1: the Prometheus Operator's) "
							+ "for the metrics Service."));
			definitions.add(new Definition("metrics.serviceMonitor.labels", Type.LABELS, Map.of(),
					"More labels of the ServiceMonitor, such as the release label a kube-prometheus-stack's "
							+ "serviceMonitorSelector asks for."));
			definitions.add(new Definition("metrics.serviceMonitor.interval", Type.STRING, "",
					"How often Prometheus scrapes (30s); empty: Prometheus's own setting."));
			definitions.add(new Definition("metrics.serviceMonitor.scrapeTimeout", Type.STRING, "",
					"How long a scrape may take (10s); empty: Prometheus's own setting."));
			definitions.add(new Definition("metrics.secure", Type.BOOLEAN, model.metricsAuth(),
					"Whether the metrics answer only callers whose bearer token the API server authenticates "
							+ "(TokenReview) and whom RBAC lets get the path (SubjectAccessReview): "
							+ "operator.metrics.auth.enabled. The operator then gets a ClusterRole to ask both, the "
							+ "scraper a ClusterRole to get the path, and the ServiceMonitor sends its token."));
			definitions.add(new Definition("metrics.scraper.serviceAccount.name", Type.STRING, "prometheus-k8s",
					"With metrics.secure: the ServiceAccount of the scraper, bound to the ClusterRole "
							+ "<name>-metrics-reader that lets it get the metrics path (kube-prometheus's "
							+ "prometheus-k8s); empty: the ClusterRole is left for you to bind."));
			definitions.add(new Definition("metrics.scraper.serviceAccount.namespace", Type.STRING, "monitoring",
					"With metrics.secure: the namespace of the scraper's ServiceAccount."));
			definitions.add(new Definition("metrics.serviceMonitor.tokenSecret.name", Type.STRING, "",
					"With metrics.secure: a Secret in the release's namespace holding the token the ServiceMonitor "
							+ "sends (authorization credentials), such as a kubernetes.io/service-account-token "
							+ "Secret of the scraper's ServiceAccount; empty: bearerTokenFile, the token mounted in "
							+ "Prometheus's own pod (which the Prometheus Operator marks deprecated, and still "
							+ "honours)."));
			definitions.add(new Definition("metrics.serviceMonitor.tokenSecret.key", Type.STRING, "token",
					"The key of the token in metrics.serviceMonitor.tokenSecret.name."));
		}
		definitions.add(new Definition("networkPolicy.enabled", Type.BOOLEAN, true,
				"Whether a NetworkPolicy admits only the API server's webhook calls and Prometheus's scrapes "
						+ "(it needs a network plugin that enforces NetworkPolicy)."));
		if (model.metricsPath() != null) {
			definitions.add(new Definition("networkPolicy.metricsNamespace", Type.STRING, "monitoring",
					"The namespace Prometheus runs in, admitted to Actuator's port."));
		}
		if (!model.crds().isEmpty()) {
			definitions.add(new Definition("rbacHelpers.enabled", Type.BOOLEAN, false,
					"Whether to add, for every CRD, ClusterRoles that let namespace admins, editors and viewers work "
							+ "with its objects (aggregated into Kubernetes' admin, edit and view)."));
		}
		if (!model.policies().isEmpty()) {
			definitions.add(new Definition("admissionPolicies.enabled", Type.BOOLEAN, true,
					"Whether to install the kinds' ValidatingAdmissionPolicies and their bindings: cluster-wide, one "
							+ "copy per cluster like the CRDs, so false for a second release of the operator."));
		}
		if (!model.webhooks().isEmpty() || !model.conversions().isEmpty()) {
			definitions.add(new Definition("webhook.certManager.enabled", Type.BOOLEAN, true,
					"Whether cert-manager issues the webhook's serving certificate and injects its CA into the "
							+ "webhook configurations. Without it, create the Secret <name>-webhook-tls (tls.crt, "
							+ "tls.key) yourself and give its CA in webhook.caBundle."));
			definitions.add(new Definition("webhook.caBundle", Type.STRING, "",
					"Without cert-manager: the base64 PEM of the CA that signed the webhook's certificate."));
		}
		return definitions;
	}

	private static boolean hasPerNamespaceGrants(DeployModel model) {
		return model.permissions().stream().anyMatch((permission) -> permission.isGrantedPerNamespace());
	}

	@SuppressWarnings("unchecked")
	private void apply(String prefix, Map<String, Object> given, String source) {
		for (Map.Entry<String, Object> entry : given.entrySet()) {
			String path = prefix + entry.getKey();
			Definition definition = definition(path);
			if (definition != null) {
				this.values.put(path, definition.type().check(entry.getValue(), source, path));
			}
			else if (entry.getValue() instanceof Map<?, ?> map
					&& this.definitions.stream().anyMatch((candidate) -> candidate.path().startsWith(path + "."))) {
				apply(path + ".", (Map<String, Object>) map, source);
			}
			else {
				throw new IllegalArgumentException(source + ": values." + path + " is no value of the chart (known: "
						+ String.join(", ", this.definitions.stream().map(Definition::path).toList()) + ")");
			}
		}
	}

	private void check(String source) {
		if ((Integer) get("replicas") < 0) {
			throw new IllegalArgumentException(source + ": values.replicas must be at least 0");
		}
		if ((Integer) get("replicas") > 1 && !(Boolean) get("leaderElection.enabled")) {
			throw new IllegalArgumentException(source + ": values.replicas is " + get("replicas") + " but "
					+ "values.leaderElection.enabled is false: every replica would run the controllers");
		}
		if ((Integer) get("revisionHistoryLimit") < 0) {
			throw new IllegalArgumentException(source + ": values.revisionHistoryLimit must be at least 0");
		}
		List<String> namespaces = new ArrayList<>(strings("watchNamespaces"));
		if (definition("grantedNamespaces") != null) {
			namespaces.addAll(strings("grantedNamespaces"));
		}
		for (String namespace : namespaces) {
			if (!DNS_LABEL.matcher(namespace).matches() || namespace.length() > 63) {
				throw new IllegalArgumentException(source + ": '" + namespace + "' is no namespace's name");
			}
		}
		if (has("metrics.secure") && !get("metrics.scraper.serviceAccount.name").equals("")
				&& get("metrics.scraper.serviceAccount.namespace").equals("")) {
			throw new IllegalArgumentException(source + ": values.metrics.scraper.serviceAccount.namespace must be "
					+ "given with values.metrics.scraper.serviceAccount.name: a ServiceAccount is bound in its namespace");
		}
		if (has("metrics.secure") && get("metrics.serviceMonitor.tokenSecret.key").equals("")) {
			throw new IllegalArgumentException(
					source + ": values.metrics.serviceMonitor.tokenSecret.key must name the Secret's key of the token");
		}
		if (!(Boolean) get("serviceAccount.create") && get("serviceAccount.name").equals("")) {
			throw new IllegalArgumentException(source + ": values.serviceAccount.name must name the ServiceAccount to "
					+ "run as when values.serviceAccount.create is false");
		}
		for (Object variable : (List<?>) get("env")) {
			String name = String.valueOf(((Map<?, ?>) variable).get("name"));
			if (DERIVED_ENV.contains(name) || name.startsWith(DERIVED_ENV_PREFIX)) {
				throw new IllegalArgumentException(source + ": values.env names " + name + ", which the chart derives "
						+ "(from the values or the application's properties the manifests were generated for): set "
						+ "the value or the property instead");
			}
		}
	}

	/**
	 * Whether the chart has the value.
	 */
	boolean has(String path) {
		return definition(path) != null;
	}

	Object get(String path) {
		if (!this.values.containsKey(path)) {
			throw new IllegalArgumentException("No value " + path);
		}
		return this.values.get(path);
	}

	@SuppressWarnings("unchecked")
	List<String> strings(String path) {
		return (List<String>) get(path);
	}

	Scalar string(String path) {
		return new Scalar(String.valueOf(get(path)), "$.Values." + path);
	}

	Scalar integer(String path) {
		return new Scalar(get(path), "$.Values." + path);
	}

	Cond isTrue(String path) {
		return new Cond((Boolean) get(path), "$.Values." + path);
	}

	Cond notEmpty(String path) {
		Object value = get(path);
		boolean empty = (value instanceof String text) ? text.isEmpty()
				: (value instanceof List<?> list) ? list.isEmpty() : ((Map<?, ?>) value).isEmpty();
		return new Cond(!empty, "$.Values." + path);
	}

	Cond above(String path, int bound) {
		return new Cond((Integer) get(path) > bound, "gt (int $.Values." + path + ") " + bound);
	}

	Block block(String path) {
		return new Block(get(path), "$.Values." + path);
	}

	private @Nullable Definition definition(String path) {
		return this.definitions.stream()
			.filter((definition) -> definition.path().equals(path))
			.findFirst()
			.orElse(null);
	}

	/**
	 * The chart's {@code values.yaml}: every value with its description.
	 */
	String valuesYaml(List<String> header) {
		Map<String, Object> tree = new LinkedHashMap<>();
		for (Definition definition : this.definitions) {
			nest(tree, definition.path(), definition);
		}
		return TemplateWriter.plain(header, mapping(tree, ""));
	}

	@SuppressWarnings("unchecked")
	private Template.Mapping mapping(Map<String, Object> tree, String prefix) {
		MappingBuilder mapping = Template.map();
		tree.forEach((key, node) -> {
			if (node instanceof Definition definition) {
				mapping.comment(definition.description()).put(key, Template.of(get(definition.path())));
			}
			else {
				mapping.put(key, mapping((Map<String, Object>) node, prefix + key + "."));
			}
		});
		return mapping.build();
	}

	/**
	 * The chart's {@code values.schema.json}: the type of every value, with a
	 * {@code $comment} saying what it was generated from.
	 */
	String schemaJson(String comment) {
		JsonObject root = new JsonObject();
		root.addProperty("$schema", "http://json-schema.org/draft-07/schema#");
		root.addProperty("$comment", comment);
		objectSchema().entrySet().forEach((entry) -> root.add(entry.getKey(), entry.getValue()));
		// the values a parent chart gives all its subcharts
		JsonObject global = new JsonObject();
		global.addProperty("type", "object");
		global.addProperty("description", "Values a parent chart shares with its subcharts: unused here.");
		root.getAsJsonObject("properties").add("global", global);
		for (Definition definition : this.definitions) {
			JsonObject parent = root;
			String[] keys = definition.path().split("\\.");
			for (int i = 0; i < keys.length - 1; i++) {
				JsonObject properties = parent.getAsJsonObject("properties");
				if (!properties.has(keys[i])) {
					properties.add(keys[i], objectSchema());
				}
				parent = properties.getAsJsonObject(keys[i]);
			}
			JsonObject schema = definition.type().schema();
			schema.addProperty("description", definition.description());
			parent.getAsJsonObject("properties").add(keys[keys.length - 1], schema);
		}
		return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(root) + "\n";
	}

	private static JsonObject objectSchema() {
		JsonObject schema = new JsonObject();
		schema.addProperty("type", "object");
		schema.add("properties", new JsonObject());
		schema.addProperty("additionalProperties", false);
		return schema;
	}

	@SuppressWarnings("unchecked")
	private static void nest(Map<String, Object> tree, String path, Definition definition) {
		int dot = path.indexOf('.');
		if (dot < 0) {
			tree.put(path, definition);
			return;
		}
		Map<String, Object> child = (Map<String, Object>) tree.computeIfAbsent(path.substring(0, dot),
				(key) -> new LinkedHashMap<String, Object>());
		nest(child, path.substring(dot + 1), definition);
	}

	/**
	 * A value of the chart.
	 *
	 * @param path its path in {@code values.yaml}, such as {@code image.tag}
	 * @param type its type
	 * @param defaultValue its default
	 * @param description what it does, its comment in {@code values.yaml}
	 */
	record Definition(String path, Type type, Object defaultValue, String description) {

	}

	/**
	 * The type of a value.
	 */
	enum Type {

		STRING, INTEGER, BOOLEAN, STRINGS, OBJECT, OBJECTS, ENV, LABELS,

		/** A count: an integer from 0. */
		COUNT,

		/**
		 * An image's tag: a string, or a number as {@code --set image.tag=20250101} gives
		 * it.
		 */
		TAG,

		/** An image pull policy, or empty for Kubernetes' default. */
		PULL_POLICY,

		/** The namespaces the operator watches: a list of distinct strings. */
		NAMESPACES,

		/** An integer from 0, or a percentage ({@code "50%"}). */
		INT_OR_PERCENT;

		private static final List<String> PULL_POLICIES = List.of("", "Always", "IfNotPresent", "Never");

		Object check(@Nullable Object value, String source, String path) {
			if (this == TAG && (value instanceof Integer || value instanceof Long)) {
				return String.valueOf(value);
			}
			boolean valid = switch (this) {
				case STRING, TAG -> value instanceof String;
				case COUNT -> value instanceof Integer count && count >= 0;
				case PULL_POLICY -> PULL_POLICIES.contains(value);
				case NAMESPACES -> value instanceof List<?> list && list.stream().allMatch(String.class::isInstance)
						&& list.stream().distinct().count() == list.size();
				case INT_OR_PERCENT -> (value instanceof Integer count && count >= 0)
						|| (value instanceof String text && text.matches("[0-9]+%"));
				case INTEGER -> value instanceof Integer;
				case BOOLEAN -> value instanceof Boolean;
				case STRINGS -> value instanceof List<?> list && list.stream().allMatch(String.class::isInstance);
				case OBJECT -> value instanceof Map;
				case OBJECTS -> value instanceof List<?> list && list.stream().allMatch(Map.class::isInstance);
				case ENV -> value instanceof List<?> list && list.stream()
					.allMatch((item) -> item instanceof Map<?, ?> map && map.get("name") instanceof String);
				case LABELS ->
					value instanceof Map<?, ?> map && map.values().stream().allMatch(String.class::isInstance);
			};
			if (!valid) {
				String expected = switch (this) {
					case STRING -> "a string (quote a number: \"0.1\")";
					case TAG -> "a string or a number";
					case COUNT -> "an integer from 0";
					case PULL_POLICY -> "Always, IfNotPresent, Never or empty";
					case NAMESPACES -> "a list of distinct namespaces (operator.namespaces), none for all";
					case INT_OR_PERCENT -> "an integer from 0 or a percentage (\"50%\")";
					case INTEGER -> "an integer";
					case BOOLEAN -> "true or false";
					case STRINGS -> "a list of strings";
					case OBJECT -> "a mapping";
					case OBJECTS -> "a list of mappings";
					case ENV -> "a list of variables, each a mapping with a name (and value or valueFrom)";
					case LABELS -> "a mapping of strings (quote a number: \"8081\")";
				};
				throw new IllegalArgumentException(
						source + ": values." + path + " must be " + expected + ", not " + value);
			}
			return value;
		}

		JsonObject schema() {
			JsonObject schema = new JsonObject();
			switch (this) {
				case STRING -> schema.addProperty("type", "string");
				case TAG -> {
					JsonArray types = new JsonArray();
					types.add("string");
					types.add("integer");
					schema.add("type", types);
				}
				case COUNT -> {
					schema.addProperty("type", "integer");
					schema.addProperty("minimum", 0);
				}
				case PULL_POLICY -> {
					schema.addProperty("type", "string");
					JsonArray values = new JsonArray();
					PULL_POLICIES.forEach(values::add);
					schema.add("enum", values);
				}
				case NAMESPACES -> {
					schema.addProperty("type", "array");
					schema.addProperty("uniqueItems", true);
					JsonObject items = new JsonObject();
					items.addProperty("type", "string");
					schema.add("items", items);
				}
				case INT_OR_PERCENT -> {
					JsonObject count = new JsonObject();
					count.addProperty("type", "integer");
					count.addProperty("minimum", 0);
					JsonObject percent = new JsonObject();
					percent.addProperty("type", "string");
					percent.addProperty("pattern", "^[0-9]+%$");
					JsonArray oneOf = new JsonArray();
					oneOf.add(count);
					oneOf.add(percent);
					schema.add("oneOf", oneOf);
				}
				case INTEGER -> schema.addProperty("type", "integer");
				case BOOLEAN -> schema.addProperty("type", "boolean");
				case STRINGS -> {
					schema.addProperty("type", "array");
					JsonObject items = new JsonObject();
					items.addProperty("type", "string");
					schema.add("items", items);
				}
				case OBJECT -> schema.addProperty("type", "object");
				case OBJECTS, ENV -> {
					schema.addProperty("type", "array");
					JsonObject items = new JsonObject();
					items.addProperty("type", "object");
					if (this == ENV) {
						JsonObject name = new JsonObject();
						name.addProperty("type", "string");
						JsonObject properties = new JsonObject();
						properties.add("name", name);
						items.add("properties", properties);
						JsonArray required = new JsonArray();
						required.add("name");
						items.add("required", required);
					}
					schema.add("items", items);
				}
				case LABELS -> {
					schema.addProperty("type", "object");
					JsonObject string = new JsonObject();
					string.addProperty("type", "string");
					schema.add("additionalProperties", string);
				}
			}
			return schema;
		}

	}

}
