package io.kubeboot.operator.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeboot.operator.client.internal.WriteFence;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the client's calls do with a 429 that cannot be retried: against a scripted server
 * that throttles every request. The retries themselves are tested against the real API
 * server ({@code ThrottlingIntegrationTests}).
 */
class RestCallsThrottlingTests {

	private final List<String> requests = new CopyOnWriteArrayList<>();

	private final AtomicReference<Runnable> onRequest = new AtomicReference<>(() -> {
	});

	private volatile String retryAfter = "1";

	private HttpServer server;

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", this::throttle);
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	@Test
	void aWriteIsNotSentAgainOnceTheLeadershipEndedDuringTheWait() throws Exception {
		AtomicLong now = new AtomicLong();
		WriteFence fence = new WriteFence(Duration.ofSeconds(10), now::get);
		fence.renewed(0);
		// the Lease is lost while the API server throttles the write
		this.onRequest.set(fence::close);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		Thread leaderWork = new Thread(() -> {
			WriteFence.enter(fence);
			try {
				calls(Duration.ofSeconds(30)).send("PATCH", "/api/v1/namespaces/ns/configmaps/a", List.of(),
						RestCalls.bytes("{}"), "application/merge-patch+json", null);
			}
			catch (Throwable ex) {
				failure.set(ex);
			}
		});
		leaderWork.start();
		leaderWork.join(Duration.ofSeconds(10).toMillis());
		assertThat(failure.get()).isInstanceOf(WriteFence.LeadershipLostException.class);
		assertThat(this.requests).containsExactly("PATCH /api/v1/namespaces/ns/configmaps/a");
	}

	@Test
	void aCallWhoseRetryAfterExceedsTheTimeoutEscapesAtOnceWithIt() {
		this.retryAfter = "5";
		long start = System.nanoTime();
		Throwable failure = null;
		try {
			calls(Duration.ofSeconds(2)).send("GET", "/api/v1/namespaces/ns/configmaps/a", List.of(), null,
					"application/json", null);
		}
		catch (Throwable ex) {
			failure = ex;
		}
		assertThat(failure).isInstanceOfSatisfying(ApiServerException.TooManyRequestsException.class, (ex) -> {
			assertThat(ex.retryAfter()).isEqualTo(Duration.ofSeconds(5));
			assertThat(ex).hasMessage("GET /api/v1/namespaces/ns/configmaps/a failed: 429 TooManyRequests: "
					+ "too many requests, please try again later");
		});
		assertThat(this.requests).hasSize(1);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
	}

	private RestCalls calls(Duration timeout) {
		ApiClient client = new ApiClient();
		client.setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		return new RestCalls(ApiClients.withTimeouts(client, timeout, timeout), timeout);
	}

	private void throttle(HttpExchange exchange) throws IOException {
		this.requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
		this.onRequest.get().run();
		byte[] body = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"too many "
				+ "requests, please try again later\",\"reason\":\"TooManyRequests\",\"code\":429}")
			.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.getResponseHeaders().add("Retry-After", this.retryAfter);
		exchange.sendResponseHeaders(429, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

}
