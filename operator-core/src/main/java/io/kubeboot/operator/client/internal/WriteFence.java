package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Refuses the writes of leader-only work once this replica's leadership can no longer be
 * vouched for: the fence closes a renew deadline after the last successful renewal began,
 * and a write still unanswered then is cancelled and fails with
 * {@link LeadershipLostException}. Only threads that {@link #enter} it are fenced; work
 * handed to a pool takes the fence along explicitly
 * ({@code io.kubeboot.operator.client.Fences}). The timing argument:
 * docs/design/leader-election-and-fencing.md.
 */
public final class WriteFence {

	private static final ThreadLocal<@Nullable WriteFence> CURRENT = new ThreadLocal<>();

	private final LongSupplier nanoTime;

	private final Duration validity;

	private final Subject subject;

	/**
	 * Whether the fence is open and when the last renewal began, as one value: read
	 * before the clock, so that the time a write is given is never more than the validity
	 * left by a renewal that began before the clock was read.
	 */
	private volatile Renewal renewal = new Renewal(false, 0);

	/**
	 * Creates a closed fence.
	 * @param validity how long after a renewal began writes stay allowed: the renew
	 * deadline
	 * @param nanoTime the monotonic clock
	 */
	public WriteFence(Duration validity, LongSupplier nanoTime) {
		this(validity, nanoTime, Subject.LEADER);
	}

	/**
	 * Creates a closed fence whose refusals say what it fences.
	 * @param validity how long after a renewal began writes stay allowed: the renew
	 * deadline
	 * @param nanoTime the monotonic clock
	 * @param subject what the fence guards, for its messages
	 */
	public WriteFence(Duration validity, LongSupplier nanoTime, Subject subject) {
		this.validity = validity;
		this.nanoTime = nanoTime;
		this.subject = subject;
	}

	/**
	 * Makes the calling thread's writes subject to a fence, or to none.
	 * @param fence the fence, {@code null} for none
	 */
	public static void enter(@Nullable WriteFence fence) {
		if (fence != null) {
			CURRENT.set(fence);
		}
		else {
			CURRENT.remove();
		}
	}

	/**
	 * Returns the fence of the calling thread's writes.
	 * @return the fence, {@code null} if the thread is not fenced
	 */
	public static @Nullable WriteFence current() {
		return CURRENT.get();
	}

	/**
	 * Refuses a write if the calling thread is leader-only work and the fence is closed.
	 * @return how long the write may take before the fence closes, or {@code null} if the
	 * calling thread is not fenced
	 * @throws LeadershipLostException if the write must not happen
	 */
	public static @Nullable Duration check() {
		WriteFence fence = CURRENT.get();
		return (fence != null) ? fence.verify() : null;
	}

	/**
	 * Reports a write that failed without an answer from the API server (typically cut
	 * short at the time {@link #check} gave it) as refused if the fence closed meanwhile.
	 * Does nothing if the calling thread is not fenced or the fence is still open.
	 * @param failure why the write failed
	 * @throws LeadershipLostException if the fence closed while the write was in flight
	 */
	public static void failed(Throwable failure) {
		WriteFence fence = CURRENT.get();
		if (fence != null && fence.remainingNanos() <= 0) {
			throw new LeadershipLostException(fence.describe() + ": a write of " + fence.subject.work()
					+ " still unanswered when the renew deadline passed was cancelled "
					+ "(the API server may have applied it before)", failure);
		}
	}

	/**
	 * Records a successful acquisition or renewal of the Lease.
	 * @param startedAtNanos when the request that renewed it began
	 */
	public void renewed(long startedAtNanos) {
		this.renewal = new Renewal(true, startedAtNanos);
	}

	/**
	 * Closes the fence at once, when the Lease was released or taken by another replica.
	 */
	public void close() {
		this.renewal = new Renewal(false, this.renewal.startedAtNanos());
	}

	/**
	 * Whether writes are allowed now: the fence was opened and less than its validity has
	 * passed since the last renewal began.
	 * @return {@code true} while open
	 */
	public boolean isOpen() {
		return remainingNanos() > 0;
	}

	private Duration verify() {
		long remaining = remainingNanos();
		if (remaining <= 0) {
			throw new LeadershipLostException(describe() + ": a write of " + this.subject.work()
					+ " is refused so that it cannot race " + this.subject.successor(), null);
		}
		return Duration.ofNanos(remaining);
	}

	private long remainingNanos() {
		Renewal last = this.renewal;
		return last.open() ? this.validity.toNanos() - (this.nanoTime.getAsLong() - last.startedAtNanos()) : 0;
	}

	private String describe() {
		long renewedAt = this.renewal.startedAtNanos();
		long since = this.nanoTime.getAsLong() - renewedAt;
		return "This replica " + this.subject.lost() + " (Lease last renewed " + Duration.ofNanos(since).toMillis()
				+ "ms ago, renew deadline " + this.validity + ")";
	}

	/**
	 * The state of the fence.
	 *
	 * @param open whether a renewal opened it and nothing closed it since
	 * @param startedAtNanos when the last successful renewal began
	 */
	private record Renewal(boolean open, long startedAtNanos) {

	}

	/**
	 * What a fence guards, as its refusals say it.
	 *
	 * @param lost what the replica no longer is, after "This replica"
	 * @param work the fenced work, after "a write of"
	 * @param successor who takes over, after "so that it cannot race"
	 */
	public record Subject(String lost, String work, String successor) {

		/** Leader-only work, fenced by the leader Lease. */
		public static final Subject LEADER = new Subject("no longer leads", "leader-only work", "the next leader");

		/**
		 * The reconciles of sharded controllers, fenced by this replica's shard Lease.
		 * @param ring the ring's name
		 * @return the subject
		 */
		public static Subject shard(String ring) {
			return new Subject("is no longer a member of shard ring " + ring, "a sharded controller",
					"the objects' next owner");
		}

	}

	/**
	 * A write of leader-only work refused because this replica's leadership ended.
	 */
	public static final class LeadershipLostException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		LeadershipLostException(String message, @Nullable Throwable cause) {
			super(message, cause);
		}

	}

}
