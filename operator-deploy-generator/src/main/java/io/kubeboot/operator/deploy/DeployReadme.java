package io.kubeboot.operator.deploy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code README.md} of the plain manifests: what each file holds and the commands
 * that apply them, or install the chart, in the order that works.
 */
final class DeployReadme {

	private DeployReadme() {
	}

	static String of(Rendering rendering, Set<String> files, List<String> header) {
		String name = rendering.name();
		String namespace = rendering.settings().namespace();
		Map<String, String> holds = new LinkedHashMap<>();
		holds.put("namespace.yaml", "the namespace `" + namespace + "`, held to the restricted Pod Security Standard");
		holds.put("crd.yaml", "the CustomResourceDefinitions, as `operator-crd-generator` wrote them");
		holds.put("policy.yaml", "the ValidatingAdmissionPolicies of the model and their bindings");
		holds.put("rbac.yaml", "the ServiceAccount and the roles its manager needs, each rule with its reason, and "
				+ "with secured metrics the role of their scrapers");
		holds.put("service.yaml", "the Services of the webhooks and of the metrics");
		holds.put("certificate.yaml",
				"the cert-manager Issuers and Certificates of the webhooks' CA and serving certificate");
		holds.put("webhook.yaml", "the webhook configurations of the validators and defaulters the operator serves");
		holds.put("deployment.yaml", "the Deployment, and a PodDisruptionBudget with more than one replica");
		holds.put("networkpolicy.yaml", "who may connect to the pods");
		holds.put("servicemonitor.yaml", "the Prometheus Operator's ServiceMonitor of the metrics");
		holds.put(DeployManifests.MEMBER_RBAC, "what every member cluster of the fleet must grant: to apply there, "
				+ "not in the home cluster (not in the chart)");
		StringBuilder readme = new StringBuilder();
		readme.append("<!--\n");
		header.forEach((line) -> readme.append(line).append('\n'));
		readme.append("-->\n");
		readme.append("# Deploying ").append(name).append("\n\n");
		readme
			.append("Every file here is generated; `chart/` is a Helm chart of the same objects, whose default values "
					+ "render exactly these files.\n\n");
		readme.append("| file | what it holds |\n|---|---|\n");
		holds.forEach((file, what) -> {
			if (files.contains(file)) {
				readme.append("| `").append(file).append("` | ").append(what).append(" |\n");
			}
		});
		for (String extra : rendering.settings().extraFiles().keySet()) {
			readme.append("| `")
				.append(extra)
				.append("` | the project's own, copied from `")
				.append(DeploySettings.EXTRA_DIRECTORY)
				.append("/` beside the settings |\n");
		}
		readme.append("| `chart/` | the Helm chart |\n\n");
		readme.append("## With kubectl\n\n```shell\n");
		readme.append("kubectl apply -f namespace.yaml");
		if (files.contains("crd.yaml")) {
			readme.append(" -f crd.yaml\nkubectl wait --for condition=established -f crd.yaml");
		}
		readme.append('\n');
		for (String file : List.of("policy.yaml", "rbac.yaml", "service.yaml")) {
			if (files.contains(file)) {
				readme.append("kubectl apply -f ").append(file).append('\n');
			}
		}
		for (String extra : rendering.settings().extraFiles().keySet()) {
			readme.append("kubectl apply -f ").append(extra).append('\n');
		}
		if (files.contains("certificate.yaml")) {
			readme.append("kubectl apply -f certificate.yaml      # needs cert-manager\n");
		}
		if (files.contains("webhook.yaml")) {
			readme.append("kubectl apply -f webhook.yaml\n");
		}
		readme.append("kubectl apply -f deployment.yaml\n");
		if (files.contains("networkpolicy.yaml")) {
			readme.append("kubectl apply -f networkpolicy.yaml\n");
		}
		if (files.contains("servicemonitor.yaml")) {
			readme.append("kubectl apply -f servicemonitor.yaml   # needs the Prometheus Operator's CRDs\n");
		}
		readme.append("kubectl -n ").append(namespace).append(" rollout status deployment/").append(name).append('\n');
		readme.append("```\n\n## With Helm\n\n```shell\n");
		readme.append("helm install ")
			.append(name)
			.append(" chart --namespace ")
			.append(namespace)
			.append(" --create-namespace\n```\n\n");
		readme.append("`helm show values chart` lists what the chart lets you change.\n");
		if (files.contains(DeployManifests.MEMBER_RBAC)) {
			String account = String.valueOf(rendering.serviceAccountName().plain());
			readme.append("\n## In every member cluster\n\n");
			readme
				.append("The fleet's controllers reach each member cluster with its kubeconfig (from a Secret in the "
						+ "home cluster, a file or a bean). `")
				.append(DeployManifests.MEMBER_RBAC)
				.append("` holds, for each member, the namespace `")
				.append(namespace)
				.append("`, the ServiceAccount `")
				.append(account)
				.append("`, the roles the fleet controllers need, and a long-lived token of the account:\n\n```shell\n");
			readme.append("kubectl --context <member> apply -f ").append(DeployManifests.MEMBER_RBAC).append('\n');
			readme.append("kubectl --context <member> -n ")
				.append(namespace)
				.append(" get secret ")
				.append(account)
				.append("-token -o jsonpath='{.data.token}' | base64 -d\n```\n\n");
			readme.append("Put that token and the member's server and CA data in the member's kubeconfig.\n");
		}
		ChartValues values = rendering.values();
		if (values.has("metrics.secure") && (Boolean) values.get("metrics.secure")) {
			readme.append("\n## Who may read the metrics\n\n");
			readme.append("`")
				.append(rendering.model().metricsPath())
				.append("` answers only callers whose bearer token the API server authenticates and whom RBAC lets "
						+ "`get` the path (`operator.metrics.auth.enabled`, from `metrics.secure`). `rbac.yaml` lets the "
						+ "operator ask (the ClusterRole `")
				.append(name)
				.append("-metrics-auth`) and holds the ClusterRole `")
				.append(name)
				.append("-metrics-reader`, ");
			String scraper = (String) values.get("metrics.scraper.serviceAccount.name");
			if (scraper.isEmpty()) {
				readme.append("not bound: bind it to whoever scrapes the metrics.");
			}
			else {
				readme.append("bound to the ServiceAccount `")
					.append(values.get("metrics.scraper.serviceAccount.namespace"))
					.append('/')
					.append(scraper)
					.append("` (`metrics.scraper.serviceAccount`); bind it to any other scraper too.");
			}
			if (files.contains("servicemonitor.yaml")) {
				readme.append(" The ServiceMonitor sends ")
					.append(values.get("metrics.serviceMonitor.tokenSecret.name").equals("")
							? "the token mounted in Prometheus's pod." : "the token of its Secret.");
			}
			readme.append('\n');
		}
		return readme.toString();
	}

}
