package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.TestWebhooks;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.operator.webhook.AdmissionDeniedException;
import io.kubeboot.operator.webhook.AdmissionValidator;
import io.kubeboot.operator.webhook.AdmissionWebhook;
import io.kubeboot.operator.webhook.ServingCertificate;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiResponse;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Admission webhooks served by the manager's webhook server and called by the real
 * kube-apiserver over TLS: a validator's denial reaches the client with its message,
 * defaults appear on the stored object, updates are validated against the old object, and
 * a validator that hangs fails the API server's call within the webhook's timeout without
 * stalling the server.
 */
@WithControlPlane
class WebhookIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final List<AutoCloseable> cleanUp = new ArrayList<>();

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void cleanUp() throws Exception {
		this.release.countDown();
		for (int i = this.cleanUp.size() - 1; i >= 0; i--) {
			this.cleanUp.get(i).close();
		}
	}

	@Test
	void apiServerCallsTheValidatorAndTheDefaulter(ApiClient admin, TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Manager manager = managerWithWebhooks(admin, namespace);
		Client client = manager.client();
		String ns = namespace.name();

		// the validator's message, as kubectl apply shows it
		assertThatExceptionOfType(ApiServerException.class)
			.isThrownBy(() -> client.create(widget(ns, "bad", Map.of("size", "huge", "color", "red"))))
			.withMessageContaining("denied the request: spec.size must be small or large, not 'huge'");

		// the defaulter's change is stored
		Widget created = client.create(widget(ns, "defaulted", Map.of("color", "red")));
		assertThat(created.getSpec()).containsEntry("size", "small").containsEntry("color", "red");

		// an update is validated against the old object
		Widget repainted = client.uncached().get(Widget.class, Request.of(ns, "defaulted")).orElseThrow();
		Map<String, Object> spec = new HashMap<>(repainted.getSpec());
		spec.put("color", "blue");
		repainted.setSpec(spec);
		assertThatExceptionOfType(ApiServerException.class).isThrownBy(() -> client.update(repainted))
			.withMessageContaining("denied the request: spec.color cannot change (was 'red', now 'blue')");
		spec.put("color", "red");
		spec.put("size", "large");
		assertThat(client.update(repainted).getSpec()).containsEntry("size", "large");
	}

	@Test
	void matchConditionsDecideWhichRequestsReachTheWebhooks(ApiClient admin, TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Manager manager = managerWithWebhooks(admin, namespace, "Fail", (webhooks) -> webhooks
			// a DELETE has no object, only an oldObject
			.matchCondition("not-exempt", "request.operation == 'DELETE' || !has(object.metadata.labels)"
					+ " || !('exempt' in object.metadata.labels)"));
		Client client = manager.client();
		String ns = namespace.name();
		assertThatExceptionOfType(ApiServerException.class)
			.isThrownBy(() -> client.create(widget(ns, "checked", Map.of("size", "huge"))))
			.withMessageContaining("denied the request: spec.size must be small or large, not 'huge'");
		// an exempt widget reaches neither the validator nor the defaulter
		Widget exempt = widget(ns, "exempt", Map.of("size", "huge"));
		exempt.getMetadata().setLabels(Map.of("exempt", "true"));
		assertThat(client.create(exempt).getSpec()).containsOnly(Map.entry("size", "huge"));
		Widget defaulted = client.create(widget(ns, "defaulted", Map.of("color", "red")));
		assertThat(defaulted.getSpec()).containsEntry("size", "small");
	}

	@Test
	void warningsReachTheClientAndADeleteIsValidated(ApiClient admin, TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Manager manager = managerWithWebhooks(admin, namespace);
		String ns = namespace.name();

		// kubectl prints the Warning headers of the answer: "Warning: ..."
		ApiResponse<Object> created = new CustomObjectsApi(admin).createNamespacedCustomObject("test.kubeboot.io", "v1",
				ns, "widgets", Map.of("apiVersion", "test.kubeboot.io/v1", "kind", "Widget", "metadata",
						Map.of("name", "yellow"), "spec", Map.of("color", "yellow")))
			.executeWithHttpInfo();
		assertThat(created.getHeaders().get("Warning"))
			.anySatisfy((warning) -> assertThat(warning).contains("spec.color 'yellow' fades in the sun"));

		Client client = manager.client();
		Widget kept = client.create(widget(ns, "protected", Map.of("color", "red")));
		assertThatExceptionOfType(ApiServerException.class).isThrownBy(() -> client.delete(kept))
			.withMessageContaining("denied the request: widget protected is protected");
		assertThat(client.uncached().get(Widget.class, Request.of(ns, "protected"))).isPresent();
	}

	@Test
	void validatorThatHangsFailsTheCallWithinItsTimeoutAndStallsNothing(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Widgets.install(admin);
		Manager manager = managerWithWebhooks(admin, namespace);
		Client client = manager.client();
		String ns = namespace.name();
		long start = System.nanoTime();
		assertThatExceptionOfType(ApiServerException.class)
			.isThrownBy(() -> client.create(widget(ns, "hang", Map.of("color", "red"))))
			.withMessageContaining("failed calling webhook");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
		// the server answers other requests while the hung validator still runs
		assertThat(client.create(widget(ns, "after", Map.of("color", "red"))).getSpec()).containsEntry("size", "small");
		assertThat(manager.checks()).filteredOn((check) -> check.probe() == Check.Probe.READINESS)
			.extracting(Check::name)
			.contains("webhooks");
	}

	@Test
	void validatorThatHangsUnderFailurePolicyIgnoreLetsTheObjectThrough(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Widgets.install(admin);
		Manager manager = managerWithWebhooks(admin, namespace, "Ignore");
		Widget created = manager.client().create(widget(namespace.name(), "hang", Map.of("color", "red")));
		assertThat(created.getSpec()).containsEntry("size", "small");
	}

	@Test
	void secondServerOnTheSamePortFailsNamingTheAddress(ApiClient admin, TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Manager manager = managerWithWebhooks(admin, namespace);
		int port = manager.webhookServer().orElseThrow().port();
		WebhookServer second = WebhookServer.builder(ServingCertificate.selfSigned(List.of("127.0.0.1")))
			.bindAddress("127.0.0.1")
			.port(port)
			.build();
		assertThatIllegalStateException().isThrownBy(second::start)
			.withMessageStartingWith("Cannot serve webhooks on 127.0.0.1:" + port + ": the port is in use");
	}

	@Test
	void secondValidatorForAKindIsRefused(ApiClient admin) {
		WebhookServer server = WebhookServer.builder(ServingCertificate.selfSigned(List.of("127.0.0.1")))
			.bindAddress("127.0.0.1")
			.port(0)
			.build();
		AdmissionWebhook.forKind(server, Widget.class).withValidator(new AdmissionValidator<>() {
		}).complete();
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> AdmissionWebhook.forKind(server, Widget.class).withValidator(new AdmissionValidator<>() {
			}).complete())
			.withMessage("A validator for Widget is already registered at /validate-test-kubeboot-io-v1-widget: "
					+ "a kind has one validator; combine them into one");
	}

	private Manager managerWithWebhooks(ApiClient admin, TestNamespace namespace) throws Exception {
		return managerWithWebhooks(admin, namespace, "Fail");
	}

	private Manager managerWithWebhooks(ApiClient admin, TestNamespace namespace, String failurePolicy)
			throws Exception {
		return managerWithWebhooks(admin, namespace, failurePolicy, UnaryOperator.identity());
	}

	private Manager managerWithWebhooks(ApiClient admin, TestNamespace namespace, String failurePolicy,
			UnaryOperator<TestWebhooks.Builder> customizer) throws Exception {
		ServingCertificate certificate = ServingCertificate.selfSigned(List.of("127.0.0.1", "localhost"));
		this.cleanUp.add(certificate);
		WebhookServer server = WebhookServer.builder(certificate)
			.bindAddress("127.0.0.1")
			.port(0)
			.handlerTimeout(Duration.ofSeconds(5))
			.build();
		AdmissionWebhook.forKind(server, Widget.class).withValidator(new WidgetValidator()).withDefaulter((widget) -> {
			Map<String, Object> spec = new HashMap<>((widget.getSpec() != null) ? widget.getSpec() : Map.of());
			spec.putIfAbsent("size", "small");
			widget.setSpec(spec);
		}).complete();
		Manager manager = Manager.builder(admin)
			.namespace(namespace.name())
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.webhookServer(server)
			.build();
		this.cleanUp.add(manager::stop);
		manager.start();
		assertThat(server.isServing()).isTrue();
		TestWebhooks webhooks = customizer
			.apply(TestWebhooks
				.builder(admin, "https://127.0.0.1:" + server.port(), certificate.caBundlePem().orElseThrow())
				.validating(AdmissionWebhook.validatingPath(Widget.class), "test.kubeboot.io", "v1", "widgets",
						"CREATE", "UPDATE", "DELETE")
				.mutating(AdmissionWebhook.mutatingPath(Widget.class), "test.kubeboot.io", "v1", "widgets")
				.timeout(Duration.ofSeconds(2))
				.failurePolicy(failurePolicy)
				.onlyIn(namespace))
			.install();
		this.cleanUp.add(webhooks);
		// the API server applies new webhook configurations within about a second
		Client client = manager.client();
		await().atMost(WAIT).ignoreExceptions().until(() -> {
			Widget probe = client.create(widget(namespace.name(), "probe-" + System.nanoTime(), Map.of()));
			client.delete(probe);
			return "small".equals(probe.getSpec().get("size"));
		});
		return manager;
	}

	private static Widget widget(String namespace, String name, Map<String, Object> spec) {
		return new Widget().metadata(new V1ObjectMeta().namespace(namespace).name(name)).spec(spec);
	}

	/**
	 * Sizes small or large; the color never changes, and yellow gets a warning; "hang"
	 * hangs until the test ends; "protected" cannot be deleted.
	 */
	private final class WidgetValidator implements AdmissionValidator<Widget> {

		@Override
		public List<String> validateCreate(Widget widget) throws Exception {
			if ("hang".equals(widget.getMetadata().getName())) {
				WebhookIntegrationTests.this.release.await(30, TimeUnit.SECONDS);
			}
			checkSize(widget);
			return "yellow".equals(widget.getSpec().get("color")) ? List.of("spec.color 'yellow' fades in the sun")
					: List.of();
		}

		@Override
		public List<String> validateDelete(Widget widget) throws AdmissionDeniedException {
			if ("protected".equals(widget.getMetadata().getName())) {
				throw new AdmissionDeniedException("widget protected is protected");
			}
			return List.of();
		}

		@Override
		public List<String> validateUpdate(Widget old, Widget widget) throws Exception {
			Object was = old.getSpec().get("color");
			Object now = widget.getSpec().get("color");
			if (was != null && !was.equals(now)) {
				throw new AdmissionDeniedException("spec.color cannot change (was '" + was + "', now '" + now + "')");
			}
			checkSize(widget);
			return List.of();
		}

		private static void checkSize(Widget widget) throws AdmissionDeniedException {
			Object size = (widget.getSpec() != null) ? widget.getSpec().get("size") : null;
			if (size != null && !"small".equals(size) && !"large".equals(size)) {
				throw new AdmissionDeniedException("spec.size must be small or large, not '" + size + "'");
			}
		}

	}

}
