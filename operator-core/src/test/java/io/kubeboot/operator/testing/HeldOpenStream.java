package io.kubeboot.operator.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;
import org.jspecify.annotations.Nullable;

/**
 * A server on 127.0.0.1 that answers every request with {@code 200} and a JSON stream it
 * holds open without writing, as a quiet watch; and a client whose response bodies tell
 * whether one was closed while a thread was reading it. okio buffers are not thread-safe:
 * a body closed under a read hands its buffer's segments back to the JVM-wide pool while
 * the reader still fills them. A read of a body waits, before it reads from the
 * connection, until {@link #releaseReads()}: a test closes what it reads meanwhile,
 * without racing the read's end.
 */
public final class HeldOpenStream implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final CountDownLatch released = new CountDownLatch(1);

	private final CountDownLatch readsReleased = new CountDownLatch(1);

	private final AtomicInteger reading = new AtomicInteger();

	private final AtomicInteger closedUnderARead = new AtomicInteger();

	private final AtomicInteger closed = new AtomicInteger();

	public HeldOpenStream() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::holdOpen);
		this.server.start();
	}

	/**
	 * A client of this server whose response bodies are watched.
	 * @return the client
	 */
	public ApiClient client() {
		ApiClient client = new ApiClient().setBasePath(url());
		OkHttpClient http = client.getHttpClient().newBuilder().addInterceptor(this::watched).build();
		return client.setHttpClient(http);
	}

	/**
	 * The server's base URL.
	 * @return the URL
	 */
	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/**
	 * How many threads are reading a response body now.
	 * @return the count
	 */
	public int reading() {
		return this.reading.get();
	}

	/**
	 * How many response bodies were closed while a thread was reading them.
	 * @return the count
	 */
	public int closedUnderARead() {
		return this.closedUnderARead.get();
	}

	/**
	 * How many response bodies were closed.
	 * @return the count
	 */
	public int closed() {
		return this.closed.get();
	}

	/**
	 * Lets the reads of response bodies go on to the connection.
	 */
	public void releaseReads() {
		this.readsReleased.countDown();
	}

	@Override
	public void close() throws InterruptedException {
		this.readsReleased.countDown();
		this.released.countDown();
		this.server.stop(0);
		this.executor.shutdownNow();
		this.executor.awaitTermination(5, TimeUnit.SECONDS);
	}

	private void holdOpen(HttpExchange exchange) throws IOException {
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, 0);
		OutputStream body = exchange.getResponseBody();
		body.flush();
		try {
			this.released.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		exchange.close();
	}

	/**
	 * Waits for the reads' release; an interrupt does not end the wait, as a socket's
	 * does not.
	 */
	private void awaitRelease() {
		boolean interrupted = false;
		while (true) {
			try {
				this.readsReleased.await();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	private Response watched(Interceptor.Chain chain) throws IOException {
		Response response = chain.proceed(chain.request());
		ResponseBody body = response.body();
		BufferedSource source = Okio.buffer(new ForwardingSource(body.source()) {

			@Override
			public long read(Buffer sink, long byteCount) throws IOException {
				HeldOpenStream.this.reading.incrementAndGet();
				try {
					awaitRelease();
					return super.read(sink, byteCount);
				}
				finally {
					HeldOpenStream.this.reading.decrementAndGet();
				}
			}

			@Override
			public void close() throws IOException {
				if (HeldOpenStream.this.reading.get() > 0) {
					HeldOpenStream.this.closedUnderARead.incrementAndGet();
				}
				HeldOpenStream.this.closed.incrementAndGet();
				super.close();
			}

		});
		return response.newBuilder().body(new ResponseBody() {

			@Override
			public @Nullable MediaType contentType() {
				return body.contentType();
			}

			@Override
			public long contentLength() {
				return -1;
			}

			@Override
			public BufferedSource source() {
				return source;
			}

		}).build();
	}

}
