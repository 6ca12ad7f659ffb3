package io.kubeboot.operator.workqueue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Items waiting for their delay, ordered by ready time, and the daemon thread that hands
 * each one to a sink, with its priority, once its delay has passed. Unbounded; an item
 * waits at most once (the earlier ready time and the higher priority win). The thread is
 * started on the first delayed item and exits on {@link #stop()}.
 *
 * @param <T> the type of the items
 */
final class DelayedItems<T> {

	private static final Logger logger = LoggerFactory.getLogger(DelayedItems.class);

	private static final long STOP_JOIN_MILLIS = TimeUnit.SECONDS.toMillis(5);

	private final String threadName;

	private final Ticker ticker;

	private final long origin;

	private final Sink<T> sink;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final TreeSet<Waiting<T>> byReadyTime = new TreeSet<>(
			Comparator.<Waiting<T>>comparingLong(Waiting::readyAt).thenComparingLong(Waiting::sequence));

	private final Map<T, Waiting<T>> byItem = new HashMap<>();

	private long sequence;

	private @Nullable Thread thread;

	private volatile boolean stopped;

	DelayedItems(String threadName, Ticker ticker, Sink<T> sink) {
		this.threadName = threadName;
		this.ticker = ticker;
		this.origin = ticker.nanoTime();
		this.sink = sink;
	}

	/**
	 * Hands the item to the sink once the delay has passed, or earlier if it already
	 * waits with an earlier ready time; at the higher of the two priorities if it already
	 * waits. Ignored once stopped.
	 * @param item the item
	 * @param delayNanos the delay, positive
	 * @param priority the priority to hand it over with
	 */
	void schedule(T item, long delayNanos, int priority) {
		this.lock.lock();
		try {
			if (this.stopped) {
				return;
			}
			long readyAt = saturatedAdd(elapsed(), delayNanos);
			int highest = priority;
			Waiting<T> existing = this.byItem.get(item);
			if (existing != null) {
				if (existing.readyAt() <= readyAt && existing.priority() >= priority) {
					return;
				}
				this.byReadyTime.remove(existing);
				readyAt = Math.min(readyAt, existing.readyAt());
				highest = Math.max(priority, existing.priority());
			}
			Waiting<T> waiting = new Waiting<>(item, readyAt, highest, this.sequence++);
			this.byItem.put(item, waiting);
			this.byReadyTime.add(waiting);
			if (this.thread == null) {
				startThread();
			}
			else if (this.byReadyTime.first() == waiting) {
				this.changed.signal();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Returns the number of items waiting for their delay.
	 * @return the number of waiting items
	 */
	int size() {
		this.lock.lock();
		try {
			return this.byItem.size();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Discards the waiting items and stops the thread, waiting briefly for it to exit.
	 * Idempotent.
	 */
	void stop() {
		Thread toJoin;
		this.lock.lock();
		try {
			this.stopped = true;
			this.byReadyTime.clear();
			this.byItem.clear();
			toJoin = this.thread;
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
		if (toJoin != null && toJoin != Thread.currentThread()) {
			try {
				toJoin.join(STOP_JOIN_MILLIS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void startThread() {
		Thread started = new Thread(this::run, this.threadName);
		started.setDaemon(true);
		this.thread = started;
		started.start();
	}

	private void run() {
		List<Waiting<T>> ready = new ArrayList<>();
		while (!this.stopped) {
			try {
				awaitReady(ready);
			}
			catch (InterruptedException ex) {
				// Only stop() ends this thread; a stray interrupt just re-evaluates
				continue;
			}
			for (Waiting<T> waiting : ready) {
				if (this.stopped) {
					break;
				}
				deliver(waiting);
			}
			ready.clear();
		}
		logger.debug("Work queue delay thread {} stopped", this.threadName);
	}

	private void awaitReady(List<Waiting<T>> ready) throws InterruptedException {
		this.lock.lock();
		try {
			while (!this.stopped) {
				if (this.byReadyTime.isEmpty()) {
					this.changed.await();
					continue;
				}
				long now = elapsed();
				long wait = this.byReadyTime.first().readyAt() - now;
				if (wait > 0) {
					this.changed.awaitNanos(wait);
					continue;
				}
				while (!this.byReadyTime.isEmpty() && this.byReadyTime.first().readyAt() <= now) {
					Waiting<T> waiting = this.byReadyTime.pollFirst();
					this.byItem.remove(waiting.item());
					ready.add(waiting);
				}
				return;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void deliver(Waiting<T> waiting) {
		try {
			this.sink.add(waiting.item(), waiting.priority());
		}
		catch (RuntimeException ex) {
			logger.warn("Work queue delay thread {} failed to add an item", this.threadName, ex);
		}
	}

	private long elapsed() {
		return Math.max(0, this.ticker.nanoTime() - this.origin);
	}

	private static long saturatedAdd(long a, long b) {
		long sum = a + b;
		return (sum < 0) ? Long.MAX_VALUE : sum;
	}

	private record Waiting<T>(T item, long readyAt, int priority, long sequence) {

	}

	/**
	 * Where ready items go.
	 *
	 * @param <T> the type of the items
	 */
	@FunctionalInterface
	interface Sink<T> {

		/**
		 * Takes an item whose delay has passed.
		 * @param item the item
		 * @param priority its priority
		 */
		void add(T item, int priority);

	}

}
