package io.kubeboot.operator.it;

import io.kubeboot.operator.test.TestCertificateAuthority;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import io.kubeboot.operator.micrometer.OperatorMetrics;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.TestWebhooks;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.operator.webhook.AdmissionDeniedException;
import io.kubeboot.operator.webhook.AdmissionValidator;
import io.kubeboot.operator.webhook.AdmissionWebhook;
import io.kubeboot.operator.webhook.ServingCertificate;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The webhook server's certificate rotated on disk, as cert-manager renews a mounted
 * Secret: new connections get the new certificate without a restart, the real API server
 * keeps calling the webhook, and the webhook and certificate metrics count it all.
 */
@WithControlPlane
class WebhookCertificateRotationIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@Test
	void rotatedCertificateFilesAreServedWithoutRestart(ApiClient admin, TestNamespace namespace, @TempDir Path dir)
			throws Exception {
		Widgets.install(admin);
		TestCertificateAuthority ca = TestCertificateAuthority.create();
		Path certificateFile = dir.resolve("tls.crt");
		Path keyFile = dir.resolve("tls.key");
		X509Certificate first = ca.issue(dir);
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		OperatorMetrics metrics = new OperatorMetrics(registry);
		try (ServingCertificate certificate = ServingCertificate.fromFiles(certificateFile, keyFile,
				Duration.ofMillis(200), metrics.certificateMetrics())) {
			WebhookServer server = WebhookServer.builder(certificate)
				.bindAddress("127.0.0.1")
				.port(0)
				.metrics(metrics.webhookMetrics())
				.build();
			AdmissionWebhook.forKind(server, Widget.class).withValidator(new SizeValidator()).complete();
			server.start();
			String path = AdmissionWebhook.validatingPath(Widget.class);
			try (TestWebhooks webhooks = TestWebhooks
				.builder(admin, "https://127.0.0.1:" + server.port(), ca.caBundle())
				.validating(path, "test.kubeboot.io", "v1", "widgets")
				.onlyIn(namespace)
				.install()) {
				GenericKubernetesApi<Widget, ?> widgets = Widgets.api(admin);
				assertThat(servedSerial(server, ca)).isEqualTo(first.getSerialNumber());
				await().atMost(WAIT).until(() -> isRefused(widgets.create(huge(namespace, "before"))));

				X509Certificate second = ca.issue(dir);
				await().atMost(WAIT).until(() -> second.getSerialNumber().equals(servedSerial(server, ca)));
				assertThat(certificate.certificate().getSerialNumber()).isEqualTo(second.getSerialNumber());

				// the API server still reaches the webhook, which answers as before
				assertThat(isRefused(widgets.create(huge(namespace, "after")))).isTrue();
				assertThat(widgets.create(widget(namespace, "fine", "small")).isSuccess()).isTrue();
			}
			finally {
				server.stop();
			}
			assertThat(registry.get("certwatcher.read.certificate").counter().count()).isGreaterThanOrEqualTo(2);
			assertThat(registry.get("controller.runtime.webhook.requests")
				.tags("webhook", path, "code", "200")
				.counter()
				.count()).isGreaterThanOrEqualTo(3);
			assertThat(registry.get("controller.runtime.webhook.latency").tags("webhook", path).timer().count())
				.isGreaterThanOrEqualTo(3);
		}
	}

	/**
	 * The serial number of the certificate a fresh TLS handshake with the server gets.
	 */
	private static BigInteger servedSerial(WebhookServer server, TestCertificateAuthority ca) throws Exception {
		KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
		trust.load(null, null);
		trust.setCertificateEntry("ca", ca.certificate());
		TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trustManagers.init(trust);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, trustManagers.getTrustManagers(), null);
		try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", server.port())) {
			socket.startHandshake();
			return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
		}
	}

	private static boolean isRefused(KubernetesApiResponse<Widget> response) {
		return !response.isSuccess() && response.getHttpStatusCode() == 403
				&& response.getStatus().getMessage().contains("denied the request: spec.size 'huge' is too large");
	}

	private static Widget huge(TestNamespace namespace, String name) {
		return widget(namespace, name, "huge");
	}

	private static Widget widget(TestNamespace namespace, String name, String size) {
		return new Widget().metadata(new V1ObjectMeta().namespace(namespace.name()).name(name))
			.spec(Map.of("size", size));
	}

	private static final class SizeValidator implements AdmissionValidator<Widget> {

		@Override
		public List<String> validateCreate(Widget widget) throws AdmissionDeniedException {
			if ("huge".equals(widget.getSpec().get("size"))) {
				throw new AdmissionDeniedException("spec.size 'huge' is too large");
			}
			return List.of();
		}

	}

}
