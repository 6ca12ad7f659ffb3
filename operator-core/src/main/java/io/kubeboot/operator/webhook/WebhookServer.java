package io.kubeboot.operator.webhook;

import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.metrics.WebhookMetrics;
import io.kubeboot.operator.tracing.OperatorTracing;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves webhooks over HTTPS for the API server, the counterpart of controller-runtime's
 * webhook server: admission ({@code admission.k8s.io/v1} AdmissionReview, see
 * {@link AdmissionWebhook}) and conversion ({@code apiextensions.k8s.io/v1}
 * ConversionReview, see {@link ConversionWebhook}) on paths of its own, on a port of its
 * own (9443 by default), apart from the application's and Actuator's. Given to a manager,
 * it is started before the caches and stopped after them, so that the API server can call
 * it whenever the operator could act.
 * <p>
 * Each request's webhook code runs with a deadline ({@link Builder#handlerTimeout}): past
 * it the request is answered with HTTP 500, which the API server treats according to the
 * webhook configuration's {@code failurePolicy}, and the server goes on serving other
 * requests. The serving certificate can change while the server runs (see
 * {@link ServingCertificate}).
 * <p>
 * It serves on {@value #SERVER_THREADS} threads; a request body not received within the
 * handler timeout closes its connection, so slow senders cannot hold those threads, and
 * at most {@value #HANDLER_THREADS} webhook calls run at once (calls past their deadline
 * that ignore their interruption included): past that, requests are answered 503 at once.
 * Answers never carry an exception's text, which goes to the log.
 */
public final class WebhookServer {

	/** The default port, controller-runtime's. */
	public static final int DEFAULT_PORT = 9443;

	/** The default deadline of a webhook's code. */
	public static final Duration DEFAULT_HANDLER_TIMEOUT = Duration.ofSeconds(10);

	/** The largest request body accepted, the API server's own limit for a request. */
	private static final int MAX_BODY_BYTES = 3 * 1024 * 1024;

	private static final Logger logger = LoggerFactory.getLogger(WebhookServer.class);

	/** Threads that read requests and write answers. */
	static final int SERVER_THREADS = 8;

	/**
	 * Threads that run webhook code: one per server thread, and as many for calls past
	 * their deadline that ignore their interruption.
	 */
	static final int HANDLER_THREADS = 2 * SERVER_THREADS;

	private final ServingCertificate certificate;

	private final String bindAddress;

	private final int port;

	private final Duration handlerTimeout;

	private final WebhookMetrics metrics;

	private final OperatorTracing tracing;

	private final Map<String, WebhookHandler> handlers = new ConcurrentHashMap<>();

	private volatile @Nullable HttpsServer server;

	/** The threads of the server started last: a server can be started again. */
	private volatile @Nullable Threads threads;

	private WebhookServer(Builder builder) {
		this.certificate = builder.certificate;
		this.bindAddress = builder.bindAddress;
		this.port = builder.port;
		this.handlerTimeout = builder.handlerTimeout;
		this.metrics = builder.metrics;
		this.tracing = builder.tracing;
	}

	/**
	 * Starts building a server.
	 * @param certificate the certificate it serves
	 * @return the builder
	 */
	public static Builder builder(ServingCertificate certificate) {
		return new Builder(Objects.requireNonNull(certificate, "certificate must not be null"));
	}

	/**
	 * Registers a handler on a path. Paths can be added while the server runs.
	 * @param path the path, starting with {@code /}
	 * @param handler the handler
	 * @throws IllegalArgumentException if the path is taken or does not start with
	 * {@code /}
	 */
	void register(String path, WebhookHandler handler) {
		if (path == null || !path.startsWith("/")) {
			throw new IllegalArgumentException("A webhook path must start with '/': " + path);
		}
		if (this.handlers.putIfAbsent(path, handler) != null) {
			throw new IllegalArgumentException("A webhook is already registered at " + path);
		}
		logger.debug("Webhook registered: path={}", path);
	}

	/**
	 * Returns the handler of a path that several registrations share, registering it
	 * first if the path is free. Paths can be added while the server runs.
	 * @param <H> the handler's type
	 * @param path the path, starting with {@code /}
	 * @param type the handler's class
	 * @param handler creates the handler if the path is free
	 * @return the path's handler
	 * @throws IllegalArgumentException if the path does not start with {@code /} or has a
	 * handler of another class
	 */
	<H extends WebhookHandler> H shared(String path, Class<H> type, Supplier<H> handler) {
		if (path == null || !path.startsWith("/")) {
			throw new IllegalArgumentException("A webhook path must start with '/': " + path);
		}
		WebhookHandler registered = this.handlers.computeIfAbsent(path, (free) -> {
			logger.debug("Webhook registered: path={}", path);
			return handler.get();
		});
		if (!type.isInstance(registered)) {
			throw new IllegalArgumentException("Another webhook is already registered at " + path);
		}
		return type.cast(registered);
	}

	WebhookMetrics metrics() {
		return this.metrics;
	}

	/**
	 * Returns the registered paths.
	 * @return the paths, sorted
	 */
	public List<String> paths() {
		return this.handlers.keySet().stream().sorted().toList();
	}

	/**
	 * Starts serving. Does nothing if already serving.
	 * @throws WebhookBindException naming the address if the port cannot be bound (for
	 * example because another process uses it)
	 */
	public synchronized void start() {
		if (this.server != null) {
			return;
		}
		InetSocketAddress address = new InetSocketAddress(this.bindAddress, this.port);
		HttpsServer created;
		try {
			created = HttpsServer.create(address, 0);
		}
		catch (BindException ex) {
			throw new WebhookBindException("Cannot serve webhooks on " + this.bindAddress + ":" + this.port
					+ ": the port is in use or not allowed (" + ex.getMessage() + ")", ex);
		}
		catch (IOException ex) {
			throw new WebhookBindException(
					"Cannot serve webhooks on " + this.bindAddress + ":" + this.port + ": " + ex.getMessage(), ex);
		}
		created.setHttpsConfigurator(new HttpsConfigurator(this.certificate.sslContext()));
		Threads started = new Threads();
		created.setExecutor(started.server);
		created.createContext("/", (exchange) -> serve(exchange, started));
		created.start();
		this.threads = started;
		this.server = created;
		logger.info("Webhook server started: address={}:{} paths={}", this.bindAddress, port(), paths());
	}

	/**
	 * Stops serving, letting requests in progress finish for up to a second.
	 */
	public synchronized void stop() {
		HttpsServer started = this.server;
		if (started == null) {
			return;
		}
		this.server = null;
		started.stop(1);
		Threads running = this.threads;
		if (running != null) {
			running.shutdown();
		}
		logger.info("Webhook server stopped");
	}

	/**
	 * Whether the server accepts requests.
	 * @return {@code true} between {@link #start()} and {@link #stop()}
	 */
	public boolean isServing() {
		return this.server != null;
	}

	/**
	 * Returns the port the server listens on: the configured one, or the one chosen for
	 * port 0 once started.
	 * @return the port
	 */
	public int port() {
		HttpsServer started = this.server;
		return (started != null) ? started.getAddress().getPort() : this.port;
	}

	/**
	 * Returns the certificate the server serves.
	 * @return the certificate
	 */
	public ServingCertificate certificate() {
		return this.certificate;
	}

	private void serve(HttpExchange exchange, Threads threads) throws IOException {
		String path = exchange.getRequestURI().getPath();
		WebhookHandler handler = this.handlers.get(path);
		if (handler == null) {
			answer(exchange, 404, "no webhook at " + path);
			return;
		}
		long start = System.nanoTime();
		this.metrics.started(path);
		int code = 500;
		OperatorTracing.WebhookSpan span = this.tracing.isNoop() ? OperatorTracing.WebhookSpan.NOOP
				: this.tracing.webhook((handler instanceof ConversionHandler) ? "conversion" : "admission", path,
						(name) -> exchange.getRequestHeaders().getFirst(name));
		SpanEnd spanEnd = new SpanEnd(span);
		Throwable error = null;
		try {
			if (!"POST".equals(exchange.getRequestMethod())) {
				code = 405;
				answer(exchange, code, "webhooks answer POST only");
				return;
			}
			byte[] body;
			try {
				body = read(exchange, threads);
			}
			catch (IOException ex) {
				code = 408;
				logger.warn("Webhook request body not received within {}, connection closed: path={} remote={}",
						this.handlerTimeout, path, exchange.getRemoteAddress());
				return;
			}
			if (body == null) {
				code = 413;
				answer(exchange, code, "request body larger than " + MAX_BODY_BYTES + " bytes");
				return;
			}
			Future<byte[]> answer;
			try {
				spanEnd.handlerSubmitted();
				answer = threads.handlers.submit(() -> {
					if (!spanEnd.handlerStarts()) {
						// timed out before it started: the request was answered
						return new byte[0];
					}
					try (OperatorTracing.Scope scope = span.openScope()) {
						return handler.handle(body, span);
					}
					finally {
						spanEnd.handlerDone();
					}
				});
			}
			catch (RejectedExecutionException ex) {
				spanEnd.handlerNeverRuns();
				code = 503;
				logger.warn(
						"Webhook calls still running past their deadline take every handler thread, answered "
								+ "503 (the webhook configuration's failurePolicy decides): path={} threads={}",
						path, HANDLER_THREADS);
				answer(exchange, code, "the webhook server is busy");
				return;
			}
			try {
				byte[] response = answer.get(this.handlerTimeout.toNanos(), TimeUnit.NANOSECONDS);
				code = 200;
				exchange.getResponseHeaders().set("Content-Type", "application/json");
				exchange.sendResponseHeaders(code, response.length);
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(response);
				}
			}
			catch (TimeoutException ex) {
				error = ex;
				answer.cancel(true);
				spanEnd.handlerNeverRuns();
				logger.warn("Webhook did not answer in time, answered 500 (the webhook configuration's "
						+ "failurePolicy decides): path={} timeout={}", path, this.handlerTimeout);
				answer(exchange, code, "the webhook did not answer within " + this.handlerTimeout);
			}
			catch (ExecutionException ex) {
				if (ex.getCause() instanceof IllegalArgumentException malformed) {
					code = 400;
					logger.warn("Webhook request malformed, answered 400: path={} error=\"{}\"", path,
							malformed.getMessage());
					answer(exchange, code, "malformed request; the operator's log says why");
					return;
				}
				error = ex.getCause();
				this.metrics.panicked(path);
				logger.error("Webhook failed, answered 500: path={}", path, ex.getCause());
				// the exception's text is for the log, not for the caller
				answer(exchange, code, "the webhook failed; the operator's log says why");
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				answer.cancel(true);
				spanEnd.handlerNeverRuns();
				answer(exchange, code, "the webhook server is stopping");
			}
		}
		finally {
			spanEnd.answered(code, error);
			this.metrics.answered(path, code, System.nanoTime() - start);
			exchange.close();
		}
	}

	/**
	 * Ends a request's span once the request is answered and its handler, if it ran, is
	 * done: a handler that runs past its deadline still runs inside the span's scope, and
	 * the client calls it makes must not become children of an ended span.
	 */
	private static final class SpanEnd {

		private final OperatorTracing.WebhookSpan span;

		/** The answer, and the handler once submitted. */
		private final AtomicInteger pending = new AtomicInteger(1);

		/**
		 * Claimed by the handler when it starts, or by the request when it never will.
		 */
		private final AtomicBoolean claimed = new AtomicBoolean();

		private volatile int code;

		private volatile @Nullable Throwable error;

		SpanEnd(OperatorTracing.WebhookSpan span) {
			this.span = span;
		}

		void handlerSubmitted() {
			this.pending.incrementAndGet();
		}

		/**
		 * Whether the handler may run: not if the request gave up on it first.
		 */
		boolean handlerStarts() {
			return this.claimed.compareAndSet(false, true);
		}

		void handlerDone() {
			arrive();
		}

		/**
		 * The request gave up on a handler that has not started, and never will.
		 */
		void handlerNeverRuns() {
			if (this.claimed.compareAndSet(false, true)) {
				arrive();
			}
		}

		void answered(int code, @Nullable Throwable error) {
			this.code = code;
			this.error = error;
			arrive();
		}

		private void arrive() {
			if (this.pending.decrementAndGet() == 0) {
				this.span.end(this.code, this.error);
			}
		}

	}

	/**
	 * Reads a request body, closing the connection if it has not all arrived within the
	 * handler timeout: a sender that trickles its body must not hold a server thread.
	 * @return the body, {@code null} if larger than the limit
	 * @throws IOException if it could not be read in time
	 */
	private byte @Nullable [] read(HttpExchange exchange, Threads threads) throws IOException {
		ScheduledFuture<?> cut = threads.timer.schedule(exchange::close, this.handlerTimeout.toNanos(),
				TimeUnit.NANOSECONDS);
		try {
			byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY_BYTES + 1);
			return (body.length > MAX_BODY_BYTES) ? null : body;
		}
		finally {
			cut.cancel(false);
		}
	}

	private static void answer(HttpExchange exchange, int code, String message) throws IOException {
		byte[] text = message.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
		exchange.sendResponseHeaders(code, text.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(text);
		}
	}

	private static ThreadFactory threads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix + count.getAndIncrement());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * The threads of one start of the server.
	 */
	private static final class Threads {

		final ExecutorService server = Executors.newFixedThreadPool(SERVER_THREADS, threads("webhook-server-"));

		final ExecutorService handlers = new ThreadPoolExecutor(0, HANDLER_THREADS, 60, TimeUnit.SECONDS,
				new SynchronousQueue<>(), threads("webhook-handler-"));

		final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(threads("webhook-timer-"));

		void shutdown() {
			this.server.shutdownNow();
			this.handlers.shutdownNow();
			this.timer.shutdownNow();
		}

	}

	/**
	 * Handles one webhook request body and returns the response body (JSON).
	 */
	@FunctionalInterface
	interface WebhookHandler {

		/**
		 * Handles a request.
		 * @param body the request body
		 * @return the response body
		 * @throws IllegalArgumentException if the request is malformed; the server
		 * answers 400
		 * @throws Exception if the request cannot be answered; the server answers 500
		 */
		byte[] handle(byte[] body) throws Exception;

		/**
		 * Handles a request inside its span, telling the span the review's answer.
		 * @param body the request body
		 * @param span the request's span
		 * @return the response body
		 * @throws Exception as {@link #handle(byte[])}
		 */
		default byte[] handle(byte[] body, OperatorTracing.WebhookSpan span) throws Exception {
			return handle(body);
		}

	}

	/**
	 * Builds a {@link WebhookServer}. Setters check their argument at once, against the
	 * rules of {@link WebhookServerConfig}, which also has the defaults.
	 */
	public static final class Builder {

		private final ServingCertificate certificate;

		private String bindAddress = WebhookServerConfig.DEFAULT.bindAddress();

		private int port = WebhookServerConfig.DEFAULT.port();

		private Duration handlerTimeout = WebhookServerConfig.DEFAULT.handlerTimeout();

		private WebhookMetrics metrics = WebhookMetrics.NOOP;

		private OperatorTracing tracing = OperatorTracing.NOOP;

		private Builder(ServingCertificate certificate) {
			this.certificate = certificate;
		}

		/**
		 * Sets the address to listen on; all addresses by default.
		 * @param bindAddress an IP address or host name, such as {@code 127.0.0.1}
		 * @return this builder
		 */
		public Builder bindAddress(String bindAddress) {
			this.bindAddress = bindAddress;
			return checked();
		}

		/**
		 * Sets the port; {@value #DEFAULT_PORT} by default, 0 for any free port.
		 * @param port the port
		 * @return this builder
		 * @throws InvalidConfigException if the port is outside 0 to 65535
		 */
		public Builder port(int port) {
			this.port = port;
			return checked();
		}

		/**
		 * Sets how long a webhook's code may take before the request is answered with
		 * HTTP 500; 10 seconds by default, the API server's default webhook timeout. Keep
		 * it below the {@code timeoutSeconds} of the webhook configurations.
		 * @param handlerTimeout the deadline
		 * @return this builder
		 * @throws InvalidConfigException if not positive
		 */
		public Builder handlerTimeout(Duration handlerTimeout) {
			this.handlerTimeout = handlerTimeout;
			return checked();
		}

		/**
		 * Sets where the server's measurements go.
		 * @param metrics the metrics
		 * @return this builder
		 */
		public Builder metrics(WebhookMetrics metrics) {
			this.metrics = Objects.requireNonNull(metrics, "metrics must not be null");
			return this;
		}

		/**
		 * Sets where the server's requests are traced: a span per request, whose parent
		 * is the trace context the API server sends in the {@code traceparent} header
		 * (when its own tracing is on), and the parent of the client calls the webhook's
		 * code makes.
		 * @param tracing the tracing
		 * @return this builder
		 */
		public Builder tracing(OperatorTracing tracing) {
			this.tracing = Objects.requireNonNull(tracing, "tracing must not be null");
			return this;
		}

		/**
		 * Builds the server; it serves once started (by the manager, or
		 * {@link WebhookServer#start()}).
		 * @return the server
		 */
		public WebhookServer build() {
			return new WebhookServer(this);
		}

		private Builder checked() {
			new WebhookServerConfig(this.bindAddress, this.port, this.handlerTimeout);
			return this;
		}

	}

}
