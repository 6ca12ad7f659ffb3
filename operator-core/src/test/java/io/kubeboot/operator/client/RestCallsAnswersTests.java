package io.kubeboot.operator.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * How the client's calls read answers, against a scripted server: what the API server
 * itself answers is covered by the integration tests.
 */
class RestCallsAnswersTests {

	private HttpServer server;

	private volatile int status = 200;

	private volatile String contentType = "application/json";

	private volatile String body = "";

	/** The length announced, when it is not the body's. */
	private volatile long announced = -1;

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", this::answer);
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	@Test
	void readsABuiltInObjectWithAFieldClientJavaDoesNotKnowAndTellsTheStatusCode() {
		this.status = 201;
		this.body = """
				{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "ns",
				 "resourceVersion": "9", "fieldOfANewerRelease": "x"}, "data": {"k": "v"}}""";
		AtomicInteger answered = new AtomicInteger();
		V1ConfigMap read = calls().send("POST", "/api/v1/namespaces/ns/configmaps", List.of(), RestCalls.bytes("{}"),
				"application/json", V1ConfigMap.class, answered::set);
		assertThat(read.getMetadata().getResourceVersion()).isEqualTo("9");
		assertThat(read.getData()).containsEntry("k", "v");
		assertThat(answered).hasValue(201);
	}

	@Test
	void anAnswerThatIsNotJsonFailsNamingItsContentType() {
		this.contentType = "text/html";
		this.body = "<html>proxy</html>";
		assertThatExceptionOfType(ApiServerException.class)
			.isThrownBy(() -> calls().send("GET", "/api/v1/namespaces/ns/configmaps/a", List.of(), null,
					"application/json", V1ConfigMap.class))
			.withMessage("GET /api/v1/namespaces/ns/configmaps/a answered 200 with Content-Type text/html, not JSON: "
					+ "<html>proxy</html>");
	}

	@Test
	void anAnswerCutOffWhileItStreamsIsAFailureWithoutAStatusCode() {
		// the status code tells the write fence and the reconcile deadline whether the
		// call was answered at all
		this.body = "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}}";
		this.announced = this.body.length() + 100;
		assertThatExceptionOfType(ApiServerException.class)
			.isThrownBy(() -> calls().send("GET", "/api/v1/namespaces/ns/configmaps/a", List.of(), null,
					"application/json", V1ConfigMap.class))
			.satisfies((ex) -> assertThat(ex.code()).isZero());
	}

	@Test
	void anEmptyAnswerIsNothingAndAnIgnoredAnswerIsNotRead() {
		assertThat((Object) calls().send("GET", "/api/v1/namespaces/ns/configmaps/a", List.of(), null,
				"application/json", V1ConfigMap.class))
			.isNull();
		this.body = "not JSON at all";
		assertThat((Object) calls().send("DELETE", "/api/v1/namespaces/ns/configmaps/a", List.of(), null,
				"application/json", null))
			.isNull();
	}

	@Test
	void aFailureIsTypedByItsStatusCodeAndCarriesTheStatusMessage() {
		this.status = 404;
		this.body = """
				{"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404,
				 "message": "configmaps \\"a\\" not found"}""";
		assertThatExceptionOfType(ApiServerException.NotFoundException.class)
			.isThrownBy(() -> calls().send("GET", "/api/v1/namespaces/ns/configmaps/a", List.of(), null,
					"application/json", V1ConfigMap.class))
			.withMessage("GET /api/v1/namespaces/ns/configmaps/a failed: 404 NotFound: configmaps \"a\" not found");
	}

	private RestCalls calls() {
		ApiClient client = new ApiClient();
		client.setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		Duration timeout = Duration.ofSeconds(10);
		return new RestCalls(ApiClients.withTimeouts(client, timeout, timeout), timeout);
	}

	private void answer(HttpExchange exchange) throws IOException {
		byte[] bytes = this.body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", this.contentType);
		exchange.sendResponseHeaders(this.status,
				(this.announced > 0) ? this.announced : (bytes.length > 0) ? bytes.length : -1);
		OutputStream out = exchange.getResponseBody();
		out.write(bytes);
		out.flush();
		// a body shorter than announced: closing the exchange closes the connection
		exchange.close();
	}

}
