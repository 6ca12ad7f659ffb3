package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;

import io.kubeboot.operator.client.internal.Answers;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A watch whose events are decoded one by one by an {@link ObjectDecoder}, so that an
 * object that does not decode into the model class is skipped instead of ending the
 * watch. Otherwise it behaves as client-java's {@code Watch}, whose failures the
 * reflector recognizes by their messages: an unsuccessful response is an
 * {@link ApiException} with the status code and body.
 * <p>
 * A watch whose connection breaks (closed or reset mid-stream, a read that times out)
 * simply ends, as one the API server ends after its timeout: the reflector then watches
 * again from the last resourceVersion it saw, an event's or a bookmark's, and lists again
 * only if the API server answers that this version is gone (410). client-java's
 * {@code Watch} instead throws an "IO Exception during hasNext" that makes the reflector
 * list everything again after every broken connection. A watch that breaks within a
 * second of opening without a single event still throws it, so that a connection that
 * breaks at once every time is retried through the reflector's relist and its pause
 * rather than in a tight loop (client-go's reflector guards against such short watches
 * alike).
 * <p>
 * The reflector closes a watch from the thread that stops it while its own thread may be
 * blocked reading the body. Only the reading thread touches the body: {@link #close()}
 * cancels the call, which ends the blocked read, and the body is closed by the reader
 * once out of its read, or by {@code close()} when none is in progress. An okio buffer
 * closed by one thread while another reads it hands its segments back to the JVM-wide
 * pool twice, which corrupts unrelated buffers later.
 *
 * @param <T> the model type
 */
final class DecodingWatch<T extends KubernetesObject> implements Watchable<T> {

	private static final Logger logger = LoggerFactory.getLogger(DecodingWatch.class);

	/** A watch that breaks sooner than this without an event is not resumed. */
	private static final long SHORT_WATCH_NANOS = Duration.ofSeconds(1).toNanos();

	private final Call call;

	private final ResponseBody body;

	private final ObjectDecoder<T> decoder;

	private final long openedAt = System.nanoTime();

	private boolean delivered;

	private final Object lock = new Object();

	/** Whether a thread is reading the body; guarded by the lock. */
	private boolean reading;

	/** Whether the watch was closed; guarded by the lock. */
	private boolean closed;

	/** Whether the body was closed; guarded by the lock. */
	private boolean bodyClosed;

	private DecodingWatch(Call call, ResponseBody body, ObjectDecoder<T> decoder) {
		this.call = call;
		this.body = body;
		this.decoder = decoder;
	}

	/**
	 * Sends a watch request and returns the watch once the API server accepted it.
	 * @param call the watch request
	 * @param decoder reads the events
	 * @param <T> the model type
	 * @return the watch
	 * @throws ApiException if the request fails or the API server refuses it
	 */
	static <T extends KubernetesObject> DecodingWatch<T> open(Call call, ObjectDecoder<T> decoder) throws ApiException {
		return of(call, Answers.open(call), decoder);
	}

	/**
	 * Returns the watch that goes on reading a response already open, such as a streamed
	 * list's past its initial events.
	 * @param call the request, to cancel it
	 * @param response its successful response
	 * @param decoder reads the events
	 * @param <T> the model type
	 * @return the watch
	 */
	static <T extends KubernetesObject> DecodingWatch<T> of(Call call, Response response, ObjectDecoder<T> decoder) {
		return new DecodingWatch<>(call, Objects.requireNonNull(response.body(), "body"), decoder);
	}

	@Override
	public boolean hasNext() {
		if (!startReading()) {
			return false;
		}
		try {
			return !this.body.source().exhausted();
		}
		catch (IOException ex) {
			if (!this.delivered && System.nanoTime() - this.openedAt < SHORT_WATCH_NANOS && !isClosed()) {
				throw new RuntimeException("IO Exception during hasNext method.", ex);
			}
			logger.debug("Watch connection broke, watching again from the last resourceVersion seen: {}",
					ex.toString());
			return false;
		}
		finally {
			stopReading();
		}
	}

	@Override
	public Watch.Response<T> next() {
		if (!startReading()) {
			throw new RuntimeException("The watch is closed.");
		}
		String line;
		try {
			line = this.body.source().readUtf8Line();
		}
		catch (IOException ex) {
			throw new RuntimeException("IO Exception during next method.", ex);
		}
		finally {
			stopReading();
		}
		if (line == null) {
			throw new RuntimeException("Null response from the server.");
		}
		this.delivered = true;
		return this.decoder.decodeEvent(line);
	}

	@Override
	public Iterator<Watch.Response<T>> iterator() {
		return this;
	}

	@Override
	public void close() {
		this.call.cancel();
		boolean idle;
		synchronized (this.lock) {
			this.closed = true;
			idle = !this.reading;
		}
		if (idle) {
			closeBody();
		}
	}

	private boolean startReading() {
		synchronized (this.lock) {
			if (this.closed) {
				return false;
			}
			this.reading = true;
			return true;
		}
	}

	/** Ends a read; the reader closes the body if the watch was closed meanwhile. */
	private void stopReading() {
		boolean closedMeanwhile;
		synchronized (this.lock) {
			this.reading = false;
			closedMeanwhile = this.closed;
		}
		if (closedMeanwhile) {
			closeBody();
		}
	}

	private boolean isClosed() {
		synchronized (this.lock) {
			return this.closed;
		}
	}

	private void closeBody() {
		synchronized (this.lock) {
			if (this.bodyClosed) {
				return;
			}
			this.bodyClosed = true;
		}
		this.body.close();
	}

}
