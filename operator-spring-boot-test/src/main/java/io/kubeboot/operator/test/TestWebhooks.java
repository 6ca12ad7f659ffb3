package io.kubeboot.operator.test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1MatchCondition;
import io.kubernetes.client.openapi.models.V1MutatingWebhook;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RuleWithOperations;
import io.kubernetes.client.openapi.models.V1ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.kubernetes.client.util.PatchUtils;

/**
 * Registers webhooks served by the test itself (on {@code 127.0.0.1}) with the local
 * control plane, the counterpart of envtest's {@code WebhookInstallOptions}: the API
 * server then calls them for real, over TLS with the given CA bundle.
 *
 * <pre class="code">
 * try (TestWebhooks webhooks = TestWebhooks.builder(admin, "https://127.0.0.1:" + server.port(), caPem)
 * 	.validating("/validate-test-kubeboot-io-v1-widget", "test.kubeboot.io", "v1", "widgets")
 * 	.onlyIn(namespace)
 * 	.install()) {
 * 	// create widgets in the namespace: the API server calls the validator
 * }
 * </pre>
 *
 * Each registration is a {@code ValidatingWebhookConfiguration} and a
 * {@code MutatingWebhookConfiguration} of a name of its own; {@link #onlyIn} restricts
 * them to one namespace (tests share the control plane), and {@link #close()} deletes
 * them.
 */
public final class TestWebhooks implements AutoCloseable {

	private final ApiClient admin;

	private final String name;

	private final boolean validating;

	private final boolean mutating;

	private TestWebhooks(ApiClient admin, String name, boolean validating, boolean mutating) {
		this.admin = admin;
		this.name = name;
		this.validating = validating;
		this.mutating = mutating;
	}

	/**
	 * Starts a registration.
	 * @param admin a client allowed to manage webhook configurations
	 * @param baseUrl the server's URL, such as {@code https://127.0.0.1:9443}
	 * @param caBundlePem the PEM of the CA that signed the server's certificate
	 * @return the builder
	 */
	public static Builder builder(ApiClient admin, String baseUrl, String caBundlePem) {
		return new Builder(admin, baseUrl, caBundlePem);
	}

	/**
	 * Returns the name of the webhook configurations.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Deletes the webhook configurations.
	 * @throws ApiException if the API server refuses
	 */
	@Override
	public void close() throws ApiException {
		AdmissionregistrationV1Api api = new AdmissionregistrationV1Api(this.admin);
		if (this.validating) {
			api.deleteValidatingWebhookConfiguration(this.name).execute();
		}
		if (this.mutating) {
			api.deleteMutatingWebhookConfiguration(this.name).execute();
		}
	}

	/**
	 * Builds a {@link TestWebhooks} registration.
	 */
	public static final class Builder {

		private final ApiClient admin;

		private final String baseUrl;

		private final byte[] caBundle;

		private final List<Hook> validating = new ArrayList<>();

		private final List<Hook> mutating = new ArrayList<>();

		private Duration timeout = Duration.ofSeconds(10);

		private String failurePolicy = "Fail";

		private TestNamespace namespace;

		private final List<V1MatchCondition> matchConditions = new ArrayList<>();

		private Builder(ApiClient admin, String baseUrl, String caBundlePem) {
			this.admin = Objects.requireNonNull(admin, "admin");
			this.baseUrl = baseUrl.replaceAll("/+$", "");
			this.caBundle = caBundlePem.getBytes(StandardCharsets.US_ASCII);
		}

		/**
		 * Adds a validating webhook.
		 * @param path the path on the server
		 * @param group the API group of the resource
		 * @param version the API version
		 * @param resource the plural resource name
		 * @param operations the operations, {@code CREATE} and {@code UPDATE} if none
		 * @return this builder
		 */
		public Builder validating(String path, String group, String version, String resource, String... operations) {
			this.validating.add(new Hook(path, group, version, resource, operations(operations)));
			return this;
		}

		/**
		 * Adds a mutating webhook.
		 * @param path the path on the server
		 * @param group the API group of the resource
		 * @param version the API version
		 * @param resource the plural resource name
		 * @param operations the operations, {@code CREATE} and {@code UPDATE} if none
		 * @return this builder
		 */
		public Builder mutating(String path, String group, String version, String resource, String... operations) {
			this.mutating.add(new Hook(path, group, version, resource, operations(operations)));
			return this;
		}

		/**
		 * Sets how long the API server waits for an answer (1 to 30 seconds; 10 by
		 * default).
		 * @param timeout the timeout
		 * @return this builder
		 */
		public Builder timeout(Duration timeout) {
			this.timeout = timeout;
			return this;
		}

		/**
		 * Sets what the API server does when a call fails: {@code Fail} (the default)
		 * refuses the request, {@code Ignore} lets it through.
		 * @param failurePolicy {@code Fail} or {@code Ignore}
		 * @return this builder
		 */
		public Builder failurePolicy(String failurePolicy) {
			this.failurePolicy = failurePolicy;
			return this;
		}

		/**
		 * Adds a match condition to every webhook: a CEL expression over {@code object},
		 * {@code oldObject}, {@code request} and {@code authorizer} that must be true for
		 * the API server to call the webhook (GA in Kubernetes 1.30).
		 * @param name the condition's name, unique among the webhook's
		 * @param expression the CEL expression
		 * @return this builder
		 */
		public Builder matchCondition(String name, String expression) {
			this.matchConditions.add(new V1MatchCondition().name(name).expression(expression));
			return this;
		}

		/**
		 * Restricts the webhooks to one namespace, which gets a label to select it by.
		 * @param namespace the namespace
		 * @return this builder
		 */
		public Builder onlyIn(TestNamespace namespace) {
			this.namespace = namespace;
			return this;
		}

		/**
		 * Creates the webhook configurations. The API server applies them within about a
		 * second: wait for the first call with a deadline.
		 * @return the registration, to close after the test
		 * @throws ApiException if the API server refuses
		 */
		public TestWebhooks install() throws ApiException {
			String name = "test-webhooks-" + UUID.randomUUID().toString().substring(0, 8);
			V1LabelSelector selector = null;
			if (this.namespace != null) {
				String label = "webhooks.test.kubeboot.io/" + name;
				PatchUtils.patch(Object.class,
						() -> new CoreV1Api(this.admin)
							.patchNamespace(this.namespace.name(),
									new V1Patch("{\"metadata\":{\"labels\":{\"" + label + "\":\"true\"}}}"))
							.buildCall(null),
						V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, this.admin);
				selector = new V1LabelSelector().matchLabels(Map.of(label, "true"));
			}
			AdmissionregistrationV1Api api = new AdmissionregistrationV1Api(this.admin);
			int seconds = (int) Math.max(1, Math.min(30, this.timeout.toSeconds()));
			if (!this.validating.isEmpty()) {
				List<V1ValidatingWebhook> hooks = new ArrayList<>();
				for (Hook hook : this.validating) {
					hooks.add(new V1ValidatingWebhook().name(hookName(hook, hooks.size()))
						.clientConfig(clientConfig(hook))
						.rules(List.of(rule(hook)))
						.admissionReviewVersions(List.of("v1"))
						.sideEffects("None")
						.failurePolicy(this.failurePolicy)
						.timeoutSeconds(seconds)
						.namespaceSelector(selector)
						.matchConditions(this.matchConditions.isEmpty() ? null : List.copyOf(this.matchConditions)));
				}
				api.createValidatingWebhookConfiguration(
						new V1ValidatingWebhookConfiguration().metadata(new V1ObjectMeta().name(name)).webhooks(hooks))
					.execute();
			}
			if (!this.mutating.isEmpty()) {
				List<V1MutatingWebhook> hooks = new ArrayList<>();
				for (Hook hook : this.mutating) {
					hooks.add(new V1MutatingWebhook().name(hookName(hook, hooks.size()))
						.clientConfig(clientConfig(hook))
						.rules(List.of(rule(hook)))
						.admissionReviewVersions(List.of("v1"))
						.sideEffects("None")
						.failurePolicy(this.failurePolicy)
						.timeoutSeconds(seconds)
						.namespaceSelector(selector)
						.matchConditions(this.matchConditions.isEmpty() ? null : List.copyOf(this.matchConditions)));
				}
				api.createMutatingWebhookConfiguration(
						new V1MutatingWebhookConfiguration().metadata(new V1ObjectMeta().name(name)).webhooks(hooks))
					.execute();
			}
			return new TestWebhooks(this.admin, name, !this.validating.isEmpty(), !this.mutating.isEmpty());
		}

		private AdmissionregistrationV1WebhookClientConfig clientConfig(Hook hook) {
			return new AdmissionregistrationV1WebhookClientConfig().url(this.baseUrl + hook.path())
				.caBundle(this.caBundle);
		}

		private static V1RuleWithOperations rule(Hook hook) {
			return new V1RuleWithOperations().apiGroups(List.of(hook.group()))
				.apiVersions(List.of(hook.version()))
				.resources(List.of(hook.resource()))
				.operations(hook.operations());
		}

		/** A webhook's name must be a qualified name with at least three segments. */
		private static String hookName(Hook hook, int index) {
			return hook.resource().toLowerCase(Locale.ROOT) + "-" + index + ".webhooks.test.kubeboot.io";
		}

		private static List<String> operations(String... operations) {
			return (operations.length == 0) ? List.of("CREATE", "UPDATE") : List.of(operations);
		}

	}

	private record Hook(String path, String group, String version, String resource, List<String> operations) {
	}

}
