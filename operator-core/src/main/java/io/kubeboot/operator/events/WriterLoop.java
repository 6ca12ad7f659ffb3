package io.kubeboot.operator.events;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.manager.StopSignal;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer's lifecycle: {@link #run} takes due batches from the {@link EventQueue} and
 * writes them on the calling thread until the recorder is closed, by {@link #close()} or
 * by the stop signal; {@link #close()} lets it flush for at most the flush timeout, then
 * interrupts a write still in progress and drops (counts and logs) what is left. If it
 * never ran, {@link #close()} flushes on a short-lived thread, so the same bound holds. A
 * recorder runs once: after it was closed, {@link #run} returns at once. Thread-safe.
 */
final class WriterLoop {

	// the recorder's logger: the log lines and their configuration stay as they were
	private static final Logger logger = LoggerFactory.getLogger(KubernetesEventRecorder.class);

	private static final AtomicInteger threadNumbers = new AtomicInteger();

	private final EventQueue queue;

	private final EventWriter writer;

	private final DroppedEvents dropped;

	private final String component;

	private final Duration flushTimeout;

	// close() waits on it as it would join a thread of its own
	private final CountDownLatch ended = new CountDownLatch(1);

	// run() returns only once close() has accounted for what could not be written
	private final CountDownLatch closed = new CountDownLatch(1);

	private State state = State.NEW;

	private @Nullable Thread runner;

	WriterLoop(EventQueue queue, EventWriter writer, DroppedEvents dropped, String component, Duration flushTimeout) {
		this.queue = queue;
		this.writer = writer;
		this.dropped = dropped;
		this.component = component;
		this.flushTimeout = flushTimeout;
	}

	/**
	 * Writes events on the calling thread until closed, then returns once
	 * {@link #close()} has flushed. A stop signal that fires closes the recorder. Returns
	 * with the thread's interrupt status set if the thread was interrupted (by
	 * {@link #close()} when a write outlasted the flush timeout, or by its owner).
	 * @param stop the signal to stop on
	 * @throws IllegalStateException if it is running already
	 */
	void run(StopSignal stop) {
		if (!begin()) {
			return;
		}
		Thread watcher = daemon("event-recorder-stop-", () -> {
			try {
				stop.await();
			}
			catch (InterruptedException ex) {
				return;
			}
			close();
		});
		boolean interrupted;
		try {
			interrupted = writeUntilClosed();
		}
		finally {
			if (!stop.isStopRequested()) {
				// the signal did not end the loop: the watcher is not needed any more
				watcher.interrupt();
			}
		}
		if (this.queue.isClosed()) {
			interrupted |= awaitClosed();
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Closes the queue and flushes: lets the loop write what is pending (starting it on a
	 * thread of its own if it never ran) for at most the flush timeout, interrupts it if
	 * it has not ended by then, and drops what is left. Idempotent: later calls return at
	 * once.
	 */
	void close() {
		if (!this.queue.close()) {
			return;
		}
		boolean interrupted = false;
		try {
			if (runIfNeverStarted()) {
				interrupted = awaitFlush();
			}
			AggregationTable.Lost lost = this.queue.drain();
			if (lost.events() > 0) {
				this.dropped.count(lost.occurrences());
				logger.warn(
						"Event recorder closed before writing every event: component={} events={} occurrences={} "
								+ "flushTimeout={}",
						this.component, lost.events(), lost.occurrences(), this.flushTimeout);
			}
			else {
				logger.debug("Event recorder closed: component={} dropped={}", this.component, this.dropped.total());
			}
		}
		finally {
			this.closed.countDown();
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	private boolean begin() {
		synchronized (this) {
			if (this.state == State.RUNNING) {
				throw new IllegalStateException("Event recorder is running already: component=" + this.component);
			}
			if (this.state == State.NEW && !this.queue.isClosed()) {
				this.state = State.RUNNING;
				this.runner = Thread.currentThread();
				return true;
			}
		}
		logger.warn("Event recorder started after it was closed, it writes no events: component={}", this.component);
		return false;
	}

	/**
	 * Starts the loop on a thread of its own if it never ran, since nothing else would
	 * write what is pending.
	 * @return whether the loop is running
	 */
	private synchronized boolean runIfNeverStarted() {
		if (this.state == State.NEW) {
			this.state = State.RUNNING;
			this.runner = daemon("event-recorder-flush-", this::writeUntilClosed);
		}
		return this.state == State.RUNNING;
	}

	private boolean awaitFlush() {
		boolean interrupted = false;
		try {
			long millis = this.flushTimeout.toMillis();
			if (millis > 0) {
				this.ended.await(millis, TimeUnit.MILLISECONDS);
			}
		}
		catch (InterruptedException ex) {
			interrupted = true;
		}
		synchronized (this) {
			// under the monitor: once the loop has ended, its thread is no longer ours
			if (this.state == State.RUNNING && this.runner != null) {
				this.runner.interrupt();
			}
		}
		return interrupted;
	}

	/**
	 * Writes until the queue is closed and empty, or the thread is interrupted.
	 * @return whether the thread was interrupted
	 */
	private boolean writeUntilClosed() {
		try {
			EventQueue.Batch batch;
			while ((batch = this.queue.take()) != null) {
				this.writer.write(batch);
			}
			return false;
		}
		catch (InterruptedException ex) {
			// close() gave up waiting, or the owner of the thread stopped it: close()
			// accounts for what is pending
			return true;
		}
		catch (Error ex) {
			logger.error("Event recorder thread failed, no more events will be written: component={}", this.component,
					ex);
			throw ex;
		}
		finally {
			synchronized (this) {
				this.state = State.ENDED;
				this.runner = null;
			}
			this.ended.countDown();
		}
	}

	private boolean awaitClosed() {
		boolean interrupted = false;
		while (true) {
			try {
				this.closed.await();
				return interrupted;
			}
			catch (InterruptedException ex) {
				// close() only has to empty the table: wait for it all the same
				interrupted = true;
			}
		}
	}

	private static Thread daemon(String namePrefix, Runnable task) {
		Thread thread = new Thread(task, namePrefix + threadNumbers.incrementAndGet());
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

	private enum State {

		NEW, RUNNING, ENDED

	}

}
