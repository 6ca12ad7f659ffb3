package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import okhttp3.Call;
import okhttp3.Interceptor;
import org.jspecify.annotations.Nullable;

/**
 * The deadline of the work a thread runs, such as a reconcile with a timeout: a call to
 * the API server made after it is refused with {@link DeadlineExceededException}, and one
 * sent before it may take only the time left, so that one still unanswered at the
 * deadline is cut off then. Unlike the {@link WriteFence}, which refuses only writes,
 * the deadline bounds reads too: the work is over, whatever it asks. Only threads that
 * {@link #enter} it are bound; work handed to a pool takes it along explicitly
 * ({@code io.kubeboot.operator.client.Fences}), as it does the write fence.
 * <p>
 * Calls whose timeout cannot be set one by one (discovery, through client-java's
 * {@code Discovery}) are cut off by {@link #expire()}, which cancels every call in flight
 * that the {@link #interceptor()} of the client saw start under this deadline.
 */
public final class CallDeadline {

	private static final ThreadLocal<@Nullable CallDeadline> CURRENT = new ThreadLocal<>();

	private static final Interceptor INTERCEPTOR = (chain) -> {
		CallDeadline deadline = CURRENT.get();
		if (deadline == null) {
			return chain.proceed(chain.request());
		}
		Call call = chain.call();
		deadline.inFlight.add(call);
		try {
			if (deadline.expired) {
				// expired between the check and now: expire() may have missed it
				call.cancel();
			}
			return chain.proceed(chain.request());
		}
		finally {
			deadline.inFlight.remove(call);
		}
	};

	private final LongSupplier nanoTime;

	private final long deadlineNanos;

	private final Duration timeout;

	private final String work;

	private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();

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
		this.expired = true;
		this.inFlight.forEach(Call::cancel);
	}

	/**
	 * Returns the interceptor that makes the calls of a client's threads under a
	 * deadline cancellable by {@link #expire()}.
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
