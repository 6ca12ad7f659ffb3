package io.kubeboot.operator.deploy;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.kubeboot.operator.deploy.Template.Cond;
import io.kubeboot.operator.deploy.Template.Document;
import io.kubeboot.operator.deploy.Template.Mapping;
import io.kubeboot.operator.deploy.Template.MappingBuilder;
import io.kubeboot.operator.deploy.Template.Scalar;
import io.kubeboot.operator.deploy.Template.SequenceBuilder;
import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The webhook configurations derived from the webhooks the operator serves, the
 * cert-manager Issuer and Certificate of their serving certificate, and the check that
 * the CustomResourceDefinitions' conversion webhooks (written by
 * {@code operator-crd-generator} from its options) point where these manifests put the
 * webhook server.
 */
final class WebhookTemplates {

	static final String INJECT_CA = "cert-manager.io/inject-ca-from";

	/** The label every namespace carries with its name. */
	static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

	/**
	 * The kinds without which the operator's own pods cannot be created or rolled out: a
	 * webhook on them that refuses while no replica answers locks the operator out.
	 */
	private static final Set<String> WORKLOAD_RESOURCES = Set.of("/pods", "apps/replicasets", "apps/deployments");

	private static final String CONVERT_PATH = "/convert";

	private static final String CA_DURATION = "87600h";

	private WebhookTemplates() {
	}

	/**
	 * A CA of the operator's own, as kubebuilder scaffolds it: a self-signed Issuer signs
	 * a long-lived CA Certificate, whose Issuer signs the serving certificate. The API
	 * server trusts the CA (cert-manager's CA injector writes the {@code ca.crt} of the
	 * serving certificate's Secret, which is the CA's), so a renewed serving certificate
	 * is trusted before a pod serves it, and no renewal opens a window where the webhooks
	 * and conversions fail.
	 */
	static List<Object> certificates(Rendering rendering) {
		Scalar namespace = rendering.namespace();
		Mapping selfSigned = rendering
			.object("cert-manager.io/v1", "Issuer", rendering.metadata(rendering.issuer(), namespace, "webhook"))
			.put("spec", Template.map().put("selfSigned", Template.map().build()).build())
			.build();
		Mapping caCertificate = rendering
			.object("cert-manager.io/v1", "Certificate", rendering.metadata(rendering.ca(), namespace, "webhook"))
			.put("spec",
					Template.map()
						.put("isCA", true)
						.put("commonName", rendering.ca())
						.put("secretName", rendering.ca())
						.comment("ten years: cert-manager renews it after two thirds")
						.put("duration", CA_DURATION)
						.put("issuerRef", Template.map().put("kind", "Issuer").put("name", rendering.issuer()).build())
						.build())
			.build();
		Mapping caIssuer = rendering
			.object("cert-manager.io/v1", "Issuer", rendering.metadata(rendering.ca(), namespace, "webhook"))
			.put("spec", Template.map().put("ca", Template.map().put("secretName", rendering.ca()).build()).build())
			.build();
		Mapping certificate = rendering
			.object("cert-manager.io/v1", "Certificate",
					rendering.metadata(rendering.certificate(), namespace, "webhook"))
			.put("spec",
					Template.map()
						.put("secretName", rendering.certificateSecret())
						.put("dnsNames", Template.seq()
							.add(Template.concat(rendering.webhookService(), ".", namespace, ".svc"))
							.add(Template.concat(rendering.webhookService(), ".", namespace, ".svc.cluster.local"))
							.build())
						.put("issuerRef", Template.map().put("kind", "Issuer").put("name", rendering.ca()).build())
						.build())
			.build();
		Cond certManager = rendering.values().isTrue("webhook.certManager.enabled");
		return List.of(
				new Document(List.of("The webhooks' CA, kept by cert-manager: a self-signed Issuer signs the CA "
						+ "certificate (Secret " + rendering.name()
						+ "-ca), whose Issuer signs the serving certificate"), selfSigned, certManager),
				new Document(List.of(), caCertificate, certManager), new Document(List.of(), caIssuer, certManager),
				new Document(List.of("The serving certificate, kept and renewed by cert-manager in the Secret "
						+ rendering.name() + "-webhook-tls, which the pods mount; its CA injector writes the CA into "
						+ "the webhook configurations (the " + INJECT_CA + " annotation), so the API server trusts a "
						+ "renewed certificate before a pod serves it"), certificate, certManager));
	}

	static List<Object> configurations(Rendering rendering) {
		List<Object> documents = new ArrayList<>();
		for (boolean mutating : new boolean[] { false, true }) {
			List<WebhookRegistration> webhooks = rendering.model()
				.webhooks()
				.stream()
				.filter((webhook) -> webhook.mutating() == mutating)
				.toList();
			if (webhooks.isEmpty()) {
				continue;
			}
			SequenceBuilder entries = Template.seq();
			for (WebhookRegistration webhook : webhooks) {
				entries.add(webhook(rendering, webhook));
			}
			Cond certManager = rendering.values().isTrue("webhook.certManager.enabled");
			Mapping metadata = Template.map()
				.put("name", rendering.clusterNamed(""))
				.put("labels", rendering.labels(null))
				.comment("cert-manager's CA injector keeps caBundle of every webhook below")
				.when(certManager)
				.put("annotations",
						Template.map()
							.put(INJECT_CA, Template.concat(rendering.namespace(), "/", rendering.certificate()))
							.build())
				.build();
			String kind = mutating ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration";
			Mapping configuration = Template.map()
				.put("apiVersion", "admissionregistration.k8s.io/v1")
				.put("kind", kind)
				.put("metadata", metadata)
				.put("webhooks", entries.build())
				.build();
			documents.add(new Document(List.of(mutating
					? "The defaulters the operator serves: the API server sends them the objects it is about to store"
					: "The validators the operator serves: the API server asks them before it stores an object"),
					configuration, Cond.ALWAYS));
		}
		return documents;
	}

	private static Mapping webhook(Rendering rendering, WebhookRegistration webhook) {
		ChartValues values = rendering.values();
		Cond caBundle = values.isTrue("webhook.certManager.enabled").not().and(values.notEmpty("webhook.caBundle"));
		MappingBuilder entry = Template.map()
			.put("name", webhook.name())
			.put("admissionReviewVersions", Template.flow(List.of("v1")))
			.put("clientConfig",
					Template.map()
						.put("service",
								Template.map()
									.put("name", rendering.webhookService())
									.put("namespace", rendering.namespace())
									.put("path", webhook.path())
									.put("port", Rendering.WEBHOOK_SERVICE_PORT)
									.build())
						.when(caBundle)
						.put("caBundle", values.string("webhook.caBundle"))
						.build())
			.put("rules",
					Template.seq()
						.add(Template.map()
							.put("apiGroups", Template.flow(List.of(webhook.group())))
							.put("apiVersions", Template.flow(List.of(webhook.version())))
							.put("resources", Template.flow(List.of(webhook.resource())))
							.put("operations", Template.flow(webhook.operations()))
							.put("scope", webhook.namespaced() ? "Namespaced" : "Cluster")
							.build())
						.build())
			.comment(webhook.failurePolicy().equals("Fail")
					? "refuse what cannot be checked while the operator does not answer"
					: "let requests through while the operator does not answer")
			.put("failurePolicy", webhook.failurePolicy())
			.comment("requests for other versions of the kind are converted to this one")
			.put("matchPolicy", "Equivalent")
			.put("sideEffects", "None")
			.put("timeoutSeconds", webhook.timeoutSeconds());
		Cond watching = values.notEmpty("watchNamespaces");
		if (ownKind(rendering, webhook) && webhook.namespaceSelector().isEmpty()) {
			entry.comment("while the operator watches some namespaces, only requests there")
				.when(watching)
				.put("namespaceSelector", selector(List.of(), List.of(watched(rendering))));
		}
		else {
			entry.comment(ownKind(rendering, webhook)
					? "while the operator watches some namespaces, only requests there"
					: "only requests in the namespaces the operator watches; watching all, none of kube-system nor the "
							+ "operator's own: a webhook that does not answer would stop them")
				.put("namespaceSelector", namespaceSelector(rendering, webhook, watching));
		}
		if (!webhook.objectSelector().isEmpty()) {
			entry.put("objectSelector", selector(webhook.objectSelector(), List.of()));
		}
		if (!webhook.matchConditions().isEmpty()) {
			SequenceBuilder conditions = Template.seq();
			for (WebhookRegistration.MatchCondition condition : webhook.matchConditions()) {
				conditions.add(
						Template.map().put("name", condition.name()).put("expression", condition.expression()).build());
			}
			entry.comment("the API server calls the webhook only when all of these hold")
				.put("matchConditions", conditions.build());
		}
		if (webhook.mutating()) {
			entry.put("reinvocationPolicy", "Never");
		}
		return entry.build();
	}

	private static Mapping namespaceSelector(Rendering rendering, WebhookRegistration webhook, Cond watching) {
		List<Mapping> conditional = new ArrayList<>();
		conditional.add(watched(rendering));
		if (!ownKind(rendering, webhook)) {
			conditional.add(Template.map()
				.put("key", NAMESPACE_NAME_LABEL)
				.put("operator", "NotIn")
				.put("values", Template.flow(new Scalar("kube-system", null), rendering.namespace()))
				.build());
		}
		SequenceBuilder expressions = Template.seq();
		expressions.when(watching).add(conditional.get(0));
		if (conditional.size() > 1) {
			expressions.when(watching.not()).add(conditional.get(1));
		}
		for (LabelSelectors.Requirement requirement : webhook.namespaceSelector()) {
			expressions.add(requirement(requirement));
		}
		return Template.map().put("matchExpressions", expressions.build()).build();
	}

	/**
	 * The requirement of the namespaces the operator watches.
	 */
	private static Mapping watched(Rendering rendering) {
		return Template.map()
			.put("key", NAMESPACE_NAME_LABEL)
			.put("operator", "In")
			.put("values",
					Template.seq()
						.each("$.Values.watchNamespaces", rendering.values().get("watchNamespaces"),
								(key, value) -> value)
						.build())
			.build();
	}

	private static Mapping selector(List<LabelSelectors.Requirement> requirements, List<Mapping> more) {
		SequenceBuilder expressions = Template.seq();
		more.forEach(expressions::add);
		requirements.forEach((requirement) -> expressions.add(requirement(requirement)));
		return Template.map().put("matchExpressions", expressions.build()).build();
	}

	private static Mapping requirement(LabelSelectors.Requirement requirement) {
		Template.MappingBuilder expression = Template.map()
			.put("key", requirement.key())
			.put("operator", requirement.operator());
		if (!requirement.values().isEmpty()) {
			expression.put("values", Template.flow(requirement.values()));
		}
		return expression.build();
	}

	/**
	 * Whether a webhook's kind is one of the operator's own CRDs.
	 */
	static boolean ownKind(Rendering rendering, WebhookRegistration webhook) {
		return crdNames(rendering.model()).contains(webhook.resource() + "." + webhook.group());
	}

	/**
	 * The webhooks that refuse requests for the kinds the operator's own pods need while
	 * no replica answers.
	 */
	static List<WebhookRegistration> lockingOut(DeployModel model) {
		return model.webhooks()
			.stream()
			.filter((webhook) -> webhook.failurePolicy().equals("Fail")
					&& WORKLOAD_RESOURCES.contains(webhook.group() + "/" + webhook.resource()))
			.toList();
	}

	/**
	 * Refuses values under which a webhook could lock the operator out of its own
	 * namespace: one that refuses Pods (or ReplicaSets, Deployments) while no replica
	 * answers, with the operator watching its own namespace.
	 * @throws IllegalArgumentException naming the webhooks and the value
	 */
	static void checkLockOut(Rendering rendering) {
		List<WebhookRegistration> locking = lockingOut(rendering.model());
		if (!locking.isEmpty()
				&& rendering.values().strings("watchNamespaces").contains(rendering.settings().namespace())) {
			throw new IllegalArgumentException(rendering.settings().source() + ": values.watchNamespaces names "
					+ rendering.settings().namespace() + ", where the operator runs, and "
					+ String.join(", ", locking.stream().map(WebhookRegistration::name).toList())
					+ " refuse requests while no replica answers (failurePolicy FAIL): the operator's own pods could "
					+ "not be created; watch another namespace, or give the webhook failurePolicy IGNORE");
		}
	}

	/**
	 * The names of the CRDs of the model.
	 */
	static Set<String> crdNames(DeployModel model) {
		Set<String> names = new LinkedHashSet<>();
		for (String yaml : model.crds()) {
			for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
				if (document instanceof Map<?, ?> crd) {
					names.add(String.valueOf(get(crd, "metadata", "name")));
				}
			}
		}
		return names;
	}

	/**
	 * Checks that every CRD converted by webhook points at this operator's webhook
	 * Service, in the namespace the manifests install it in, and that the operator
	 * converts exactly those.
	 * @throws IllegalArgumentException listing every difference and the generator options
	 * that fix it
	 */
	@SuppressWarnings("unchecked")
	static void checkConversions(Rendering rendering) {
		List<String> problems = new ArrayList<>();
		Set<String> converted = new LinkedHashSet<>();
		String namespace = rendering.settings().namespace();
		boolean certManager = !rendering.values().has("webhook.certManager.enabled")
				|| (Boolean) rendering.values().get("webhook.certManager.enabled");
		for (String yaml : rendering.model().crds()) {
			for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
				if (!(document instanceof Map<?, ?> crd)) {
					continue;
				}
				String name = String.valueOf(get(crd, "metadata", "name"));
				if (!"Webhook".equals(get(crd, "spec", "conversion", "strategy"))) {
					continue;
				}
				converted.add(name);
				Map<String, Object> service = (Map<String, Object>) get(crd, "spec", "conversion", "webhook",
						"clientConfig", "service");
				if (service == null) {
					problems.add(name + " converts by a webhook at a URL, not a Service of the operator");
					continue;
				}
				String webhookService = String.valueOf(rendering.webhookService().plain());
				if (!webhookService.equals(service.get("name")) || !namespace.equals(service.get("namespace"))
						|| !Objects.equals(Rendering.WEBHOOK_SERVICE_PORT, service.get("port"))
						|| !CONVERT_PATH.equals(service.get("path"))) {
					problems.add(name + " converts at " + service.get("namespace") + "/" + service.get("name") + ":"
							+ service.get("port") + service.get("path") + ", not at the webhook Service of these "
							+ "manifests, " + namespace + "/" + webhookService + ":" + Rendering.WEBHOOK_SERVICE_PORT
							+ CONVERT_PATH);
				}
				Object injected = get(crd, "metadata", "annotations", INJECT_CA);
				String certificate = namespace + "/" + rendering.certificate().plain();
				if (certManager && !certificate.equals(injected)) {
					problems.add(name + " gets its caBundle from " + ((injected != null) ? injected : "nowhere")
							+ ", not from the Certificate " + certificate);
				}
				if (!certManager) {
					problems.add(name + " converts by webhook, and without cert-manager nothing gives the CRD the "
							+ "webhook's CA (values.webhook.certManager.enabled is false)");
				}
				if (!rendering.model().conversions().contains(name)) {
					problems.add(name + " converts by webhook, but no Conversion bean of the operator converts it");
				}
			}
		}
		for (String conversion : rendering.model().conversions()) {
			if (!converted.contains(conversion)) {
				problems.add("the operator converts " + conversion + ", but its CRD is not generated with "
						+ "conversion by webhook");
			}
		}
		if (!problems.isEmpty()) {
			throw new IllegalArgumentException(
					"The CRDs' conversion webhooks do not match the manifests:\n  - " + String.join("\n  - ", problems)
							+ "\nCompile the model with the options -Akubeboot.webhook.service="
							+ rendering.webhookService().plain() + " -Akubeboot.webhook.namespace=" + namespace
							+ " -Akubeboot.webhook.certificate=" + namespace + "/" + rendering.certificate().plain()
							+ " of operator-crd-generator (in pom.xml, the <compilerArgs> of maven-compiler-plugin)");
		}
	}

	/**
	 * The names of the CRDs converted by webhook.
	 */
	static List<String> converted(DeployModel model) {
		List<String> names = new ArrayList<>();
		for (String yaml : model.crds()) {
			for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
				if (document instanceof Map<?, ?> crd && "Webhook".equals(get(crd, "spec", "conversion", "strategy"))) {
					names.add(String.valueOf(get(crd, "metadata", "name")));
				}
			}
		}
		return names;
	}

	static @Nullable Object get(Map<?, ?> map, String... path) {
		Object node = map;
		for (String key : path) {
			if (!(node instanceof Map<?, ?> child)) {
				return null;
			}
			node = child.get(key);
		}
		return node;
	}

}
