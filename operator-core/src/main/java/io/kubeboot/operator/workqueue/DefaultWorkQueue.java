package io.kubeboot.operator.workqueue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * The {@link WorkQueue} implementation: a FIFO of ready items, a dirty set for
 * de-duplication, a processing map (item to start time), and {@link DelayedItems} for
 * delayed adds.
 *
 * @param <T> the type of the items
 */
final class DefaultWorkQueue<T> implements WorkQueue<T> {

	private final String name;

	private final RateLimiter<T> rateLimiter;

	private final WorkQueueMetrics metrics;

	private final Ticker ticker;

	private final DelayedItems<T> delayed;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition itemReady = this.lock.newCondition();

	private final Condition processingDone = this.lock.newCondition();

	/** Items ready to be handed out, each at most once, with the time it became ready. */
	private final ArrayDeque<Ready<T>> ready = new ArrayDeque<>();

	/** Items that need processing: the ready ones and those added while processing. */
	private final Set<T> dirty = new HashSet<>();

	/** Items handed out and not done yet, with the time they were handed out. */
	private final Map<T, Long> processing = new HashMap<>();

	private volatile boolean shuttingDown;

	DefaultWorkQueue(String name, RateLimiter<T> rateLimiter, WorkQueueMetrics metrics, Ticker ticker) {
		this.name = Objects.requireNonNull(name, "name must not be null");
		this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter must not be null");
		this.metrics = Objects.requireNonNull(metrics, "metrics must not be null");
		this.ticker = Objects.requireNonNull(ticker, "ticker must not be null");
		this.delayed = new DelayedItems<>("workqueue-" + name + "-delay", ticker, this::add);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public void add(T item) {
		Objects.requireNonNull(item, "item must not be null");
		this.lock.lock();
		try {
			if (this.shuttingDown || !this.dirty.add(item)) {
				return;
			}
			this.metrics.added();
			if (!this.processing.containsKey(item)) {
				enqueue(item);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void addAfter(T item, Duration delay) {
		Objects.requireNonNull(item, "item must not be null");
		Objects.requireNonNull(delay, "delay must not be null");
		if (this.shuttingDown) {
			return;
		}
		if (delay.isNegative() || delay.isZero()) {
			add(item);
			return;
		}
		this.delayed.schedule(item, saturatedNanos(delay));
	}

	@Override
	public void addRateLimited(T item) {
		Objects.requireNonNull(item, "item must not be null");
		if (this.shuttingDown) {
			return;
		}
		this.metrics.retried();
		addAfter(item, this.rateLimiter.when(item));
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
			while (this.ready.isEmpty() && !this.shuttingDown) {
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
			while (this.ready.isEmpty() && !this.shuttingDown) {
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
			Long startedAt = this.processing.remove(item);
			if (startedAt == null) {
				return;
			}
			long now = this.ticker.nanoTime();
			if (this.dirty.contains(item) && !this.shuttingDown) {
				enqueue(item);
			}
			if (this.processing.isEmpty()) {
				this.processingDone.signalAll();
			}
			this.metrics.workDuration(now - startedAt);
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
				this.ready.clear();
				this.dirty.clear();
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
			for (long startedAt : this.processing.values()) {
				total += now - startedAt;
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
			for (long startedAt : this.processing.values()) {
				longest = Math.max(longest, now - startedAt);
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

	/** Queues a dirty item that is not processing. Caller holds the lock. */
	private void enqueue(T item) {
		this.ready.addLast(new Ready<>(item, this.ticker.nanoTime()));
		this.itemReady.signal();
		this.metrics.depth(this.ready.size());
	}

	/**
	 * Hands out the first ready item, or returns null if shut down. Caller holds the
	 * lock.
	 */
	private @Nullable T handOut() {
		if (this.shuttingDown) {
			return null;
		}
		Ready<T> next = this.ready.removeFirst();
		T item = next.item();
		long now = this.ticker.nanoTime();
		this.dirty.remove(item);
		this.processing.put(item, now);
		this.metrics.depth(this.ready.size());
		this.metrics.queueLatency(now - next.since());
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

	private record Ready<T>(T item, long since) {

	}

}
