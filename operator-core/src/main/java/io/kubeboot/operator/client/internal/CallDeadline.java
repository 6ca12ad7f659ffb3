package io.kubeboot.operator.client.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;
import org.jspecify.annotations.Nullable;

/**
 * The deadline of the work a thread runs, such as a reconcile with a timeout: a call to
 * the API server made after it is refused with {@link DeadlineExceededException}, and one
 * sent before it may take only the time left, so that one still unanswered at the
 * deadline is cut off then. Unlike the {@link WriteFence}, which refuses only writes, the
 * deadline bounds reads too: the work is over, whatever it asks. Only threads that
 * {@link #enter} it are bound; work handed to a pool takes it along explicitly
 * ({@code io.kubeboot.operator.client.Fences}), as it does the write fence.
 * <p>
 * Calls whose timeout is not set one by one (those of {@link KindResolver}'s discovery)
 * are cut off by {@link #expire()}, which cancels every call in flight that the
 * {@link #interceptor()} of the client saw start under this deadline; and
 * {@link #expire(Thread)} interrupts the work's thread only outside those calls.
 */
public final class CallDeadline {

	private static final ThreadLocal<@Nullable CallDeadline> CURRENT = new ThreadLocal<>();

	private static final Interceptor INTERCEPTOR = (chain) -> {
		CallDeadline deadline = CURRENT.get();
		if (deadline == null) {
			return chain.proceed(chain.request());
		}
		Call call = chain.call();
		Thread thread = Thread.currentThread();
		boolean expired;
		synchronized (deadline.lock) {
			deadline.inFlight.put(call, thread);
			expired = deadline.expired;
		}
		Response response;
		try {
			if (expired) {
				// expired between the check and now: expire() may have missed it
				call.cancel();
			}
			response = chain.proceed(chain.request());
		}
		catch (Throwable ex) {
			deadline.returned(call, thread);
			throw ex;
		}
		// the call lasts until its body is read and closed
		return response.newBuilder()
			.body(new ClosingBody(response.body(), () -> deadline.returned(call, thread)))
			.build();
	};

	private final LongSupplier nanoTime;

	private final long deadlineNanos;

	private final Duration timeout;

	private final String work;

	private final Object lock = new Object();

	/** The calls in flight under this deadline, with the thread making each. */
	private final Map<Call, Thread> inFlight = new HashMap<>();

	/** The threads to interrupt once they are out of their calls. */
	private final Set<Thread> toInterrupt = new HashSet<>();

	private volatile boolean expired;

	/**
	 * Creates a deadline a timeout from now.
	 * @param timeout how long the work may take
	 * @param nanoTime the monotonic clock
	 * @param work the work, for the messages of refusals, such as
	 * {@code the reconcile of default/settings by controller configmap}
	 */
	public CallDeadline(Duration timeout, LongSupplier nanoTime, String work) {
		this.nanoTime = nanoTime;
		this.deadlineNanos = nanoTime.getAsLong() + timeout.toNanos();
		this.timeout = timeout;
		this.work = work;
	}

	/**
	 * Makes the calling thread's API calls subject to a deadline, or to none.
	 * @param deadline the deadline, {@code null} for none
	 */
	public static void enter(@Nullable CallDeadline deadline) {
		if (deadline != null) {
			CURRENT.set(deadline);
		}
		else {
			CURRENT.remove();
		}
	}

	/**
	 * Returns the deadline of the calling thread's API calls.
	 * @return the deadline, {@code null} if the thread has none
	 */
	public static @Nullable CallDeadline current() {
		return CURRENT.get();
	}

	/**
	 * Refuses a call if the calling thread's deadline has passed.
	 * @return how long the call may take, or {@code null} if the thread has no deadline
	 * @throws DeadlineExceededException if the deadline has passed
	 */
	public static @Nullable Duration check() {
		CallDeadline deadline = CURRENT.get();
		return (deadline != null) ? deadline.verify() : null;
	}

	/**
	 * Reports a call that failed without an answer from the API server (typically cut
	 * short at the time {@link #check} gave it) as cut off by the deadline if it passed
	 * meanwhile. Does nothing if the calling thread has no deadline or it is still ahead.
	 * @param failure why the call failed
	 * @throws DeadlineExceededException if the deadline passed while the call was in
	 * flight
	 */
	public static void failed(Throwable failure) {
		CallDeadline deadline = CURRENT.get();
		if (deadline != null && !deadline.isOpen()) {
			throw new DeadlineExceededException(deadline.describe() + ": a call still unanswered at the deadline "
					+ "was cancelled (the API server may have applied a write before)", failure);
		}
	}

	/**
	 * Whether the deadline is still ahead.
	 * @return {@code true} until the deadline
	 */
	public boolean isOpen() {
		return !this.expired && remainingNanos() > 0;
	}

	/**
	 * Ends the deadline now, at its time: cancels every call in flight under it, and
	 * refuses every call from now on.
	 */
	public void expire() {
		expire(null);
	}

	/**
	 * Ends the deadline now, at its time, and interrupts a thread working under it:
	 * cancels every call in flight under it (OkHttp stops a call when cancelled, not when
	 * its thread is interrupted), refuses every call from now on, and interrupts the
	 * thread at once if it is in none of those calls, else as soon as it is out of them
	 * (a call lasts until its response body is closed). An interrupt that lands while
	 * OkHttp writes a frame of a shared HTTP/2 connection leaves that connection broken
	 * for every call multiplexed on it (OkHttp issue 7016).
	 * @param thread the thread to interrupt, or {@code null} for none
	 */
	public void expire(@Nullable Thread thread) {
		List<Call> calls;
		synchronized (this.lock) {
			this.expired = true;
			calls = new ArrayList<>(this.inFlight.keySet());
			if (thread != null) {
				if (this.inFlight.containsValue(thread)) {
					this.toInterrupt.add(thread);
				}
				else {
					thread.interrupt();
				}
			}
		}
		// outside the lock: a cancelled call's thread takes it to leave
		calls.forEach(Call::cancel);
	}

	/**
	 * A call ended: forgets it, and interrupts its thread if it was to be once out of its
	 * calls.
	 */
	private void returned(Call call, Thread thread) {
		synchronized (this.lock) {
			this.inFlight.remove(call);
			if (!this.inFlight.containsValue(thread) && this.toInterrupt.remove(thread)) {
				thread.interrupt();
			}
		}
	}

	/**
	 * Returns the interceptor that makes the calls of a client's threads under a deadline
	 * cancellable by {@link #expire()}.
	 * @return the interceptor, one for every client
	 */
	public static Interceptor interceptor() {
		return INTERCEPTOR;
	}

	private Duration verify() {
		long remaining = remainingNanos();
		if (remaining <= 0 || this.expired) {
			throw new DeadlineExceededException(describe() + ": a call to the API server is refused", null);
		}
		return Duration.ofNanos(remaining);
	}

	private long remainingNanos() {
		return this.deadlineNanos - this.nanoTime.getAsLong();
	}

	private String describe() {
		return "The timeout of " + this.work + " (" + this.timeout + ") passed "
				+ Duration.ofNanos(-remainingNanos()).toMillis() + "ms ago";
	}

	/**
	 * A response body that tells when it is closed, which ends its call.
	 */
	private static final class ClosingBody extends ResponseBody {

		private final ResponseBody body;

		private final BufferedSource source;

		ClosingBody(ResponseBody body, Runnable closed) {
			this.body = body;
			this.source = Okio.buffer(new ForwardingSource(body.source()) {

				private boolean done;

				@Override
				public void close() throws IOException {
					try {
						super.close();
					}
					finally {
						if (!this.done) {
							this.done = true;
							closed.run();
						}
					}
				}

			});
		}

		@Override
		public @Nullable MediaType contentType() {
			return this.body.contentType();
		}

		@Override
		public long contentLength() {
			return this.body.contentLength();
		}

		@Override
		public BufferedSource source() {
			return this.source;
		}

	}

	/**
	 * A call to the API server refused, or cut off, because the deadline of the work that
	 * made it passed.
	 */
	public static final class DeadlineExceededException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		DeadlineExceededException(String message, @Nullable Throwable cause) {
			super(message, cause);
		}

	}

}
