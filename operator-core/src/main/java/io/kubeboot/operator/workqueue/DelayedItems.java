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
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Items waiting for their delay, ordered by ready time, and the daemon thread that hands
 * each one to a sink once its delay has passed. Unbounded; an item waits at most once
 * (the earlier ready time wins). The thread is started on the first delayed item and
 * exits on {@link #stop()}.
 *
 * @param <T> the type of the items
 */
final class DelayedItems<T> {

	private static final Logger logger = LoggerFactory.getLogger(DelayedItems.class);

	private static final long STOP_JOIN_MILLIS = TimeUnit.SECONDS.toMillis(5);

	private final String threadName;

	private final Ticker ticker;

	private final long origin;

	private final Consumer<T> sink;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final TreeSet<Waiting<T>> byReadyTime = new TreeSet<>(
			Comparator.<Waiting<T>>comparingLong(Waiting::readyAt).thenComparingLong(Waiting::sequence));

	private final Map<T, Waiting<T>> byItem = new HashMap<>();

	private long sequence;

	private @Nullable Thread thread;

	private volatile boolean stopped;

	DelayedItems(String threadName, Ticker ticker, Consumer<T> sink) {
		this.threadName = threadName;
		this.ticker = ticker;
		this.origin = ticker.nanoTime();
		this.sink = sink;
	}

	/**
	 * Hands the item to the sink once the delay has passed, or earlier if it already
	 * waits with an earlier ready time. Ignored once stopped.
	 * @param item the item
	 * @param delayNanos the delay, positive
	 */
	void schedule(T item, long delayNanos) {
		this.lock.lock();
		try {
			if (this.stopped) {
				return;
			}
			long readyAt = saturatedAdd(elapsed(), delayNanos);
			Waiting<T> existing = this.byItem.get(item);
			if (existing != null) {
				if (existing.readyAt() <= readyAt) {
					return;
				}
				this.byReadyTime.remove(existing);
			}
			Waiting<T> waiting = new Waiting<>(item, readyAt, this.sequence++);
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
		List<T> ready = new ArrayList<>();
		while (!this.stopped) {
			try {
				awaitReady(ready);
			}
			catch (InterruptedException ex) {
				// Only stop() ends this thread; a stray interrupt just re-evaluates
				continue;
			}
			for (T item : ready) {
				if (this.stopped) {
					break;
				}
				deliver(item);
			}
			ready.clear();
		}
		logger.debug("Work queue delay thread {} stopped", this.threadName);
	}

	private void awaitReady(List<T> ready) throws InterruptedException {
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
					ready.add(waiting.item());
				}
				return;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void deliver(T item) {
		try {
			this.sink.accept(item);
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

	private record Waiting<T>(T item, long readyAt, long sequence) {

	}

}
