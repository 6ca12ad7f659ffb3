package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Refuses the writes of leader-only work once this replica's leadership can no longer be
 * vouched for, so that a worker that ignored its stop cannot race the next leader: a
 * standby takes over at the earliest a lease duration after the last renewal it saw, and
 * the fence closes a renew deadline after the last successful renewal began, leaving the
 * difference for writes in flight.
 * <p>
 * The leader-only runnables' threads, and the threads they start, run inside the fence
 * ({@link #enter}); the client checks it before every write ({@link #check}). Other
 * threads (every-replica runnables, webhooks, the application's own) are not fenced.
 */
public final class WriteFence {

	private static final InheritableThreadLocal<@Nullable WriteFence> CURRENT = new InheritableThreadLocal<>();

	private final LongSupplier nanoTime;

	private final Duration validity;

	private volatile long renewedAtNanos;

	private volatile boolean open;

	/**
	 * Creates a closed fence.
	 * @param validity how long after a renewal began writes stay allowed: the renew
	 * deadline
	 * @param nanoTime the monotonic clock
	 */
	public WriteFence(Duration validity, LongSupplier nanoTime) {
		this.validity = validity;
		this.nanoTime = nanoTime;
	}

	/**
	 * Makes the calling thread, and the threads it starts from now on, leader-only work
	 * subject to this fence.
	 * @param fence the fence
	 */
	public static void enter(WriteFence fence) {
		CURRENT.set(fence);
	}

	/**
	 * Refuses a write if the calling thread is leader-only work and the fence is closed.
	 * @throws LeadershipLostException if the write must not happen
	 */
	public static void check() {
		WriteFence fence = CURRENT.get();
		if (fence != null) {
			fence.verify();
		}
	}

	/**
	 * Records a successful acquisition or renewal of the Lease.
	 * @param startedAtNanos when the request that renewed it began
	 */
	public void renewed(long startedAtNanos) {
		this.renewedAtNanos = startedAtNanos;
		this.open = true;
	}

	/**
	 * Closes the fence at once, when the Lease was released or taken by another replica.
	 */
	public void close() {
		this.open = false;
	}

	private void verify() {
		long since = this.nanoTime.getAsLong() - this.renewedAtNanos;
		if (!this.open || since >= this.validity.toNanos()) {
			throw new LeadershipLostException("This replica no longer leads (Lease last renewed "
					+ Duration.ofNanos(since).toMillis() + "ms ago, renew deadline " + this.validity
					+ "): a write of leader-only work is refused so that it cannot race the next leader");
		}
	}

	/**
	 * A write of leader-only work refused because this replica's leadership ended.
	 */
	public static final class LeadershipLostException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		LeadershipLostException(String message) {
			super(message);
		}

	}

}
