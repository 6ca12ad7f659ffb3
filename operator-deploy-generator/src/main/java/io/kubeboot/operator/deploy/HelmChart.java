package io.kubeboot.operator.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The Helm chart of an operator: {@code Chart.yaml}, {@code values.yaml} with the
 * settings' values as defaults, {@code values.schema.json}, the CRDs in {@code crds/}
 * (which Helm installs before the templates and never upgrades or deletes), and the same
 * templates the plain manifests are rendered from, with the checks that refuse values the
 * operator cannot run with.
 */
final class HelmChart {

	private final Rendering rendering;

	private final List<String> header;

	private final String version;

	HelmChart(Rendering rendering, List<String> header, String version) {
		this.rendering = rendering;
		this.header = header;
		this.version = version;
	}

	Map<String, String> files(Map<String, Function<Rendering, List<Object>>> templates) {
		Map<String, String> files = new LinkedHashMap<>();
		files.put("Chart.yaml", chartYaml());
		files.put("values.yaml", this.rendering.values().valuesYaml(this.header));
		files.put("values.schema.json", this.rendering.values().schemaJson(String.join(" ", this.header)));
		StringBuilder ignore = new StringBuilder();
		this.header.forEach((line) -> ignore.append("# ").append(line).append('\n'));
		files.put(".helmignore", ignore.append(".git/\n*.orig\n*.rej\n*~\n").toString());
		for (String crd : this.rendering.model().crds()) {
			files.put("crds/" + crdName(crd) + ".yaml", crd);
		}
		files.put("templates/_helpers.tpl", helpers());
		if (!this.rendering.model().policies().isEmpty()) {
			// one copy per cluster, like the CRDs: a second release of the operator
			// leaves them out
			files.put("templates/policy.yaml", "{{- if $.Values.admissionPolicies.enabled }}\n"
					+ String.join("---\n", this.rendering.model().policies()) + "{{- end }}\n");
		}
		for (Map.Entry<String, Function<Rendering, List<Object>>> template : templates.entrySet()) {
			List<Object> documents = template.getValue().apply(this.rendering);
			if (documents.isEmpty()) {
				continue;
			}
			if (template.getKey().equals("deployment.yaml")) {
				// values the operator cannot run with fail the install
				documents = new ArrayList<>(documents);
				documents.add(0, new Template.Action("{{- include \"" + this.rendering.name() + ".checks\" $ }}"));
			}
			files.put("templates/" + template.getKey(), TemplateWriter.helm(this.header, documents));
		}
		this.rendering.settings().extraFiles().forEach((name, content) -> {
			if (files.containsKey("templates/" + name)) {
				throw new IllegalArgumentException(this.rendering.settings().source() + ": "
						+ DeploySettings.EXTRA_DIRECTORY + "/" + name + " has the name of a generated template");
			}
			files.put("templates/" + name, content);
		});
		files.put("templates/NOTES.txt", notes());
		return files;
	}

	private String chartYaml() {
		String description = this.rendering.settings().description();
		Template.MappingBuilder chart = Template.map()
			.put("apiVersion", "v2")
			.put("name", this.rendering.name())
			.put("description", (description != null) ? description : "The operator " + this.rendering.name());
		this.rendering.settings().chartMetadata().forEach(chart::put);
		chart.put("type", "application")
			.put("version", this.version)
			.put("appVersion", String.valueOf(this.rendering.values().get("image.tag")))
			.comment("the oldest Kubernetes minor the chart is tested on (by the project's CI)")
			.put("kubeVersion", ">=1.34.0-0");
		return TemplateWriter.plain(this.header, chart.build());
	}

	@SuppressWarnings("unchecked")
	private static String crdName(String crd) {
		for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(crd)) {
			if (document instanceof Map<?, ?> map) {
				return String.valueOf(WebhookTemplates.get(map, "metadata", "name"));
			}
		}
		throw new IllegalArgumentException("A CRD without a name: " + crd);
	}

	/**
	 * The helpers: the JVM options, and the checks of the values that
	 * {@code deployment.yaml} includes, each failing the install with what to change.
	 */
	private String helpers() {
		String name = this.rendering.name();
		String namespace = this.rendering.settings().namespace();
		ChartValues values = this.rendering.values();
		StringBuilder tpl = new StringBuilder();
		for (String line : this.header) {
			tpl.append("{{/* ").append(line).append(" */}}\n");
		}
		tpl.append("\n{{/* The operator's name, or nameOverride: the label app.kubernetes.io/name */}}\n");
		tpl.append("{{- define \"").append(name).append(".name\" -}}\n");
		tpl.append("{{- default \"").append(name).append("\" $.Values.nameOverride | trunc 40 | trimSuffix \"-\" }}\n");
		tpl.append("{{- end }}\n\n");
		tpl.append("{{/* The name of the release's objects: fullnameOverride, else the release's name, followed by "
				+ "the operator's unless it holds it; at most 40 characters, so that the suffixed names fit */}}\n");
		tpl.append("{{- define \"").append(name).append(".fullname\" -}}\n");
		tpl.append("{{- if $.Values.fullnameOverride }}\n");
		tpl.append("{{- $.Values.fullnameOverride | trunc 40 | trimSuffix \"-\" }}\n");
		tpl.append("{{- else }}\n");
		tpl.append("{{- $name := default \"").append(name).append("\" $.Values.nameOverride }}\n");
		tpl.append("{{- if contains $name $.Release.Name }}\n");
		tpl.append("{{- $.Release.Name | trunc 40 | trimSuffix \"-\" }}\n");
		tpl.append("{{- else }}\n");
		tpl.append("{{- printf \"%s-%s\" $.Release.Name $name | trunc 40 | trimSuffix \"-\" }}\n");
		tpl.append("{{- end }}\n{{- end }}\n{{- end }}\n\n");
		tpl.append("{{/* The name of the release's cluster-scoped objects, and of those in other namespaces: the "
				+ "full name, and the release's namespace unless it is ")
			.append(namespace)
			.append(", so that releases of one name in two namespaces do not collide */}}\n");
		tpl.append("{{- define \"").append(name).append(".clusterName\" -}}\n");
		tpl.append("{{- if eq $.Release.Namespace ").append(TemplateWriter.quoted(namespace)).append(" }}\n");
		tpl.append("{{- include \"").append(name).append(".fullname\" $ }}\n");
		tpl.append("{{- else }}\n");
		tpl.append("{{- printf \"%s-%s\" (include \"").append(name).append(".fullname\" $) $.Release.Namespace }}\n");
		tpl.append("{{- end }}\n{{- end }}\n\n");
		tpl.append("{{/* The ServiceAccount the pods run as */}}\n");
		tpl.append("{{- define \"").append(name).append(".serviceAccountName\" -}}\n");
		tpl.append("{{- default (include \"").append(name).append(".fullname\" $) $.Values.serviceAccount.name }}\n");
		tpl.append("{{- end }}\n\n");
		tpl.append("{{/* The label helm.sh/chart */}}\n");
		tpl.append("{{- define \"").append(name).append(".chart\" -}}\n");
		tpl.append(
				"{{- printf \"%s-%s\" $.Chart.Name $.Chart.Version | replace \"+\" \"_\" | trunc 63 | trimSuffix \"-\" }}\n");
		tpl.append("{{- end }}\n");
		tpl.append("\n{{/* The JVM options of JAVA_TOOL_OPTIONS: the image's AOT cache or CDS archive, then "
				+ "javaToolOptions */}}\n");
		tpl.append("{{- define \"").append(name).append(".javaToolOptions\" -}}\n");
		tpl.append("{{- $options := list -}}\n");
		tpl.append("{{- with $.Values.image.aotCache }}{{ $options = append $options (printf \"-XX:AOTCache=%s\" .) }}"
				+ "{{ end -}}\n");
		tpl.append("{{- with $.Values.image.cds }}{{ $options = append $options (printf \"-XX:SharedArchiveFile=%s\" .)"
				+ " }}{{ end -}}\n");
		tpl.append("{{- with $.Values.javaToolOptions }}{{ $options = append $options . }}{{ end -}}\n");
		tpl.append("{{- join \" \" $options -}}\n");
		tpl.append("{{- end }}\n\n");
		tpl.append("{{/* Values the operator cannot run with fail the install */}}\n");
		tpl.append("{{- define \"").append(name).append(".checks\" -}}\n");
		List<String[]> checks = new ArrayList<>();
		checks.add(new String[] { "and (gt (int $.Values.replicas) 1) (not $.Values.leaderElection.enabled)",
				"replicas is above 1 but leaderElection.enabled is false: every replica would run the controllers" });
		checks.add(new String[] { "and (not $.Values.serviceAccount.create) (not $.Values.serviceAccount.name)",
				"serviceAccount.name must name the ServiceAccount to run as when serviceAccount.create is false" });
		if (values.has("webhook.certManager.enabled")) {
			checks.add(new String[] { "and (not $.Values.webhook.certManager.enabled) (not $.Values.webhook.caBundle)",
					"webhook.caBundle must be given when webhook.certManager.enabled is false: the API server would "
							+ "not trust the webhook" });
		}
		if (values.has("metrics.secure")) {
			checks.add(new String[] {
					"and $.Values.metrics.scraper.serviceAccount.name (not $.Values.metrics.scraper.serviceAccount.namespace)",
					"metrics.scraper.serviceAccount.namespace must be given with metrics.scraper.serviceAccount.name: a "
							+ "ServiceAccount is bound in its namespace" });
			checks.add(new String[] { "not $.Values.metrics.serviceMonitor.tokenSecret.key",
					"metrics.serviceMonitor.tokenSecret.key must name the Secret's key of the token" });
		}
		List<WebhookRegistration> locking = WebhookTemplates.lockingOut(this.rendering.model());
		if (!locking.isEmpty()) {
			checks.add(new String[] { "has $.Release.Namespace $.Values.watchNamespaces",
					"watchNamespaces names the release's namespace, where the operator runs, and "
							+ String.join(", ", locking.stream().map(WebhookRegistration::name).toList())
							+ " refuse requests while no replica answers: the operator's own pods could not be "
							+ "created; watch another namespace" });
		}
		List<String> converted = WebhookTemplates.converted(this.rendering.model());
		if (!converted.isEmpty()) {
			checks.add(new String[] { "ne $.Release.Namespace " + TemplateWriter.quoted(namespace),
					"the CRDs of crds/ (" + String.join(", ", converted) + ") convert by the webhook in namespace "
							+ namespace + ": install the chart there, or regenerate it for another namespace" });
			checks.add(new String[] { "ne (include \"" + name + ".fullname\" $) " + TemplateWriter.quoted(name),
					"the CRDs of crds/ (" + String.join(", ", converted) + ") convert by the webhook Service " + name
							+ "-webhook: name the release " + name + " (or set fullnameOverride=" + name + ")" });
		}
		for (String[] check : checks) {
			tpl.append("{{- if ").append(check[0]).append(" }}\n");
			tpl.append("{{- fail ").append(TemplateWriter.quoted(check[1])).append(" }}\n");
			tpl.append("{{- end }}\n");
		}
		List<String> derived = ChartValues.DERIVED_ENV.stream().map(TemplateWriter::quoted).toList();
		tpl.append("{{- range $.Values.env }}\n");
		tpl.append("{{- if or (has .name (list ")
			.append(String.join(" ", derived))
			.append(")) (hasPrefix ")
			.append(TemplateWriter.quoted(ChartValues.DERIVED_ENV_PREFIX))
			.append(" .name) }}\n");
		tpl.append("{{- fail (printf \"env names %s, which the chart derives (from the values or the application's "
				+ "properties the chart was generated for): set the value or the property instead\" .name) }}\n");
		tpl.append("{{- end }}\n{{- end }}\n");
		tpl.append("{{- end }}\n");
		return tpl.toString();
	}

	private String notes() {
		String name = this.rendering.name();
		StringBuilder notes = new StringBuilder();
		for (String line : this.header) {
			notes.append("{{- /* ").append(line).append(" */}}\n");
		}
		notes.append(name)
			.append(" runs in namespace {{ .Release.Namespace }}, watching ")
			.append("{{ if .Values.watchNamespaces }}{{ if gt (len .Values.watchNamespaces) 1 }}namespaces")
			.append("{{ else }}namespace{{ end }} {{ join \", \" .Values.watchNamespaces }}")
			.append("{{ else }}all namespaces{{ end }}.\n\n");
		String fullname = "{{ include \"" + name + ".fullname\" . }}";
		notes.append("  kubectl -n {{ .Release.Namespace }} rollout status deployment/").append(fullname).append('\n');
		notes.append("  kubectl -n {{ .Release.Namespace }} logs deployment/").append(fullname).append('\n');
		notes.append("\nThe pods meet the restricted Pod Security Standard; hold the namespace to it:\n");
		notes.append(
				"  kubectl label namespace {{ .Release.Namespace }} pod-security.kubernetes.io/enforce=restricted\n");
		String metricsPath = this.rendering.model().metricsPath();
		if (metricsPath != null) {
			notes.append("{{- if .Values.metrics.secure }}\n\n");
			notes.append(metricsPath + " answers only callers whose token the API server authenticates and whom RBAC "
					+ "lets get the path (metrics.secure): bind the ClusterRole {{ include \"" + name
					+ ".clusterName\" . }}-metrics-reader to whoever scrapes it{{ with "
					+ ".Values.metrics.scraper.serviceAccount.name }} (it is bound to the ServiceAccount "
					+ "{{ $.Values.metrics.scraper.serviceAccount.namespace }}/{{ . }}){{ end }}.\n");
			notes.append("{{- end }}\n");
			notes.append("{{- if .Values.networkPolicy.enabled }}\n\n");
			notes.append("The NetworkPolicy admits scrapes of the metrics from the namespace "
					+ "{{ .Values.networkPolicy.metricsNamespace }} only (networkPolicy.metricsNamespace): set it to "
					+ "where Prometheus runs.\n");
			notes.append("{{- end }}\n");
		}
		if (this.rendering.servesWebhooks()) {
			notes.append("{{- if .Values.webhook.certManager.enabled }}\n\n");
			notes.append("The webhooks' certificate comes from cert-manager, which must run in the cluster:\n");
			notes.append("  kubectl -n {{ .Release.Namespace }} get certificate ")
				.append(fullname)
				.append("-webhook\n");
			notes.append("{{- end }}\n");
		}
		return notes.toString();
	}

}
