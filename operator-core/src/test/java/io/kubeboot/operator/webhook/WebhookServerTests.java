package io.kubeboot.operator.webhook;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The webhook server over real HTTPS on the loopback interface: a restart, senders that
 * trickle their bodies, webhook calls stuck past their deadline, and what an answer tells
 * its caller.
 */
class WebhookServerTests {

	private static final Duration TIMEOUT = Duration.ofMillis(500);

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private final ServingCertificate certificate = ServingCertificate.selfSigned(List.of("127.0.0.1"));

	private final WebhookServer server = WebhookServer.builder(this.certificate)
		.bindAddress("127.0.0.1")
		.port(0)
		.handlerTimeout(TIMEOUT)
		.build();

	/** Released at the end of each test, for handlers that wait on it. */
	private final CountDownLatch released = new CountDownLatch(1);

	private final List<SSLSocket> sockets = new ArrayList<>();

	private final HttpClient http;

	WebhookServerTests() throws Exception {
		this.http = HttpClient.newBuilder()
			.sslContext(trusting(this.certificate.caBundlePem().orElseThrow()))
			.connectTimeout(DEADLINE)
			.build();
		this.server.register("/echo", (body) -> body);
	}

	@AfterEach
	void stop() throws Exception {
		this.released.countDown();
		for (SSLSocket socket : this.sockets) {
			socket.close();
		}
		this.server.stop();
	}

	@Test
	void aServerStartedAgainAfterAStopServes() throws Exception {
		this.server.start();
		assertThat(post("/echo", "one").body()).isEqualTo("one");
		this.server.stop();
		this.server.start();
		HttpResponse<String> again = post("/echo", "two");
		assertThat(again.statusCode()).isEqualTo(200);
		assertThat(again.body()).isEqualTo("two");
	}

	@Test
	void sendersThatTrickleTheirBodiesAreCutOffAndStarveNoOtherRequest() throws Exception {
		this.server.start();
		for (int i = 0; i < WebhookServer.SERVER_THREADS; i++) {
			SSLSocket socket = (SSLSocket) trusting(this.certificate.caBundlePem().orElseThrow()).getSocketFactory()
				.createSocket("127.0.0.1", this.server.port());
			this.sockets.add(socket);
			OutputStream out = socket.getOutputStream();
			// a body of 100 bytes announced, one sent
			out.write(("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
		}
		// every server thread reads a trickling body
		await().atMost(DEADLINE).until(() -> serverThreads() == WebhookServer.SERVER_THREADS);
		HttpResponse<String> answered = post("/echo", "meanwhile");
		assertThat(answered.statusCode()).isEqualTo(200);
		// the trickling senders' connections were closed
		for (SSLSocket socket : this.sockets) {
			socket.setSoTimeout((int) DEADLINE.toMillis());
			assertThat(socket.getInputStream().read()).isEqualTo(-1);
		}
	}

	@Test
	void webhookCallsStuckPastTheirDeadlineTakeAtMostTheHandlerThreadsThenItAnswers503() throws Exception {
		this.server.register("/stuck", (body) -> {
			// ignores its interruption, as careless code does
			while (true) {
				try {
					this.released.await();
					return body;
				}
				catch (InterruptedException ex) {
					// go on waiting
				}
			}
		});
		this.server.start();
		List<CompletableFuture<HttpResponse<String>>> stuck = new ArrayList<>();
		for (int i = 0; i < WebhookServer.HANDLER_THREADS; i++) {
			stuck.add(this.http.sendAsync(request("/stuck", "x"), HttpResponse.BodyHandlers.ofString()));
		}
		for (CompletableFuture<HttpResponse<String>> answer : stuck) {
			assertThat(answer.get().statusCode()).isEqualTo(500);
		}
		HttpResponse<String> busy = post("/stuck", "x");
		assertThat(busy.statusCode()).isEqualTo(503);
		assertThat(busy.body()).isEqualTo("the webhook server is busy");
		// requests that need no handler thread are still served
		assertThat(post("/elsewhere", "x").statusCode()).isEqualTo(404);
	}

	@Test
	void anAnswerNeverCarriesTheTextOfAnException() throws Exception {
		this.server.register("/failing", (body) -> {
			throw new IllegalStateException("token=s3cr3t read from /var/run/secrets/token");
		});
		this.server.register("/malformed", (body) -> {
			throw new IllegalArgumentException("not an AdmissionReview: s3cr3t");
		});
		this.server.start();
		HttpResponse<String> failed = post("/failing", "x");
		assertThat(failed.statusCode()).isEqualTo(500);
		assertThat(failed.body()).isEqualTo("the webhook failed; the operator's log says why");
		HttpResponse<String> malformed = post("/malformed", "x");
		assertThat(malformed.statusCode()).isEqualTo(400);
		assertThat(malformed.body()).doesNotContain("s3cr3t");
	}

	@Test
	void everyRequestIsASpanThatReadsTheCallersTraceContextAndRecordsTheAnswer() throws Exception {
		List<String> recorded = new CopyOnWriteArrayList<>();
		OperatorTracing tracing = new OperatorTracing() {

			@Override
			public WebhookSpan webhook(String webhook, String path, Function<String, @Nullable String> headers) {
				recorded.add("start " + webhook + " " + path + " " + headers.apply("traceparent"));
				return new WebhookSpan() {

					@Override
					public Scope openScope() {
						recorded.add("scope opened");
						return () -> recorded.add("scope closed");
					}

					@Override
					public void answered(String kind, String operation, boolean allowed) {
						recorded.add("answered " + kind + " " + operation + " " + allowed);
					}

					@Override
					public void end(int statusCode, @Nullable Throwable error) {
						recorded.add("end " + statusCode + " " + error);
					}

				};
			}

		};
		WebhookServer traced = WebhookServer.builder(this.certificate)
			.bindAddress("127.0.0.1")
			.port(0)
			.tracing(tracing)
			.build();
		traced.register("/validate",
				AdmissionHandler.validating(V1ConfigMap.class, new JSON().getGson(), new AdmissionValidator<>() {

					@Override
					public List<String> validateCreate(V1ConfigMap object) throws AdmissionDeniedException {
						throw new AdmissionDeniedException("no");
					}

				}, () -> {
				}));
		traced.start();
		try {
			String review = "{\"apiVersion\": \"admission.k8s.io/v1\", \"kind\": \"AdmissionReview\", \"request\": "
					+ "{\"uid\": \"u-1\", \"kind\": {\"group\": \"\", \"version\": \"v1\", \"kind\": \"ConfigMap\"}, "
					+ "\"operation\": \"CREATE\", \"object\": {\"metadata\": {\"name\": \"a\"}}}}";
			HttpResponse<String> answer = this.http
				.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + traced.port() + "/validate"))
					.timeout(DEADLINE)
					.header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
					.POST(HttpRequest.BodyPublishers.ofString(review))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(answer.statusCode()).isEqualTo(200);
		}
		finally {
			traced.stop();
		}
		assertThat(recorded).containsExactly(
				"start admission /validate 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "scope opened",
				"answered ConfigMap CREATE false", "scope closed", "end 200 null");
	}

	@Test
	void aBuiltInKindsObjectWithFieldsClientJavaDoesNotKnowReachesTheValidator() throws Exception {
		List<String> validated = new CopyOnWriteArrayList<>();
		AdmissionWebhook.Paths paths = AdmissionWebhook.forKind(this.server, V1ConfigMap.class)
			.withValidator(new AdmissionValidator<>() {

				@Override
				public List<String> validateCreate(V1ConfigMap object) throws AdmissionDeniedException {
					validated.add(object.getMetadata().getName() + " " + object.getData());
					throw new AdmissionDeniedException("no");
				}

			})
			.complete();
		this.server.start();
		// as a newer API server sends it: fields client-java's release does not know
		String review = "{\"apiVersion\": \"admission.k8s.io/v1\", \"kind\": \"AdmissionReview\", \"request\": "
				+ "{\"uid\": \"u-1\", \"kind\": {\"group\": \"\", \"version\": \"v1\", \"kind\": \"ConfigMap\"}, "
				+ "\"operation\": \"CREATE\", \"object\": {\"metadata\": {\"name\": \"a\", \"newer\": 1}, "
				+ "\"data\": {\"k\": \"v\"}, \"newerField\": {\"x\": true}}}}";
		HttpResponse<String> answer = this.http
			.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + this.server.port() + paths.validating()))
				.timeout(DEADLINE)
				.POST(HttpRequest.BodyPublishers.ofString(review))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(answer.body()).contains("\"allowed\":false").contains("no");
		assertThat(validated).containsExactly("a {k=v}");
	}

	@Test
	void aHandlerPastItsDeadlineEndsItsSpanOnlyOnceItsScopeClosed() throws Exception {
		List<String> recorded = new CopyOnWriteArrayList<>();
		CountDownLatch release = new CountDownLatch(1);
		OperatorTracing tracing = new OperatorTracing() {

			@Override
			public WebhookSpan webhook(String webhook, String path, Function<String, @Nullable String> headers) {
				return new WebhookSpan() {

					@Override
					public Scope openScope() {
						return () -> recorded.add("scope closed");
					}

					@Override
					public void answered(String kind, String operation, boolean allowed) {
					}

					@Override
					public void end(int statusCode, @Nullable Throwable error) {
						recorded.add("end " + statusCode);
					}

				};
			}

		};
		WebhookServer traced = WebhookServer.builder(this.certificate)
			.bindAddress("127.0.0.1")
			.port(0)
			.handlerTimeout(Duration.ofMillis(200))
			.tracing(tracing)
			.build();
		traced.register("/slow", (body) -> {
			// ignores the interrupt of its cancellation, as code that swallows it does
			while (release.getCount() > 0) {
				try {
					release.await();
				}
				catch (InterruptedException ex) {
					recorded.add("interrupted");
				}
			}
			return "{}".getBytes(StandardCharsets.UTF_8);
		});
		traced.start();
		try {
			HttpResponse<String> answer = this.http
				.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + traced.port() + "/slow"))
					.timeout(DEADLINE)
					.POST(HttpRequest.BodyPublishers.ofString("{}"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(answer.statusCode()).isEqualTo(500);
			await().atMost(DEADLINE).until(() -> recorded.contains("interrupted"));
			assertThat(recorded).doesNotContain("end 500");
			release.countDown();
			await().atMost(DEADLINE).until(() -> recorded.contains("end 500"));
		}
		finally {
			traced.stop();
		}
		assertThat(recorded).containsExactly("interrupted", "scope closed", "end 500");
	}

	private HttpResponse<String> post(String path, String body) throws Exception {
		return this.http.send(request(path, body), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String path, String body) {
		return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + this.server.port() + path))
			.timeout(DEADLINE)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
	}

	private static long serverThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("webhook-server-") && thread.isAlive())
			.count();
	}

	private static SSLContext trusting(String caPem) throws Exception {
		KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
		trusted.load(null, null);
		int i = 0;
		for (Certificate ca : CertificateFactory.getInstance("X.509")
			.generateCertificates(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII)))) {
			trusted.setCertificateEntry("ca-" + i++, ca);
		}
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(trusted);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, trust.getTrustManagers(), null);
		return context;
	}

}
