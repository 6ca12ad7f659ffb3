package io.kubeboot.operator.crd;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the API server converts objects between the versions of a kind with more than one,
 * from the processor's options: the {@code spec.conversion} of its
 * CustomResourceDefinition, by default a webhook at the starter's conversion path,
 * {@value #PATH}, behind a Service. A kind with one version gets no {@code conversion}
 * (the API server's default, {@code None}).
 *
 * @param webhook whether versions are converted by the webhook ({@code false}:
 * {@code None}, the API server only changes {@code apiVersion})
 * @param service the name of the Service in front of the webhook server
 * @param namespace the Service's namespace
 * @param port the Service's port
 * @param certificate the cert-manager Certificate ({@code namespace/name}) whose CA
 * cert-manager writes into the CRD's {@code caBundle}, or empty
 * @param named whether the options name the Service
 */
record Conversion(boolean webhook, String service, String namespace, int port, String certificate, boolean named) {

	/**
	 * The option that chooses the strategy: {@code Webhook} (the default) or
	 * {@code None}.
	 */
	static final String STRATEGY = "kubeboot.conversion.strategy";

	/** The option naming the webhook's Service. */
	static final String SERVICE = "kubeboot.webhook.service";

	/** The option naming the Service's namespace. */
	static final String NAMESPACE = "kubeboot.webhook.namespace";

	/** The option giving the Service's port. */
	static final String PORT = "kubeboot.webhook.port";

	/** The option naming the cert-manager Certificate for the CA bundle. */
	static final String CERTIFICATE = "kubeboot.webhook.certificate";

	/** The path the starter's {@code ConversionWebhook} serves. */
	static final String PATH = "/convert";

	private static final String DNS_LABEL = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?";

	/**
	 * The conversion the options ask for.
	 * @param options the processor's options
	 * @param diagnostics where problems go
	 * @return the conversion
	 */
	static Conversion of(Map<String, String> options, Diagnostics diagnostics) {
		String strategy = options.getOrDefault(STRATEGY, "Webhook");
		if (!List.of("webhook", "none").contains(strategy.toLowerCase(Locale.ROOT))) {
			diagnostics.error("-A" + STRATEGY + "=" + strategy + " is neither Webhook nor None");
		}
		String service = options.getOrDefault(SERVICE, "webhook-service");
		String namespace = options.getOrDefault(NAMESPACE, "system");
		for (String name : List.of(service, namespace)) {
			if (!name.matches(DNS_LABEL)) {
				diagnostics.error("-A" + (name.equals(service) ? SERVICE : NAMESPACE) + "=" + name
						+ " is no name of Kubernetes: lower-case letters, digits and '-', at most 63");
			}
		}
		String portOption = options.getOrDefault(PORT, "443");
		int port = portOption.matches("[0-9]{1,5}") ? Integer.parseInt(portOption) : -1;
		if (port < 1 || port > 65535) {
			diagnostics.error("-A" + PORT + "=" + portOption + " is no port: 1 to 65535");
		}
		String certificate = options.getOrDefault(CERTIFICATE, "");
		if (!certificate.isEmpty() && !certificate.matches("[a-z0-9.-]+/[a-z0-9.-]+")) {
			diagnostics
				.error("-A" + CERTIFICATE + "=" + certificate + " names no Certificate: give it as namespace/name");
		}
		return new Conversion(strategy.equalsIgnoreCase("webhook"), service, namespace, port, certificate,
				options.containsKey(SERVICE) || options.containsKey(NAMESPACE));
	}

	/**
	 * The {@code spec.conversion} of a CRD whose versions the webhook converts.
	 * @return the stanza
	 */
	Map<String, Object> toMap() {
		Map<String, Object> service = new LinkedHashMap<>();
		service.put("name", this.service);
		service.put("namespace", this.namespace);
		service.put("path", PATH);
		service.put("port", this.port);
		Map<String, Object> webhook = new LinkedHashMap<>();
		webhook.put("conversionReviewVersions", List.of("v1"));
		webhook.put("clientConfig", Map.of("service", service));
		Map<String, Object> conversion = new LinkedHashMap<>();
		conversion.put("strategy", "Webhook");
		conversion.put("webhook", webhook);
		return conversion;
	}

	/**
	 * Where the webhook is, for messages.
	 * @return the Service, port and path
	 */
	String describe() {
		return "the Service " + this.namespace + "/" + this.service + ", port " + this.port + ", path " + PATH;
	}

}
