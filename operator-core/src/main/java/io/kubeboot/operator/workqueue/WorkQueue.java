package io.kubeboot.operator.workqueue;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A de-duplicating, delaying and rate-limiting work queue with the semantics of
 * client-go's {@code workqueue} that controller-runtime relies on:
 * <ul>
 * <li>an item is pending at most once: adding an item that is already waiting to be
 * handed out does nothing (but may raise its priority, see below);</li>
 * <li>an item is never processed by two workers at the same time: adding an item that is
 * being processed marks it dirty, and it is queued again only when {@link #done(Object)
 * done} is called;</li>
 * <li>every add is eventually followed by a processing that starts after it, unless the
 * queue is shut down first. Nothing is dropped for lack of capacity.</li>
 * </ul>
 * Workers loop on {@link #get()} (or {@link #poll(Duration)}), process the item, and
 * always call {@link #done(Object)} in a {@code finally} block.
 * <p>
 * <strong>Priorities.</strong> Every add carries a priority, {@link #DEFAULT_PRIORITY}
 * unless given. A priority queue ({@link WorkQueues#newPriorityQueue}) hands out the
 * ready item of the highest priority first, and items of one priority in the order they
 * became ready, as controller-runtime's priority queue does; a plain queue
 * ({@link WorkQueues#newRateLimitingQueue}) ignores priorities and is first in, first
 * out. Adding an item that is already pending at a lower priority raises it to the new
 * one (it then queues behind the items already waiting at that priority); a lower
 * priority never lowers it. An item added while it is processing keeps the highest
 * priority of those adds for when it is queued again. Delayed adds keep their priority
 * until they are ready. Items of a low priority wait as long as items of a higher one
 * keep arriving.
 * <p>
 * Items are compared with {@link Object#equals(Object)} and {@link Object#hashCode()},
 * which must be consistent and must not change while the item is in the queue;
 * {@code null} items are rejected with a {@link NullPointerException}. Every method is
 * thread-safe.
 * <p>
 * Once the queue is shut down, adds of any kind are ignored, items still waiting (ready
 * or delayed) are discarded, and {@link #get()} and {@link #poll(Duration)} return
 * {@code null} immediately; the delay thread is stopped. Reconciliation being level
 * based, a discarded item is picked up again by the next resync or start.
 *
 * @param <T> the type of the items, usually a namespaced name
 * @see WorkQueues
 */
public interface WorkQueue<T> {

	/**
	 * Returns the name of this queue, as used for its thread and its metrics.
	 * @return the name
	 */
	String name();

	/**
	 * The priority of an add that names none: a change seen on a watch, a request from
	 * outside the cluster.
	 */
	int DEFAULT_PRIORITY = 0;

	/**
	 * The priority of requests that carry no news, controller-runtime's
	 * {@code handler.LowPriority}: objects of an informer's initial list and of the
	 * reconcile of every cached object when a controller starts, resyncs and updates that
	 * did not change the object, periodic triggers. A priority queue hands them out only
	 * when nothing of a higher priority is ready.
	 */
	int LOW_PRIORITY = -100;

	/**
	 * Adds an item now at the {@link #DEFAULT_PRIORITY default priority}, as
	 * {@code add(item, DEFAULT_PRIORITY)}.
	 * @param item the item
	 */
	default void add(T item) {
		add(item, DEFAULT_PRIORITY);
	}

	/**
	 * Adds an item now. If the item is already waiting to be handed out, it is not queued
	 * twice; its priority is raised if the given one is higher. If the item is being
	 * processed, it is marked dirty and handed out again (once) after
	 * {@link #done(Object)}. Ignored after shutdown. Never blocks (beyond brief lock
	 * contention).
	 * @param item the item
	 * @param priority the priority, higher first; ignored by a queue without priorities
	 */
	void add(T item, int priority);

	/**
	 * Adds an item at the {@link #DEFAULT_PRIORITY default priority} once the given delay
	 * has passed, as {@code addAfter(item, delay, DEFAULT_PRIORITY)}.
	 * @param item the item
	 * @param delay how long to wait before adding the item
	 */
	default void addAfter(T item, Duration delay) {
		addAfter(item, delay, DEFAULT_PRIORITY);
	}

	/**
	 * Adds an item once the given delay has passed, measured with the queue's monotonic
	 * {@link Ticker}. A delay that is zero or negative adds it now, as {@link #add}.
	 * There is no capacity limit: delayed items are never dropped. If the item is already
	 * waiting for its delay, a single entry remains, with the earlier of the two ready
	 * times and the higher of the two priorities. Ignored after shutdown. Never blocks.
	 * @param item the item
	 * @param delay how long to wait before adding the item
	 * @param priority the priority it is added with once ready
	 */
	void addAfter(T item, Duration delay, int priority);

	/**
	 * Adds an item at the {@link #DEFAULT_PRIORITY default priority} after the delay
	 * decided by the queue's {@link RateLimiter}, as
	 * {@code addRateLimited(item, DEFAULT_PRIORITY)}.
	 * @param item the item
	 */
	default void addRateLimited(T item) {
		addRateLimited(item, DEFAULT_PRIORITY);
	}

	/**
	 * Adds an item after the delay decided by the queue's {@link RateLimiter}, that is
	 * {@code addAfter(item, rateLimiter.when(item), priority)}, which also counts one
	 * more requeue of the item. Ignored (and not counted) after shutdown. Never blocks.
	 * @param item the item
	 * @param priority the priority it is added with once ready
	 */
	void addRateLimited(T item, int priority);

	/**
	 * Returns the priority an item being processed was handed out with, so that a worker
	 * can requeue it at that priority, as controller-runtime's controller does. Never
	 * blocks.
	 * @param item the item handed out by {@link #get()} or {@link #poll(Duration)}
	 * @return its priority; {@link #DEFAULT_PRIORITY} if it is not processing or the
	 * queue has no priorities
	 */
	int priorityOf(T item);

	/**
	 * Tells the rate limiter to stop tracking the item: its failure count and backoff are
	 * reset. Call it when an item was processed successfully. Does not remove the item
	 * from the queue. Never blocks.
	 * @param item the item
	 */
	void forget(T item);

	/**
	 * Returns how many times the item has been {@link #addRateLimited rate-limited} since
	 * it was last {@link #forget forgotten}. Never blocks.
	 * @param item the item
	 * @return the number of requeues
	 */
	int numRequeues(T item);

	/**
	 * Hands out the next ready item, blocking until one is available. The item is then
	 * processing until {@link #done(Object)} is called for it, and is not handed out to
	 * anyone else meanwhile.
	 * @return the item, or {@code null} once the queue is shut down (waiting callers are
	 * woken up with {@code null})
	 * @throws InterruptedException if the calling thread is interrupted while waiting;
	 * the queue is left unchanged
	 */
	@Nullable T get() throws InterruptedException;

	/**
	 * Hands out the next ready item like {@link #get()}, waiting at most the given
	 * timeout. Lets a worker observe a stop flag between waits.
	 * @param timeout the maximum time to wait; zero or negative does not wait
	 * @return the item, or {@code null} on timeout or once the queue is shut down
	 * @throws InterruptedException if the calling thread is interrupted while waiting;
	 * the queue is left unchanged
	 */
	@Nullable T poll(Duration timeout) throws InterruptedException;

	/**
	 * Marks the processing of an item as finished. If the item was added again while it
	 * was processing, it is queued again now (unless the queue is shutting down). Does
	 * nothing if the item is not processing. Never blocks.
	 * @param item the item handed out by {@link #get()} or {@link #poll(Duration)}
	 */
	void done(T item);

	/**
	 * Returns the number of items ready to be handed out, that is the queue depth. Items
	 * waiting for a delay and items being processed (even if dirty) are not counted.
	 * @return the number of ready items
	 */
	int len();

	/**
	 * Shuts the queue down without waiting: from now on adds are ignored, {@link #get()}
	 * and {@link #poll(Duration)} return {@code null} (blocked callers are woken up),
	 * waiting items are discarded, and the delay thread is stopped (this method waits
	 * briefly for it to exit). Items being processed may still be {@link #done(Object)
	 * done}. Idempotent.
	 */
	void shutDown();

	/**
	 * Shuts the queue down like {@link #shutDown()}, then blocks until every item being
	 * processed is {@link #done(Object) done}. Must not be called by a worker that is
	 * processing an item of this queue, which would wait forever. Returns early, with the
	 * thread's interrupt status set, if the calling thread is interrupted.
	 */
	void shutDownWithDrain();

	/**
	 * Shuts the queue down like {@link #shutDown()}, then blocks until every item being
	 * processed is {@link #done(Object) done} or the timeout elapses.
	 * @param timeout the maximum time to wait for processing items
	 * @return {@code true} if no item is processing any more, {@code false} on timeout or
	 * if the calling thread was interrupted (its interrupt status is then set)
	 */
	boolean shutDownWithDrain(Duration timeout);

	/**
	 * Returns whether {@link #shutDown()} or a {@code shutDownWithDrain} variant has been
	 * called.
	 * @return {@code true} once the queue is shutting down
	 */
	boolean isShuttingDown();

	/**
	 * Returns for how long the items being processed have been processing, summed over
	 * them: the {@code workqueue_unfinished_work_seconds} gauge. Never blocks.
	 * @return the total processing time so far, in nanoseconds, {@code 0} if idle
	 */
	long unfinishedWorkNanos();

	/**
	 * Returns for how long the oldest item being processed has been processing: the
	 * {@code workqueue_longest_running_processor_seconds} gauge. Never blocks.
	 * @return the longest processing time so far, in nanoseconds, {@code 0} if idle
	 */
	long longestRunningProcessorNanos();

}
