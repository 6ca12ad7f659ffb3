package io.kubeboot.operator.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which writes of a client with the trace context annotation on carry it: against a
 * scripted server that records every body and answers with the object it was sent. Only a
 * create does, whatever the cache holds; the API server's side of it (no write, no
 * conflict) is {@code TraceContextAnnotationIntegrationTests}.
 */
class TraceContextWritesTests {

	private static final String TRACE = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

	private final List<String> bodies = new CopyOnWriteArrayList<>();

	/** What the spans and the server saw, in order. */
	private final List<String> events = new CopyOnWriteArrayList<>();

	private HttpServer server;

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
	void onlyACreateCarriesTheTraceContextOfItsCall() {
		Client client = client(true);
		V1ConfigMap object = configMap();

		client.create(object);
		client.update(object);
		client.patch(object, Patch.merge(Map.of("data", Map.of("key", "value"))));
		client.patch(object, Patch.strategicMerge(Map.of("data", Map.of("key", "value"))));
		client.patch(object, Patch.mergeFromWithOptimisticLock(configMap().data(Map.of()), object));
		client.apply(object);
		client.status().patch(object, Patch.merge(Map.of("data", Map.of("key", "value"))));

		assertThat(this.bodies).hasSize(7);
		assertThat(traceContext(this.bodies.get(0))).isEqualTo(TRACE);
		assertThat(this.bodies.subList(1, 7)).allSatisfy((body) -> assertThat(traceContext(body)).isNull());
		assertThat(object.getMetadata().getAnnotations()).as("the object created is left as it was")
			.doesNotContainKey(TraceContextAnnotation.NAME);
	}

	@Test
	void aCallIsSentAndAnsweredWithItsSpanCurrent() {
		client(true).update(configMap());

		assertThat(this.events).containsExactly("scope opened", "sent PUT", "scope closed", "end 200");
	}

	@Test
	void withTheAnnotationOffACreateCarriesNone() {
		client(false).create(configMap());

		assertThat(this.bodies).singleElement().satisfies((body) -> assertThat(traceContext(body)).isNull());
	}

	private Client client(boolean annotate) {
		ApiClient apiClient = new ApiClient();
		apiClient.setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		OperatorTracing tracing = new OperatorTracing() {

			@Override
			public ClientSpan clientCall(String verb, String kind, @Nullable String subresource,
					@Nullable String namespace, @Nullable String name) {
				return new ClientSpan() {

					@Override
					public Scope openScope() {
						TraceContextWritesTests.this.events.add("scope opened");
						return () -> TraceContextWritesTests.this.events.add("scope closed");
					}

					@Override
					public String traceParent() {
						return TRACE;
					}

					@Override
					public void end(int statusCode, @Nullable Throwable error) {
						TraceContextWritesTests.this.events.add("end " + statusCode);
					}

				};
			}

		};
		// a cache that holds nothing: whether a write changes anything is unknown
		Reader nothingCached = new Reader() {

			@Override
			public <T extends KubernetesObject> Optional<T> get(Class<T> type, Request request) {
				return Optional.empty();
			}

			@Override
			public <T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace) {
				return List.of();
			}

		};
		return new DefaultClient(apiClient, nothingCached, "tests", Duration.ofSeconds(5), tracing, annotate);
	}

	private static V1ConfigMap configMap() {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("a").resourceVersion("7"))
			.data(Map.of("key", "value"));
	}

	private static @Nullable String traceContext(String body) {
		JsonObject metadata = JsonParser.parseString(body).getAsJsonObject().getAsJsonObject("metadata");
		JsonObject annotations = (metadata != null) ? metadata.getAsJsonObject("annotations") : null;
		return (annotations != null && annotations.has(TraceContextAnnotation.NAME))
				? annotations.get(TraceContextAnnotation.NAME).getAsString() : null;
	}

	private void answer(HttpExchange exchange) throws IOException {
		String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
		String answer;
		if ("/apis".equals(exchange.getRequestURI().getPath())) {
			answer = "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[]}";
		}
		else if ("GET".equals(exchange.getRequestMethod())) {
			// discovery of the core group
			answer = "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"v1\",\"resources\":"
					+ "[{\"name\":\"configmaps\",\"singularName\":\"configmap\",\"namespaced\":true,"
					+ "\"kind\":\"ConfigMap\",\"verbs\":[\"create\",\"get\",\"patch\",\"update\"]}]}";
		}
		else {
			this.events.add("sent " + exchange.getRequestMethod());
			this.bodies.add(request);
			answer = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"namespace\":\"default\","
					+ "\"name\":\"a\",\"resourceVersion\":\"8\"}}";
		}
		byte[] body = answer.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

}
