package io.kubeboot.operator.workqueue;

import java.time.Duration;

/**
 * Decides how long an item should wait before it is processed again, typically after a
 * failed reconciliation. Implementations must be thread-safe and must not block.
 *
 * @param <T> the type of the items
 * @see RateLimiters
 */
public interface RateLimiter<T> {

	/**
	 * Records one more failure (or requeue) of the given item and returns how long it
	 * should wait before being processed again. Never blocks.
	 * @param item the item, never {@code null}
	 * @return the delay, never {@code null} or negative ({@link Duration#ZERO} means now)
	 */
	Duration when(T item);

	/**
	 * Stops tracking the given item: its failure history is cleared, so the next
	 * {@link #when} starts over. Does not affect shared state such as a token bucket.
	 * Never blocks.
	 * @param item the item, never {@code null}
	 */
	void forget(T item);

	/**
	 * Returns how many times the given item has been requeued through {@link #when} since
	 * it was last {@link #forget forgotten}. Never blocks.
	 * @param item the item, never {@code null}
	 * @return the number of requeues, {@code 0} if the item is not tracked
	 */
	int numRequeues(T item);

}
