package io.kubeboot.operator.leaderelection.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeboot.operator.testing.HeldOpenStream;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeaseWatch}: stopped while its thread reads the watch, and the events
 * it reads.
 */
class LeaseWatchTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Test
	void stoppingEndsTheReadAndLeavesTheBodyToTheWatchThread() throws Exception {
		try (HeldOpenStream stream = new HeldOpenStream()) {
			LeaseWatch watch = new LeaseWatch(stream.client(), "default", "leader", Duration.ofMinutes(1));
			watch.start();
			await().atMost(WAIT).until(() -> stream.reading() == 1);

			watch.stop();
			stream.releaseReads();

			await().atMost(WAIT).until(() -> stream.reading() == 0 && stream.closed() == 1);
			assertThat(stream.closedUnderARead()).isZero();
		}
	}

	@Test
	void readsAnEventWhoseLeaseHasFieldsClientJavaDoesNotKnow() throws IOException {
		String event = """
				{"type": "MODIFIED", "object": {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
				 "metadata": {"name": "leader", "namespace": "default", "resourceVersion": "7"},
				 "spec": {"holderIdentity": "replica-2", "fieldOfANewerRelease": "x"}}}""".replace("\n", " ");
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/", (exchange) -> answer(exchange, event));
		server.start();
		List<String> holders = new CopyOnWriteArrayList<>();
		ApiClient client = new ApiClient();
		client.setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
		LeaseWatch watch = LeaseWatch.ofLabel(client, "default", "app=test", Duration.ofMinutes(1), (change) -> {
			holders.add(change.object.getSpec().getHolderIdentity());
			return true;
		}, () -> {
		}, "forbidden: {} {} {}");
		try {
			watch.start();
			await().atMost(WAIT).until(() -> !holders.isEmpty());
			assertThat(holders.get(0)).isEqualTo("replica-2");
		}
		finally {
			watch.stop();
			server.stop(0);
		}
	}

	@Test
	void aWatchErrorThatTheVersionIsGoneWatchesAgainFromNow() throws Exception {
		String modified = """
				{"type": "MODIFIED", "object": {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
				 "metadata": {"name": "leader", "namespace": "default", "resourceVersion": "7"},
				 "spec": {"holderIdentity": "replica-2"}}}""".replace("\n", " ");
		String gone = """
				{"type": "ERROR", "object": {"apiVersion": "v1", "kind": "Status", "status": "Failure",
				 "message": "too old resource version: 5 (7)", "reason": "Expired", "code": 410}}""".replace("\n", " ");
		List<String> queries = new CopyOnWriteArrayList<>();
		CountDownLatch done = new CountDownLatch(1);
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		ExecutorService handlers = Executors.newCachedThreadPool();
		server.setExecutor(handlers);
		server.createContext("/", (exchange) -> {
			queries.add(String.valueOf(exchange.getRequestURI().getQuery()));
			if (queries.size() == 1) {
				answer(exchange, modified + "\n" + gone);
				return;
			}
			try {
				// every later watch is held open until the test ends
				done.await(WAIT.toSeconds(), TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			answer(exchange, modified);
		});
		server.start();
		ApiClient client = new ApiClient();
		client.setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
		LeaseWatch watch = new LeaseWatch(client, "default", "leader", Duration.ofMinutes(1));
		try {
			watch.start();
			await().atMost(WAIT).until(() -> queries.size() >= 2);
			assertThat(queries.get(0)).doesNotContain("resourceVersion=");
			assertThat(queries.get(1)).contains("watch=true").doesNotContain("resourceVersion=");
		}
		finally {
			done.countDown();
			watch.stop();
			server.stop(0);
			handlers.shutdownNow();
		}
	}

	private static void answer(HttpExchange exchange, String event) throws IOException {
		byte[] line = (event + "\n").getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, line.length);
		OutputStream out = exchange.getResponseBody();
		out.write(line);
		exchange.close();
	}

}
