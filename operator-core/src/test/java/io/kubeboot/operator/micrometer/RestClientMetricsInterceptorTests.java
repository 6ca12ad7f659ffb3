package io.kubeboot.operator.micrometer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;

import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RestClientMetricsInterceptor}.
 */
class RestClientMetricsInterceptorTests {

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private HttpServer server;

	private String host;

	@BeforeEach
	void startServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/", (exchange) -> {
			exchange.getRequestBody().readAllBytes();
			int status = exchange.getRequestURI().getPath().equals("/missing") ? 404 : 200;
			exchange.sendResponseHeaders(status, -1);
			exchange.close();
		});
		this.server.start();
		this.host = "127.0.0.1:" + this.server.getAddress().getPort();
	}

	@AfterEach
	void stopServer() {
		this.server.stop(0);
	}

	@Test
	void countsEveryRequestByCodeMethodAndHost() throws IOException {
		OkHttpClient client = new OkHttpClient.Builder().addInterceptor(new RestClientMetricsInterceptor(this.registry))
			.build();
		call(client, new Request.Builder().url("http://" + this.host + "/api/v1/configmaps").build());
		call(client, new Request.Builder().url("http://" + this.host + "/api/v1/configmaps").build());
		call(client, new Request.Builder().url("http://" + this.host + "/missing").build());
		call(client,
				new Request.Builder().url("http://" + this.host + "/api/v1/configmaps/a")
					.put(RequestBody.create(new byte[0]))
					.build());
		assertThat(scrape()).contains("# TYPE rest_client_requests_total counter",
				"rest_client_requests_total{code=\"200\",host=\"" + this.host + "\",method=\"GET\"} 2.0",
				"rest_client_requests_total{code=\"404\",host=\"" + this.host + "\",method=\"GET\"} 1.0",
				"rest_client_requests_total{code=\"200\",host=\"" + this.host + "\",method=\"PUT\"} 1.0");
	}

	@Test
	void requestWithoutResponseCountsAsError() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		OkHttpClient client = new OkHttpClient.Builder().retryOnConnectionFailure(false)
			.addInterceptor(new RestClientMetricsInterceptor(this.registry))
			.build();
		assertThatExceptionOfType(IOException.class)
			.isThrownBy(() -> call(client, new Request.Builder().url("http://127.0.0.1:" + closedPort + "/").build()));
		assertThat(scrape()).contains("rest_client_requests_total{code=\"<error>\",host=\"127.0.0.1:" + closedPort
				+ "\",method=\"GET\"} 1.0");
	}

	@Test
	void ipv6HostKeepsItsBrackets() throws IOException {
		OkHttpClient client = new OkHttpClient.Builder().addInterceptor(new RestClientMetricsInterceptor(this.registry))
			.addInterceptor((chain) -> {
				throw new IOException("no network in this test");
			})
			.build();
		assertThatExceptionOfType(IOException.class)
			.isThrownBy(() -> call(client, new Request.Builder().url("https://[::1]:6443/version").build()));
		assertThat(scrape())
			.contains("rest_client_requests_total{code=\"<error>\",host=\"[::1]:6443\",method=\"GET\"} 1.0");
	}

	@Test
	void instrumentAddsOneInterceptorPerRegistryAndDerivedClientsInheritIt() throws IOException {
		ApiClient apiClient = new ApiClient().setBasePath("http://" + this.host);
		RestClientMetricsInterceptor.instrument(apiClient, this.registry);
		RestClientMetricsInterceptor.instrument(apiClient, this.registry);
		assertThat(apiClient.getHttpClient().interceptors()).filteredOn(RestClientMetricsInterceptor.class::isInstance)
			.hasSize(1);
		OkHttpClient derived = apiClient.getHttpClient().newBuilder().build();
		call(derived, new Request.Builder().url("http://" + this.host + "/api").build());
		assertThat(scrape())
			.contains("rest_client_requests_total{code=\"200\",host=\"" + this.host + "\",method=\"GET\"} 1.0");
		PrometheusMeterRegistry other = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		RestClientMetricsInterceptor.instrument(apiClient, other);
		assertThat(apiClient.getHttpClient().interceptors()).filteredOn(RestClientMetricsInterceptor.class::isInstance)
			.hasSize(2);
	}

	private static void call(OkHttpClient client, Request request) throws IOException {
		try (Response response = client.newCall(request).execute()) {
			response.body().bytes();
		}
	}

	private List<String> scrape() {
		return this.registry.scrape().lines().toList();
	}

}
