package io.kubeboot.operator.sharding.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The term of a member's Lease: a random token written with every write of the Lease and
 * stamped by the sharder of the label-based mode beside the shard label of each object it
 * assigns to the member. A member reconciles only objects stamped with the term of its
 * last answered write.
 * <p>
 * The term is kept while every write carrying it certainly lands before the others may
 * count the Lease expired (a lease duration after the last answered write began, which is
 * before it landed and before anyone saw it), and drawn anew for a write that may land
 * later: the first one, and an acquisition after the Lease was lost. So an object the
 * sharder moved away while the member counted as gone is never reconciled by it again,
 * even before its cache has seen the move: it carries an older term.
 * <p>
 * Thread-safe; the writes themselves are sequential.
 */
final class MemberTerm {

	private final long leaseDurationNanos;

	private final Supplier<String> draw;

	private @Nullable String sending;

	private long sendingNanos;

	private boolean written;

	private long lastWrittenBeganNanos;

	private volatile @Nullable String held;

	/**
	 * Creates the term of a member whose Lease records the given duration.
	 * @param leaseDuration the lease duration as the Lease records it
	 */
	MemberTerm(Duration leaseDuration) {
		this(leaseDuration, MemberTerm::random);
	}

	MemberTerm(Duration leaseDuration, Supplier<String> draw) {
		this.leaseDurationNanos = leaseDuration.toNanos();
		this.draw = draw;
	}

	private static String random() {
		return String.format("%016x", ThreadLocalRandom.current().nextLong());
	}

	/**
	 * Returns the term to write with a write sent now: the current one if the write, cut
	 * off after its timeout, lands no later than a lease duration after the last answered
	 * write began, else a new one.
	 * @param nowNanos the monotonic time the write is sent
	 * @param timeout how long the write may take
	 * @return the term to write
	 */
	synchronized String forWrite(long nowNanos, Duration timeout) {
		String current = this.sending;
		if (current == null || !this.written
				|| (nowNanos + timeout.toNanos()) - this.lastWrittenBeganNanos > this.leaseDurationNanos) {
			current = this.draw.get();
			this.sending = current;
		}
		this.sendingNanos = nowNanos;
		return current;
	}

	/**
	 * Records that the last write sent was answered.
	 * @param term the term it carried
	 * @return {@code true} if that term is new to this member's answered writes
	 */
	synchronized boolean written(@Nullable String term) {
		if (term == null || !term.equals(this.sending)) {
			return false;
		}
		this.written = true;
		this.lastWrittenBeganNanos = this.sendingNanos;
		boolean changed = !Objects.equals(this.held, term);
		this.held = term;
		return changed;
	}

	/**
	 * Returns the term of the last answered write.
	 * @return the term, {@code null} before the first
	 */
	@Nullable String held() {
		return this.held;
	}

}
