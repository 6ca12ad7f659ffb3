package io.kubeboot.sample;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in for an object store's bucket health endpoints, on 127.0.0.1 and a free port:
 * {@code /bucket} answers with a status the test chooses, {@code /slow} answers only
 * after the probes gave up. Records the {@code User-Agent} and the request target (path
 * and query) of every probe of {@code /bucket}.
 */
final class BucketEndpoint implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final AtomicInteger status = new AtomicInteger(200);

	private final List<String> userAgents = new CopyOnWriteArrayList<>();

	private final List<String> targets = new CopyOnWriteArrayList<>();

	private final CountDownLatch closed = new CountDownLatch(1);

	private BucketEndpoint() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/bucket", (exchange) -> {
			this.targets.add(exchange.getRequestURI().toString());
			this.userAgents.add(String.valueOf(exchange.getRequestHeaders().getFirst("User-Agent")));
			exchange.sendResponseHeaders(this.status.get(), -1);
			exchange.close();
		});
		this.server.createContext("/slow", (exchange) -> {
			try {
				this.closed.await(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			exchange.sendResponseHeaders(200, -1);
			exchange.close();
		});
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	static BucketEndpoint start() throws IOException {
		return new BucketEndpoint();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/bucket";
	}

	String slowUrl() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/slow";
	}

	/** Makes {@code /bucket} answer with a status from now on. */
	void answer(int status) {
		this.status.set(status);
	}

	List<String> userAgents() {
		return List.copyOf(this.userAgents);
	}

	/**
	 * The request targets of the probes of {@code /bucket}, such as {@code /bucket?a=b}.
	 */
	List<String> targets() {
		return List.copyOf(this.targets);
	}

	int probes() {
		return this.userAgents.size();
	}

	@Override
	public void close() {
		this.closed.countDown();
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
