package io.kubeboot.operator.autoconfigure.test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.kubeboot.operator.autoconfigure.ManagerLifecycle;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.webhook.Conversion;
import io.kubeboot.operator.webhook.ConversionWebhook;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Points the CRD of each {@link Conversion} bean of an application that runs against a
 * local control plane at the application's webhook server: its
 * {@code spec.conversion.webhook.clientConfig} becomes
 * {@code https://127.0.0.1:<port>/convert} with the CA bundle of the server's self-signed
 * certificate, in place of the Service of the manifests, which does not exist there.
 * Without it the API server cannot read an object in a version other than the stored one,
 * and {@code kubectl get} fails when discovery prefers a spoke.
 * <p>
 * It starts the webhook server itself, just before the manager (which then finds it
 * serving), so that the caches the manager syncs at start-up may already read converted
 * versions. A control plane has one CRD of a kind for all the applications of a test run:
 * the application context started last owns it, as envtest has one webhook server. When
 * its owner stops, the CRD is pointed back at the newest running owner, if any.
 */
class LocalControlPlaneConversions implements SmartLifecycle {

	/** Just before the manager's phase, in which the webhook server would start. */
	static final int PHASE = ManagerLifecycle.PHASE - 1;

	private static final Logger logger = LoggerFactory.getLogger(LocalControlPlaneConversions.class);

	/**
	 * The running owners of each CRD, by API server and CRD name, the newest last:
	 * application contexts of one JVM share the control planes of its tests.
	 */
	private static final Map<String, List<LocalControlPlaneConversions>> owners = new HashMap<>();

	private final ApiClient admin;

	private final ListableBeanFactory beanFactory;

	private final List<String> owned = new ArrayList<>();

	private volatile boolean running;

	private @Nullable String url;

	private @Nullable String caBundle;

	LocalControlPlaneConversions(ApiClient admin, ListableBeanFactory beanFactory) {
		this.admin = admin;
		this.beanFactory = beanFactory;
	}

	@Override
	@SuppressWarnings("rawtypes")
	public void start() {
		this.running = true;
		Map<String, Conversion> conversions = this.beanFactory.getBeansOfType(Conversion.class, false, false);
		WebhookServer server = this.beanFactory.getBeanProvider(WebhookServer.class).getIfUnique();
		if (conversions.isEmpty() || server == null) {
			return;
		}
		String pem = server.certificate().caBundlePem().orElse(null);
		if (pem == null) {
			logger.warn("The CRDs of the conversions are left as they are: the webhook server's certificate has no "
					+ "CA bundle to give the API server (operator.webhook.cert-dir without a ca.crt); leave "
					+ "operator.webhook.self-signed and operator.webhook.cert-dir unset to have them pointed at it: "
					+ "conversions={}", conversions.keySet());
			return;
		}
		server.start();
		this.url = "https://127.0.0.1:" + server.port() + ConversionWebhook.PATH;
		this.caBundle = Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
		DynamicKubernetesApi crds = crds(this.admin);
		List<JsonObject> served = list(crds);
		conversions.forEach((bean, conversion) -> {
			KindResolver.DeclaredKind kind = KindResolver.declaredKind(conversion.hubType());
			JsonObject crd = served.stream().filter((candidate) -> isOf(candidate, kind)).findFirst().orElse(null);
			if (crd == null) {
				logger.warn("No CRD of the conversion's kind on the local control plane to point at the webhook "
						+ "server: conversion={} bean={}", conversion, bean);
				return;
			}
			String name = crd.getAsJsonObject("metadata").get("name").getAsString();
			// the CRD and its owners change together: contexts may start and stop in
			// parallel
			synchronized (owners) {
				point(crds, name, crd, this);
				owners.computeIfAbsent(key(name), (key) -> new ArrayList<>()).add(this);
			}
			this.owned.add(name);
		});
	}

	@Override
	public void stop() {
		this.running = false;
		DynamicKubernetesApi crds = crds(this.admin);
		for (String name : this.owned) {
			synchronized (owners) {
				List<LocalControlPlaneConversions> current = owners.getOrDefault(key(name), new ArrayList<>());
				boolean newest = !current.isEmpty() && current.get(current.size() - 1) == this;
				current.remove(this);
				if (current.isEmpty()) {
					owners.remove(key(name));
				}
				else if (newest) {
					pointBack(crds, name, current.get(current.size() - 1));
				}
			}
		}
		this.owned.clear();
	}

	private static void pointBack(DynamicKubernetesApi crds, String name, LocalControlPlaneConversions owner) {
		try {
			KubernetesApiResponse<DynamicKubernetesObject> crd = crds.get(name);
			if (crd.isSuccess()) {
				point(crds, name, crd.getObject().getRaw(), owner);
			}
		}
		catch (RuntimeException ex) {
			// the control plane may be stopping with the JVM
			logger.debug("The CRD could not be pointed back at a running webhook server: crd={}", name, ex);
		}
	}

	private String key(String crd) {
		return this.admin.getBasePath() + " " + crd;
	}

	/**
	 * Merge-patches the conversion webhook of a CRD to an owner's server.
	 */
	private static void point(DynamicKubernetesApi crds, String name, JsonObject crd,
			LocalControlPlaneConversions owner) {
		String url = String.valueOf(owner.url);
		JsonObject patch = patch(crd, url, String.valueOf(owner.caBundle));
		KubernetesApiResponse<DynamicKubernetesObject> patched = crds.patch(name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
				new V1Patch(patch.toString()));
		if (!patched.isSuccess()) {
			throw new IllegalStateException("Cannot point the conversion webhook of the CRD " + name
					+ " of the local control plane at " + url + ": HTTP " + patched.getHttpStatusCode() + " "
					+ ((patched.getStatus() != null) ? patched.getStatus().getMessage() : ""));
		}
		String strategy = string(object(object(crd, "spec"), "conversion"), "strategy");
		logger.info("Conversion webhook of a CRD pointed at the local webhook server: crd={} url={}{}", name, url,
				"Webhook".equals(strategy) ? "" : " (strategy was " + strategy + ")");
	}

	/**
	 * The JSON merge patch of a CRD that makes the API server call a webhook at a URL for
	 * its conversions: in place of a Service, with the strategy {@code Webhook}, keeping
	 * the conversion review versions the CRD has (else {@code v1}, which the webhook
	 * server answers).
	 * @param crd the CRD as it is
	 * @param url the URL of the conversion webhook
	 * @param caBundle the base64 of the PEM of the CA of the server's certificate
	 * @return the patch
	 */
	static JsonObject patch(JsonObject crd, String url, String caBundle) {
		JsonObject clientConfig = new JsonObject();
		clientConfig.addProperty("url", url);
		clientConfig.addProperty("caBundle", caBundle);
		clientConfig.add("service", JsonNull.INSTANCE);
		JsonObject webhook = new JsonObject();
		webhook.add("clientConfig", clientConfig);
		JsonObject current = object(object(object(crd, "spec"), "conversion"), "webhook");
		if (!(current.get("conversionReviewVersions") instanceof JsonArray)) {
			JsonArray versions = new JsonArray();
			versions.add("v1");
			webhook.add("conversionReviewVersions", versions);
		}
		JsonObject conversion = new JsonObject();
		conversion.addProperty("strategy", "Webhook");
		conversion.add("webhook", webhook);
		JsonObject spec = new JsonObject();
		spec.add("conversion", conversion);
		JsonObject patch = new JsonObject();
		patch.add("spec", spec);
		return patch;
	}

	private static DynamicKubernetesApi crds(ApiClient client) {
		return new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client);
	}

	private static List<JsonObject> list(DynamicKubernetesApi crds) {
		KubernetesApiResponse<DynamicKubernetesListObject> listed = crds.list();
		if (!listed.isSuccess()) {
			throw new IllegalStateException(
					"Cannot list the CRDs of the local control plane: HTTP " + listed.getHttpStatusCode() + " "
							+ ((listed.getStatus() != null) ? listed.getStatus().getMessage() : ""));
		}
		return listed.getObject().getItems().stream().map(DynamicKubernetesObject::getRaw).toList();
	}

	private static boolean isOf(JsonObject crd, KindResolver.DeclaredKind kind) {
		JsonObject spec = object(crd, "spec");
		return kind.kind().equals(string(object(spec, "names"), "kind"))
				&& String.valueOf(kind.group()).equals(string(spec, "group"));
	}

	private static JsonObject object(JsonObject parent, String key) {
		JsonElement child = parent.get(key);
		return (child instanceof JsonObject object) ? object : new JsonObject();
	}

	private static @Nullable String string(JsonObject parent, String key) {
		JsonElement child = parent.get(key);
		return (child != null && child.isJsonPrimitive()) ? child.getAsString() : null;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Starts when the manager does: an application that starts its manager itself
	 * ({@code operator.auto-startup=false}) starts its webhook server with it.
	 */
	@Override
	public boolean isAutoStartup() {
		ManagerLifecycle manager = this.beanFactory.getBeanProvider(ManagerLifecycle.class).getIfUnique();
		return manager == null || manager.isAutoStartup();
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
