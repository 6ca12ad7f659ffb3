package io.kubeboot.operator.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeboot.operator.test.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.jspecify.annotations.Nullable;

/**
 * A plain-HTTP reverse proxy on 127.0.0.1 in front of the test API server that answers
 * chosen requests {@code 429 Too Many Requests} with a {@code Retry-After}, as the API
 * server's priority and fairness does, and forwards every other request over TLS,
 * streaming the answer as it arrives (watches included). It records every request it
 * receives, with the time it arrived.
 */
final class ThrottlingProxy implements AutoCloseable {

	private static final Set<String> HOP_BY_HOP = Set.of("host", "connection", "content-length", "transfer-encoding",
			"keep-alive", "accept-encoding", "content-encoding");

	private final ControlPlane controlPlane;

	private final OkHttpClient upstream;

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "throttling-proxy");
		thread.setDaemon(true);
		return thread;
	});

	private final List<Rule> rules = new CopyOnWriteArrayList<>();

	private final List<Seen> requests = new CopyOnWriteArrayList<>();

	private final Set<Call> calls = ConcurrentHashMap.newKeySet();

	private ThrottlingProxy(ControlPlane controlPlane) throws IOException {
		this.controlPlane = controlPlane;
		this.upstream = controlPlane.adminClient().getHttpClient();
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", this::handle);
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	/**
	 * Starts a proxy to the API server of a control plane.
	 * @param controlPlane the control plane
	 * @return the running proxy
	 * @throws IOException if it cannot listen
	 */
	static ThrottlingProxy to(ControlPlane controlPlane) throws IOException {
		return new ThrottlingProxy(controlPlane);
	}

	/**
	 * Returns a new client authenticated as the control plane's admin that talks to the
	 * API server through this proxy.
	 * @return the client
	 */
	ApiClient adminClient() {
		return this.controlPlane.clientFor(ControlPlane.ADMIN,
				URI.create("http://127.0.0.1:" + this.server.getAddress().getPort()));
	}

	/**
	 * Answers the next requests that match 429 with the given Retry-After.
	 * @param times how many requests to answer so, {@link Integer#MAX_VALUE} for every
	 * one until {@link Rule#stop()}
	 * @param retryAfter the {@code Retry-After} header, {@code null} for none
	 * @param which the requests to throttle
	 * @return the rule
	 */
	Rule throttle(int times, @Nullable String retryAfter, Predicate<Seen> which) {
		Rule rule = new Rule(which, times, retryAfter);
		this.rules.add(rule);
		return rule;
	}

	/**
	 * Returns the requests received so far that match, in the order they arrived.
	 * @param which the requests to return
	 * @return the requests
	 */
	List<Seen> requests(Predicate<Seen> which) {
		return this.requests.stream().filter(which).toList();
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.calls.forEach(Call::cancel);
		this.executor.shutdownNow();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try {
			URI uri = exchange.getRequestURI();
			Seen seen = new Seen(exchange.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(), System.nanoTime());
			Rule rule = this.rules.stream().filter((candidate) -> candidate.takes(seen)).findFirst().orElse(null);
			this.requests.add(seen.throttled(rule != null));
			if (rule != null) {
				tooManyRequests(exchange, rule.retryAfter);
			}
			else {
				forward(exchange, seen);
			}
		}
		finally {
			exchange.close();
		}
	}

	private static void tooManyRequests(HttpExchange exchange, @Nullable String retryAfter) throws IOException {
		byte[] body = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
				+ "\"message\":\"Too many requests, please try again later.\",\"reason\":\"TooManyRequests\","
				+ "\"details\":{\"retryAfterSeconds\":" + ((retryAfter != null) ? retryAfter : "0") + "},\"code\":429}")
			.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		if (retryAfter != null) {
			exchange.getResponseHeaders().add("Retry-After", retryAfter);
		}
		exchange.sendResponseHeaders(429, body.length);
		exchange.getResponseBody().write(body);
	}

	private void forward(HttpExchange exchange, Seen seen) throws IOException {
		byte[] content = exchange.getRequestBody().readAllBytes();
		String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
		boolean bodyless = content.length == 0 && List.of("GET", "HEAD", "DELETE").contains(seen.method());
		Request.Builder request = new Request.Builder()
			.url(this.controlPlane.apiServerUrl()
				.resolve(seen.path() + ((seen.query() != null) ? "?" + seen.query() : ""))
				.toString())
			.method(seen.method(), bodyless ? null
					: RequestBody.create(content, (contentType != null) ? MediaType.parse(contentType) : null));
		exchange.getRequestHeaders().forEach((name, values) -> {
			if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
				values.forEach((value) -> request.addHeader(name, value));
			}
		});
		Call call = this.upstream.newCall(request.build());
		this.calls.add(call);
		try (Response response = call.execute()) {
			response.headers().forEach((header) -> {
				if (!HOP_BY_HOP.contains(header.getFirst().toLowerCase(Locale.ROOT))) {
					exchange.getResponseHeaders().add(header.getFirst(), header.getSecond());
				}
			});
			ResponseBody body = response.body();
			boolean empty = body == null || seen.method().equals("HEAD") || response.code() == 204
					|| response.code() == 304;
			exchange.sendResponseHeaders(response.code(), empty ? -1 : 0);
			if (!empty) {
				// chunk by chunk as it arrives, so that watch events pass at once
				InputStream in = body.byteStream();
				OutputStream out = exchange.getResponseBody();
				byte[] buffer = new byte[8192];
				for (int read = in.read(buffer); read != -1; read = in.read(buffer)) {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
		}
		finally {
			this.calls.remove(call);
		}
	}

	/**
	 * A request the proxy received.
	 *
	 * @param method the HTTP method
	 * @param path the path
	 * @param query the query string, {@code null} if none
	 * @param nanos when it arrived ({@link System#nanoTime()})
	 * @param wasThrottled whether the proxy answered it 429
	 */
	record Seen(String method, String path, @Nullable String query, long nanos, boolean wasThrottled) {

		Seen(String method, String path, @Nullable String query, long nanos) {
			this(method, path, query, nanos, false);
		}

		Seen throttled(boolean throttled) {
			return new Seen(this.method, this.path, this.query, this.nanos, throttled);
		}

		boolean isWatch() {
			return this.query != null && List.of(this.query.split("&")).contains("watch=true");
		}

		/**
		 * Returns the time between an earlier request and this one.
		 * @param earlier the earlier request
		 * @return the time between their arrivals
		 */
		Duration since(Seen earlier) {
			return Duration.ofNanos(this.nanos - earlier.nanos);
		}

	}

	/**
	 * Which requests to answer 429, and how often.
	 */
	static final class Rule {

		private final Predicate<Seen> which;

		private final AtomicInteger remaining;

		private final @Nullable String retryAfter;

		private Rule(Predicate<Seen> which, int times, @Nullable String retryAfter) {
			this.which = which;
			this.remaining = new AtomicInteger(times);
			this.retryAfter = retryAfter;
		}

		private boolean takes(Seen seen) {
			if (!this.which.test(seen)) {
				return false;
			}
			if (this.remaining.get() == Integer.MAX_VALUE) {
				return true;
			}
			return this.remaining.getAndUpdate((left) -> Math.max(0, left - 1)) > 0;
		}

		/**
		 * Forwards the matching requests from now on.
		 */
		void stop() {
			this.remaining.set(0);
		}

	}

}
