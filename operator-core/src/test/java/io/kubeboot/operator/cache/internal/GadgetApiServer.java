package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;

import static org.awaitility.Awaitility.await;

/**
 * A scripted API server on 127.0.0.1 that serves the test kind {@link Gadget}, namespaced
 * or cluster-scoped: lists per namespace (or of all namespaces) from what the test puts
 * in {@link #listed}, watches that stream what the test feeds them, {@code 403 Forbidden}
 * for the namespaces the test denies (and {@code SelfSubjectAccessReview}s that say so),
 * {@code /version}.
 */
final class GadgetApiServer implements AutoCloseable {

	static final Duration WAIT = Duration.ofSeconds(10);

	private static final Pattern NAMESPACED = Pattern
		.compile("/apis/test\\.kubeboot\\.io/v1/namespaces/([^/]+)/gadgets");

	private static final String ALL = "/apis/test.kubeboot.io/v1/gadgets";

	/** What a list of each namespace returns ("" for all namespaces): gadget JSON. */
	final Map<String, List<String>> listed = new ConcurrentHashMap<>();

	/**
	 * The watches opened, by namespace ("" for all namespaces): the test feeds the last.
	 */
	final Map<String, List<BlockingQueue<String>>> watches = new ConcurrentHashMap<>();

	/** The namespaces whose lists and watches RBAC denies. */
	final Set<String> denied = ConcurrentHashMap.newKeySet();

	/** How many lists each namespace was asked for ("" for all namespaces). */
	final Map<String, Integer> lists = new ConcurrentHashMap<>();

	volatile boolean namespaced = true;

	private final CountDownLatch done = new CountDownLatch(1);

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final HttpServer server;

	GadgetApiServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::answer);
		this.server.start();
	}

	ApiClient client() {
		return new ApiClient().setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
	}

	/**
	 * Sends an event to the last watch of a namespace, once one is open.
	 * @param namespace the namespace, "" for all namespaces
	 * @param event the watch event
	 */
	void feed(String namespace, String event) {
		await().atMost(WAIT).until(() -> this.watches.containsKey(namespace));
		List<BlockingQueue<String>> opened = this.watches.get(namespace);
		opened.get(opened.size() - 1).add(event);
	}

	@Override
	public void close() {
		this.done.countDown();
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	static String gadget(String namespace, String name, String resourceVersion, String owner) {
		String inNamespace = (namespace != null) ? "\"namespace\": \"" + namespace + "\", " : "";
		return """
				{"apiVersion": "test.kubeboot.io/v1", "kind": "Gadget",
				 "metadata": {"name": "%s", %s"uid": "u-%s-%s", "resourceVersion": "%s",
				  "labels": {"owner": "%s"}}}""".formatted(name, inNamespace, namespace, name, resourceVersion, owner)
			.replace("\n", "");
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			String query = exchange.getRequestURI().getRawQuery();
			Matcher inNamespace = NAMESPACED.matcher(path);
			String namespace = inNamespace.matches() ? inNamespace.group(1) : path.equals(ALL) ? "" : null;
			if (path.equals("/apis/test.kubeboot.io/v1")) {
				send(exchange, 200, """
						{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "test.kubeboot.io/v1",
						 "resources": [{"name": "gadgets", "singularName": "gadget", "namespaced": %s,
						  "kind": "Gadget", "verbs": ["get", "list", "watch"]}]}""".formatted(this.namespaced));
			}
			else if (path.equals("/version")) {
				send(exchange, 200, "{\"major\": \"1\", \"minor\": \"37\", \"gitVersion\": \"v1.37.2\"}");
			}
			else if (path.endsWith("/selfsubjectaccessreviews")) {
				JsonObject review = JsonParser
					.parseString(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8))
					.getAsJsonObject();
				JsonObject attributes = review.getAsJsonObject("spec").getAsJsonObject("resourceAttributes");
				boolean allowed = attributes == null || !attributes.has("namespace")
						|| !this.denied.contains(attributes.get("namespace").getAsString());
				send(exchange, 201,
						"{\"apiVersion\": \"authorization.k8s.io/v1\", \"kind\": \"SelfSubjectAccessReview\", "
								+ "\"spec\": " + review.get("spec") + ", \"status\": {\"allowed\": " + allowed + "}}");
			}
			else if (namespace != null && this.denied.contains(namespace)) {
				send(exchange, 403, "{\"kind\": \"Status\", \"apiVersion\": \"v1\", \"status\": \"Failure\", "
						+ "\"reason\": \"Forbidden\", \"code\": 403, \"message\": \"gadgets.test.kubeboot.io is "
						+ "forbidden: User \\\"operator\\\" cannot list resource \\\"gadgets\\\" in API group "
						+ "\\\"test.kubeboot.io\\\" in the namespace \\\"" + namespace + "\\\"\"}");
			}
			else if (namespace != null && query != null && query.contains("watch=true")) {
				watch(exchange, namespace);
			}
			else if (namespace != null) {
				this.lists.merge(namespace, 1, Integer::sum);
				send(exchange, 200,
						"{\"kind\": \"GadgetList\", \"apiVersion\": \"test.kubeboot.io/v1\", "
								+ "\"metadata\": {\"resourceVersion\": \"42\"}, \"items\": ["
								+ String.join(", ", this.listed.getOrDefault(namespace, List.of())) + "]}");
			}
			else {
				send(exchange, 404, "{\"kind\": \"Status\", \"apiVersion\": \"v1\", \"code\": 404}");
			}
		}
	}

	/**
	 * Streams the events the test feeds this watch until the test ends.
	 */
	private void watch(HttpExchange exchange, String namespace) throws IOException {
		BlockingQueue<String> events = new LinkedBlockingQueue<>();
		this.watches.computeIfAbsent(namespace, (key) -> new CopyOnWriteArrayList<>()).add(events);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, 0);
		OutputStream out = exchange.getResponseBody();
		out.flush();
		try {
			while (this.done.getCount() > 0) {
				String event = events.poll(100, TimeUnit.MILLISECONDS);
				if (event != null) {
					out.write((event + "\n").getBytes(StandardCharsets.UTF_8));
					out.flush();
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (IOException ex) {
			// the informer closed its watch: it was stopped
		}
	}

	private static void send(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		exchange.getResponseBody().write(bytes);
	}

}
