package io.kubeboot.operator.client.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;

import com.google.gson.Gson;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeboot.operator.client.ApiServerException;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import okhttp3.Call;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * How answers are read, against a scripted server: what the API server itself answers is
 * covered by the integration tests.
 */
class AnswersTests {

	private static final String CONFIG_MAP = """
			{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "ns",
			 "resourceVersion": "9", "fieldOfANewerRelease": "x"}, "data": {"k": "v"}}""";

	private HttpServer server;

	private volatile String contentType = "application/json";

	private volatile String body = CONFIG_MAP;

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
	void readsABuiltInObjectWithAFieldClientJavaDoesNotKnow() throws ApiException {
		Answers.Answer<V1ConfigMap> answer = Answers.execute("GET a", gson(), call(), V1ConfigMap.class);
		assertThat(answer.code()).isEqualTo(200);
		assertThat(answer.data().getMetadata().getResourceVersion()).isEqualTo("9");
		assertThat(answer.data().getData()).containsEntry("k", "v");
	}

	@Test
	void anyContentTypeIsReadAsJsonAsClientJavaDoes() throws ApiException {
		this.contentType = "*/*";
		assertThat(Answers.execute("GET a", gson(), call(), V1ConfigMap.class).data()).isNotNull();
	}

	@Test
	void anAnswerCutOffIsAFailureWithoutAStatusCode() {
		this.announced = CONFIG_MAP.length() + 100;
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> Answers.execute("GET a", gson(), call(), V1ConfigMap.class))
			.satisfies((ex) -> assertThat(ex.getCode()).isZero());
	}

	@Test
	void anAnswerThatDoesNotDecodeNamesTheCallThePathAndNoValue() {
		this.body = """
				{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": "s3cr3t"}""";
		assertThatExceptionOfType(ApiServerException.class)
			.isThrownBy(() -> Answers.execute("GET a", gson(), call(), V1ConfigMap.class))
			.withMessage("GET a answered 200 with a body that does not decode into V1ConfigMap: "
					+ "IllegalStateException at path $.data")
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo(200));
	}

	private ApiClient client() {
		ApiClient client = new ApiClient();
		client.setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		return client;
	}

	private Gson gson() {
		return ModelReading.gson(client().getJSON().getGson());
	}

	private Call call() throws ApiException {
		return client().buildCall(null, "/api/v1/namespaces/ns/configmaps/a", "GET", new ArrayList<>(),
				new ArrayList<>(), null, new HashMap<>(), new HashMap<>(), new HashMap<>(), new String[0], null);
	}

	private void answer(HttpExchange exchange) throws IOException {
		byte[] bytes = this.body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", this.contentType);
		exchange.sendResponseHeaders(200, (this.announced > 0) ? this.announced : bytes.length);
		OutputStream out = exchange.getResponseBody();
		out.write(bytes);
		out.flush();
		// a body shorter than announced: closing the exchange closes the connection
		exchange.close();
	}

}
