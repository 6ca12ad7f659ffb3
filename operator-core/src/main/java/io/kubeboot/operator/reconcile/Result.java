package io.kubeboot.operator.reconcile;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a reconcile asks the controller to do next with the same request.
 * <ul>
 * <li>{@link #done()}: nothing; the object is reconciled again only when it (or an object
 * mapped to it) changes, on the periodic resync, or by a trigger. Its failure count is
 * reset.</li>
 * <li>{@link #requeue()}: reconcile again after the rate limiter's backoff for this
 * request (exponential per request, bounded overall), as if it had failed but without
 * counting an error.</li>
 * <li>{@link #requeueAfter(Duration)}: reconcile again once the delay has passed; the
 * failure count is reset. Use it to poll something outside the cluster.</li>
 * </ul>
 * A change to the object while it waits still reconciles it at once: the earliest reason
 * wins and the request is reconciled once.
 */
public final class Result {

	private static final Result DONE = new Result(false, null);

	private static final Result REQUEUE = new Result(true, null);

	private final boolean requeue;

	private final @Nullable Duration requeueAfter;

	private Result(boolean requeue, @Nullable Duration requeueAfter) {
		this.requeue = requeue;
		this.requeueAfter = requeueAfter;
	}

	/**
	 * The reconcile succeeded and needs no follow-up.
	 * @return the result
	 */
	public static Result done() {
		return DONE;
	}

	/**
	 * Reconcile the request again after its rate-limited backoff.
	 * @return the result
	 */
	public static Result requeue() {
		return REQUEUE;
	}

	/**
	 * Reconcile the request again after the given delay.
	 * @param delay a positive delay; zero or negative behaves as {@link #requeue()}
	 * @return the result
	 */
	public static Result requeueAfter(Duration delay) {
		Objects.requireNonNull(delay, "delay must not be null");
		return (delay.isZero() || delay.isNegative()) ? REQUEUE : new Result(true, delay);
	}

	/**
	 * Whether the request should be reconciled again without a change.
	 * @return {@code true} for {@link #requeue()} and {@link #requeueAfter(Duration)}
	 */
	public boolean isRequeue() {
		return this.requeue;
	}

	/**
	 * The delay asked for by {@link #requeueAfter(Duration)}.
	 * @return the delay, or {@code null} when none was given
	 */
	public @Nullable Duration getRequeueAfter() {
		return this.requeueAfter;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (other instanceof Result that) && this.requeue == that.requeue
				&& Objects.equals(this.requeueAfter, that.requeueAfter);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.requeue, this.requeueAfter);
	}

	@Override
	public String toString() {
		if (this.requeueAfter != null) {
			return "requeueAfter(" + this.requeueAfter + ")";
		}
		return this.requeue ? "requeue" : "done";
	}

}
