package io.kubeboot.sample;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in for the bucket registry outside the cluster, on 127.0.0.1 and a free port:
 * records every request to {@code /buckets/...} and answers with a status the test
 * chooses.
 */
final class BucketRegistryServer implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final AtomicInteger status = new AtomicInteger(200);

	private final List<Call> calls = new CopyOnWriteArrayList<>();

	private BucketRegistryServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/buckets/", (exchange) -> {
			String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
			int answer = this.status.get();
			this.calls.add(new Call(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), body, answer));
			exchange.sendResponseHeaders(answer, -1);
			exchange.close();
		});
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	static BucketRegistryServer start() throws IOException {
		return new BucketRegistryServer();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/** Makes the registry answer with a status from now on. */
	void answer(int status) {
		this.status.set(status);
	}

	/** The requests of one method and path, in order. */
	List<Call> calls(String method, String path) {
		return this.calls.stream().filter((call) -> call.method().equals(method) && call.path().equals(path)).toList();
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	/**
	 * One request and the status it was answered with.
	 */
	record Call(String method, String path, String body, int status) {
	}

}
