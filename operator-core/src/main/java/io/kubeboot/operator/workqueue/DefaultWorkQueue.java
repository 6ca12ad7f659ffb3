package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * The {@link WorkQueue} implementation: the ready items in one first-in, first-out line
 * per priority ({@link ReadyItems}), a dirty map for de-duplication (item to the priority
 * it will be queued with), a processing map (item to start time and priority), and
 * {@link DelayedItems} for delayed adds. Without priorities every add is taken at the
 * default priority, which leaves a single line.
 *
 * @param <T> the type of the items
 */
final class DefaultWorkQueue<T> implements WorkQueue<T> {

	private final String name;

	private final RateLimiter<T> rateLimiter;

	private final WorkQueueMetrics metrics;

	private final Ticker ticker;

	private final boolean prioritized;

	private final DelayedItems<T> delayed;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition itemReady = this.lock.newCondition();

	private final Condition processingDone = this.lock.newCondition();

	/** Items ready to be handed out, each at most once, with the time it became ready. */
	private final ReadyItems<T> ready = new ReadyItems<>();

	/**
	 * Items that need processing: the ready ones and those added while processing, with
	 * the priority they are queued with.
	 */
	private final Map<T, Dirty<T>> dirty = new HashMap<>();

	/** Items handed out and not done yet, with the time they were handed out. */
	private final Map<T, Processing> processing = new HashMap<>();

	private volatile boolean shuttingDown;

	DefaultWorkQueue(String name, RateLimiter<T> rateLimiter, WorkQueueMetrics metrics, Ticker ticker,
			boolean prioritized) {
		this.name = Objects.requireNonNull(name, "name must not be null");
		this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter must not be null");
		this.metrics = Objects.requireNonNull(metrics, "metrics must not be null");
		this.ticker = Objects.requireNonNull(ticker, "ticker must not be null");
		this.prioritized = prioritized;
		this.delayed = new DelayedItems<>("workqueue-" + name + "-delay", ticker, this::add);
		if (prioritized) {
			this.metrics.depth(DEFAULT_PRIORITY, 0);
		}
		this.metrics.depth(0);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public void add(T item, int priority) {
		Objects.requireNonNull(item, "item must not be null");
		int effective = effective(priority);
		this.lock.lock();
		try {
			if (this.shuttingDown) {
				return;
			}
			Dirty<T> pending = this.dirty.get(item);
			if (pending == null) {
				pending = new Dirty<>(effective);
				this.dirty.put(item, pending);
				this.metrics.added();
				if (!this.processing.containsKey(item)) {
					enqueue(item, pending, this.ticker.nanoTime());
				}
			}
			else if (effective > pending.priority) {
				raise(item, pending, effective);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void addAfter(T item, Duration delay, int priority) {
		Objects.requireNonNull(item, "item must not be null");
		Objects.requireNonNull(delay, "delay must not be null");
		if (this.shuttingDown) {
			return;
		}
		if (delay.isNegative() || delay.isZero()) {
			add(item, priority);
			return;
		}
		this.delayed.schedule(item, saturatedNanos(delay), effective(priority));
	}

	@Override
	public void addRateLimited(T item, int priority) {
		Objects.requireNonNull(item, "item must not be null");
		if (this.shuttingDown) {
			return;
		}
		this.metrics.retried();
		addAfter(item, this.rateLimiter.when(item), priority);
	}

	@Override
	public int priorityOf(T item) {
		Objects.requireNonNull(item, "item must not be null");
		this.lock.lock();
		try {
			Processing handedOut = this.processing.get(item);
			return (handedOut != null) ? handedOut.priority() : DEFAULT_PRIORITY;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void forget(T item) {
		Objects.requireNonNull(item, "item must not be null");
		this.rateLimiter.forget(item);
	}

	@Override
	public int numRequeues(T item) {
		Objects.requireNonNull(item, "item must not be null");
		return this.rateLimiter.numRequeues(item);
	}

	@Override
	public @Nullable T get() throws InterruptedException {
		this.lock.lockInterruptibly();
		try {
			while (this.ready.size() == 0 && !this.shuttingDown) {
				this.itemReady.await();
			}
			return handOut();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public @Nullable T poll(Duration timeout) throws InterruptedException {
		Objects.requireNonNull(timeout, "timeout must not be null");
		long remaining = saturatedNanos(timeout);
		this.lock.lockInterruptibly();
		try {
			while (this.ready.size() == 0 && !this.shuttingDown) {
				if (remaining <= 0) {
					return null;
				}
				remaining = this.itemReady.awaitNanos(remaining);
			}
			return handOut();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void done(T item) {
		Objects.requireNonNull(item, "item must not be null");
		this.lock.lock();
		try {
			Processing handedOut = this.processing.remove(item);
			if (handedOut == null) {
				return;
			}
			long now = this.ticker.nanoTime();
			Dirty<T> pending = this.dirty.get(item);
			if (pending != null && !this.shuttingDown) {
				enqueue(item, pending, now);
			}
			if (this.processing.isEmpty()) {
				this.processingDone.signalAll();
			}
			this.metrics.workDuration(now - handedOut.startedAt());
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public int len() {
		this.lock.lock();
		try {
			return this.ready.size();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Returns the number of items waiting for their delay.
	 * @return the number of delayed items
	 */
	int delayedLen() {
		return this.delayed.size();
	}

	@Override
	public void shutDown() {
		this.lock.lock();
		try {
			if (!this.shuttingDown) {
				this.shuttingDown = true;
				List<Integer> priorities = List.copyOf(this.ready.priorities());
				this.ready.clear();
				this.dirty.clear();
				if (this.prioritized) {
					priorities.forEach((priority) -> this.metrics.depth(priority, 0));
				}
				this.metrics.depth(0);
			}
			this.itemReady.signalAll();
		}
		finally {
			this.lock.unlock();
		}
		// Outside the lock: the delay thread may be adding an item, which needs it
		this.delayed.stop();
	}

	@Override
	public void shutDownWithDrain() {
		shutDown();
		this.lock.lock();
		try {
			while (!this.processing.isEmpty()) {
				this.processingDone.await();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public boolean shutDownWithDrain(Duration timeout) {
		Objects.requireNonNull(timeout, "timeout must not be null");
		long start = System.nanoTime();
		shutDown();
		long remaining = Math.max(0, saturatedNanos(timeout)) - (System.nanoTime() - start);
		this.lock.lock();
		try {
			while (!this.processing.isEmpty()) {
				if (remaining <= 0) {
					return false;
				}
				remaining = this.processingDone.awaitNanos(remaining);
			}
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public boolean isShuttingDown() {
		return this.shuttingDown;
	}

	@Override
	public long unfinishedWorkNanos() {
		this.lock.lock();
		try {
			long now = this.ticker.nanoTime();
			long total = 0;
			for (Processing handedOut : this.processing.values()) {
				total += now - handedOut.startedAt();
			}
			return total;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public long longestRunningProcessorNanos() {
		this.lock.lock();
		try {
			long now = this.ticker.nanoTime();
			long longest = 0;
			for (Processing handedOut : this.processing.values()) {
				longest = Math.max(longest, now - handedOut.startedAt());
			}
			return longest;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public String toString() {
		return "WorkQueue[" + this.name + "]";
	}

	private int effective(int priority) {
		return this.prioritized ? priority : DEFAULT_PRIORITY;
	}

	/** Queues a dirty item that is not processing. Caller holds the lock. */
	private void enqueue(T item, Dirty<T> pending, long since) {
		pending.ready = this.ready.add(item, pending.priority, since);
		this.itemReady.signal();
		depthChanged(pending.priority);
	}

	/**
	 * Raises the priority of a dirty item; a ready one moves behind the items of its new
	 * priority, keeping the time it became ready. Caller holds the lock.
	 */
	private void raise(T item, Dirty<T> pending, int priority) {
		int previous = pending.priority;
		pending.priority = priority;
		ReadyItems.Entry<T> entry = pending.ready;
		if (entry != null) {
			this.ready.remove(entry);
			pending.ready = this.ready.add(item, priority, entry.since);
			this.metrics.depth(previous, this.ready.size(previous));
			this.metrics.depth(priority, this.ready.size(priority));
		}
	}

	private void depthChanged(int priority) {
		if (this.prioritized) {
			this.metrics.depth(priority, this.ready.size(priority));
		}
		this.metrics.depth(this.ready.size());
	}

	/**
	 * Hands out the first ready item of the highest priority, or returns null if shut
	 * down. Caller holds the lock.
	 */
	private @Nullable T handOut() {
		if (this.shuttingDown) {
			return null;
		}
		ReadyItems.Entry<T> next = Objects.requireNonNull(this.ready.poll());
		T item = next.item;
		long now = this.ticker.nanoTime();
		this.dirty.remove(item);
		this.processing.put(item, new Processing(now, next.priority));
		depthChanged(next.priority);
		this.metrics.queueLatency(now - next.since);
		return item;
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
		}
	}

	/**
	 * An item that needs processing: the priority it is (or will be) queued with, and its
	 * entry while it is ready.
	 *
	 * @param <T> the type of the items
	 */
	private static final class Dirty<T> {

		int priority;

		ReadyItems.@Nullable Entry<T> ready;

		Dirty(int priority) {
			this.priority = priority;
		}

	}

	/**
	 * An item handed out: when, and at which priority.
	 *
	 * @param startedAt when it was handed out
	 * @param priority the priority it was handed out with
	 */
	private record Processing(long startedAt, int priority) {

	}

}
