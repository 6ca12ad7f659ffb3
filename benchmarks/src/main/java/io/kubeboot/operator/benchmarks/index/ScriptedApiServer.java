package io.kubeboot.operator.benchmarks.index;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;

/**
 * An API server in this JVM that serves just enough for a manager to cache one namespace
 * of ConfigMaps: discovery of the core group and no other, access reviews that allow
 * everything, {@code /version}, a list of the ConfigMaps and watches that stay open
 * without an event. ConfigMap {@code app-<i>} names the Secret
 * {@code secret-<i % secrets>} in {@code data.secret}, so that every Secret is named by
 * {@code configMaps / secrets} ConfigMaps.
 */
final class ScriptedApiServer implements AutoCloseable {

	static final String NAMESPACE = "bench";

	private static final String CONFIG_MAPS = "/api/v1/namespaces/" + NAMESPACE + "/configmaps";

	private final ExecutorService executor = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "scripted-api-server");
		thread.setDaemon(true);
		return thread;
	});

	private final CountDownLatch closed = new CountDownLatch(1);

	private final byte[] list;

	private final HttpServer server;

	private ScriptedApiServer(int configMaps, int secrets) throws IOException {
		StringBuilder items = new StringBuilder();
		for (int i = 0; i < configMaps; i++) {
			items.append((i > 0) ? ", " : "")
				.append("""
						{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "app-%d", "namespace": "%s",
						 "uid": "uid-%d", "resourceVersion": "10"}, "data": {"secret": "secret-%d"}}""".formatted(i,
						NAMESPACE, i, i % secrets));
		}
		this.list = ("{\"kind\": \"ConfigMapList\", \"apiVersion\": \"v1\", \"metadata\": {\"resourceVersion\": \"10\"}, "
				+ "\"items\": [" + items + "]}")
			.getBytes(StandardCharsets.UTF_8);
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::answer);
		this.server.start();
	}

	/**
	 * Starts a server.
	 * @param configMaps how many ConfigMaps it serves
	 * @param secrets how many Secrets they name
	 * @return the server, listening on a free loopback port
	 * @throws IOException if it cannot listen
	 */
	static ScriptedApiServer serving(int configMaps, int secrets) throws IOException {
		return new ScriptedApiServer(configMaps, secrets);
	}

	/**
	 * Returns a client of this server.
	 * @return the client
	 */
	ApiClient client() {
		return new ApiClient().setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
	}

	@Override
	public void close() {
		this.closed.countDown();
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			String query = exchange.getRequestURI().getRawQuery();
			if (path.equals("/api/v1")) {
				send(exchange, 200, """
						{"kind": "APIResourceList", "groupVersion": "v1", "resources": [{"name": "configmaps",
						 "singularName": "configmap", "namespaced": true, "kind": "ConfigMap",
						 "verbs": ["get", "list", "watch"]}]}""".getBytes(StandardCharsets.UTF_8));
			}
			else if (path.equals("/apis")) {
				send(exchange, 200, "{\"kind\": \"APIGroupList\", \"apiVersion\": \"v1\", \"groups\": []}"
					.getBytes(StandardCharsets.UTF_8));
			}
			else if (path.equals("/version")) {
				send(exchange, 200, """
						{"major": "1", "minor": "37", "gitVersion": "v1.37.0", "gitCommit": "", "gitTreeState": "",
						 "buildDate": "", "goVersion": "", "compiler": "", "platform": "linux/amd64"}"""
					.getBytes(StandardCharsets.UTF_8));
			}
			else if (path.endsWith("/selfsubjectaccessreviews")) {
				send(exchange, 201, """
						{"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1", "spec": {},
						 "status": {"allowed": true}}""".getBytes(StandardCharsets.UTF_8));
			}
			else if (path.equals(CONFIG_MAPS) && query != null && query.contains("watch=true")) {
				watch(exchange);
			}
			else if (path.equals(CONFIG_MAPS)) {
				send(exchange, 200, this.list);
			}
			else {
				send(exchange, 404, "{\"kind\": \"Status\", \"apiVersion\": \"v1\", \"code\": 404}"
					.getBytes(StandardCharsets.UTF_8));
			}
		}
	}

	/**
	 * Holds a watch open, without an event, until the watch times out or the server
	 * closes.
	 */
	private void watch(HttpExchange exchange) throws IOException {
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, 0);
		exchange.getResponseBody().flush();
		try {
			this.closed.await(1, TimeUnit.MINUTES);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void send(HttpExchange exchange, int code, byte[] body) throws IOException {
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(code, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

}
