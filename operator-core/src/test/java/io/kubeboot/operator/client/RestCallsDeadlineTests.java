package io.kubeboot.operator.client;

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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import com.google.gson.JsonElement;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeboot.operator.client.internal.CallDeadline;
import io.kubeboot.operator.client.internal.CallDeadline.DeadlineExceededException;
import io.kubeboot.operator.client.internal.DelegatingAuthApiClient;
import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Interceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The client's calls under the {@link CallDeadline} of a reconcile with a timeout,
 * against a scripted server that answers at once or never.
 */
class RestCallsDeadlineTests {

	private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);

	private final List<String> requests = new CopyOnWriteArrayList<>();

	private final CountDownLatch release = new CountDownLatch(1);

	private final ExecutorService handlers = Executors.newCachedThreadPool();

	private HttpServer server;

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", this::answer);
		// a hanging request must not hold up the next one
		this.server.setExecutor(this.handlers);
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.release.countDown();
		this.server.stop(0);
		this.handlers.shutdownNow();
	}

	@Test
	void noCallIsSentAfterTheDeadlineNeitherReadNorWrite() throws Exception {
		AtomicLong now = new AtomicLong();
		CallDeadline deadline = new CallDeadline(Duration.ofSeconds(1), now::get, "the reconcile of ns/a");
		now.set(Duration.ofSeconds(1).toNanos());
		List<Throwable> failures = new CopyOnWriteArrayList<>();
		run(deadline, () -> {
			for (String method : List.of("GET", "PATCH")) {
				try {
					calls().send(method, "/api/v1/namespaces/ns/configmaps/a", List.of(),
							"GET".equals(method) ? null : RestCalls.bytes("{}"), "application/merge-patch+json", null);
				}
				catch (Throwable ex) {
					failures.add(ex);
				}
			}
		});
		assertThat(failures).hasSize(2)
			.allSatisfy((failure) -> assertThat(failure).isInstanceOf(DeadlineExceededException.class)
				.hasMessageContaining("the reconcile of ns/a"));
		assertThat(this.requests).isEmpty();
	}

	@Test
	void aCallUnansweredAtTheDeadlineIsCutOffThenNotAtTheClientTimeout() throws Exception {
		RestCalls calls = calls();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		AtomicLong took = new AtomicLong();
		Thread thread = new Thread(() -> {
			// warmed up, so that the deadline is not spent loading classes
			calls.send("GET", "/api/v1/namespaces/ns/configmaps/a", List.of(), null, "application/json", null);
			CallDeadline.enter(new CallDeadline(Duration.ofSeconds(1), System::nanoTime, "the reconcile of ns/a"));
			long start = System.nanoTime();
			try {
				calls.send("GET", "/api/v1/namespaces/ns/configmaps/hangs", List.of(), null, "application/json", null);
			}
			catch (Throwable ex) {
				failure.set(ex);
			}
			took.set(System.nanoTime() - start);
		});
		thread.start();
		thread.join(CLIENT_TIMEOUT.toMillis());
		assertThat(failure.get()).isInstanceOf(DeadlineExceededException.class)
			.hasMessageContaining("a call still unanswered at the deadline was cancelled");
		assertThat(this.requests).containsExactly("GET /api/v1/namespaces/ns/configmaps/a",
				"GET /api/v1/namespaces/ns/configmaps/hangs");
		assertThat(Duration.ofNanos(took.get())).isLessThan(CLIENT_TIMEOUT.dividedBy(2));
	}

	@Test
	void expiringTheDeadlineCancelsACallInFlightThroughAClientWithItsInterceptor() throws Exception {
		// a deadline as long as the client's timeout: only expire() can end the call soon
		CallDeadline deadline = new CallDeadline(CLIENT_TIMEOUT, System::nanoTime, "the reconcile of ns/a");
		AtomicReference<Throwable> failure = new AtomicReference<>();
		Thread expiry = new Thread(() -> {
			await().atMost(CLIENT_TIMEOUT).until(() -> !this.requests.isEmpty());
			deadline.expire();
		});
		expiry.start();
		long start = System.nanoTime();
		run(deadline, () -> {
			ApiClient client = new ApiClient();
			client.setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
			ApiClient intercepted = new DelegatingAuthApiClient(client,
					(builder) -> builder.callTimeout(CLIENT_TIMEOUT).addInterceptor(CallDeadline.interceptor()));
			try {
				new RestCalls(intercepted, CLIENT_TIMEOUT).send("GET", "/api/v1/namespaces/ns/configmaps/hangs",
						List.of(), null, "application/json", null);
			}
			catch (Throwable ex) {
				failure.set(ex);
			}
		});
		expiry.join();
		assertThat(failure.get()).isInstanceOf(DeadlineExceededException.class)
			.hasMessageContaining("a call still unanswered at the deadline was cancelled");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(CLIENT_TIMEOUT.dividedBy(2));
		assertThat(deadline.isOpen()).isFalse();
	}

	/**
	 * OkHttp stops a call when it is cancelled, not when its thread is interrupted: an
	 * interrupt that lands while it writes a frame of a shared HTTP/2 connection breaks
	 * that connection for every call multiplexed on it. So a thread in a call at the
	 * deadline is interrupted only once out of it.
	 */
	@Test
	void aThreadInACallAtTheDeadlineIsInterruptedOnlyOnceOutOfIt() throws Exception {
		CallDeadline deadline = new CallDeadline(CLIENT_TIMEOUT, System::nanoTime, "the reconcile of ns/a");
		CountDownLatch inCall = new CountDownLatch(1);
		AtomicBoolean interruptedInCall = new AtomicBoolean();
		AtomicBoolean interruptedAfter = new AtomicBoolean();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		AtomicReference<Thread> worker = new AtomicReference<>();
		// stands for OkHttp writing a request body, which notices a cancel between frames
		Interceptor writing = (chain) -> {
			inCall.countDown();
			long until = System.nanoTime() + CLIENT_TIMEOUT.toNanos();
			while (!chain.call().isCanceled() && System.nanoTime() - until < 0) {
				watchInterrupt(interruptedInCall);
			}
			// the rest of the frame being written when the call was cancelled
			long frame = System.nanoTime() + Duration.ofMillis(300).toNanos();
			while (System.nanoTime() - frame < 0) {
				watchInterrupt(interruptedInCall);
			}
			throw new IOException("Canceled");
		};
		Thread expiry = new Thread(() -> {
			await().atMost(CLIENT_TIMEOUT).until(() -> inCall.getCount() == 0);
			deadline.expire(worker.get());
		});
		expiry.start();
		run(deadline, () -> {
			worker.set(Thread.currentThread());
			ApiClient client = new ApiClient();
			client.setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
			ApiClient intercepted = new DelegatingAuthApiClient(client,
					(builder) -> builder.callTimeout(CLIENT_TIMEOUT)
						.addInterceptor(CallDeadline.interceptor())
						.addInterceptor(writing));
			try {
				new RestCalls(intercepted, CLIENT_TIMEOUT).send("PATCH", "/api/v1/namespaces/ns/configmaps/a",
						List.of(), RestCalls.bytes("{}"), "application/merge-patch+json", null);
			}
			catch (Throwable ex) {
				failure.set(ex);
			}
			interruptedAfter.set(Thread.currentThread().isInterrupted());
		});
		expiry.join();
		assertThat(failure.get()).isInstanceOf(DeadlineExceededException.class);
		assertThat(interruptedInCall).as("interrupted inside the call").isFalse();
		assertThat(interruptedAfter).as("interrupted once out of it").isTrue();
	}

	private static void watchInterrupt(AtomicBoolean interrupted) {
		if (Thread.currentThread().isInterrupted()) {
			interrupted.set(true);
		}
		Thread.onSpinWait();
	}

	@Test
	void aCallBeforeTheDeadlineIsAnsweredAsUsual() throws Exception {
		CallDeadline deadline = new CallDeadline(Duration.ofSeconds(20), System::nanoTime, "the reconcile of ns/a");
		AtomicReference<Object> answer = new AtomicReference<>();
		run(deadline, () -> answer.set(calls().send("GET", "/api/v1/namespaces/ns/configmaps/a", List.of(), null,
				"application/json", JsonElement.class)));
		assertThat(answer.get()).hasToString("{\"kind\":\"ConfigMap\"}");
	}

	private void run(CallDeadline deadline, Runnable work) throws InterruptedException {
		Thread thread = new Thread(() -> {
			CallDeadline.enter(deadline);
			work.run();
		});
		thread.start();
		thread.join(CLIENT_TIMEOUT.toMillis());
		assertThat(thread.isAlive()).isFalse();
	}

	private RestCalls calls() {
		ApiClient client = new ApiClient();
		client.setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		return new RestCalls(ApiClients.withTimeouts(client, CLIENT_TIMEOUT, CLIENT_TIMEOUT), CLIENT_TIMEOUT);
	}

	private void answer(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		this.requests.add(exchange.getRequestMethod() + " " + path);
		if (path.endsWith("/hangs")) {
			try {
				this.release.await(CLIENT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		byte[] body = "{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

}
