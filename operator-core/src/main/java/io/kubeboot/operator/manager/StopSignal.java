package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Tells a {@link ManagerRunnable} when to stop, the counterpart of a Go context's
 * {@code Done()}. It fires once and stays fired. Thread-safe.
 */
public final class StopSignal {

	private final CountDownLatch latch = new CountDownLatch(1);

	/**
	 * Creates a signal that has not fired.
	 */
	public StopSignal() {
	}

	/**
	 * Whether the signal has fired.
	 * @return {@code true} once stop was requested
	 */
	public boolean isStopRequested() {
		return this.latch.getCount() == 0;
	}

	/**
	 * Blocks until the signal fires.
	 * @throws InterruptedException if the thread is interrupted while waiting (the
	 * manager does this once the graceful shutdown timeout has passed)
	 */
	public void await() throws InterruptedException {
		this.latch.await();
	}

	/**
	 * Blocks until the signal fires or the timeout passes, whichever comes first: a
	 * stop-aware sleep for periodic work.
	 * @param timeout how long to wait at most
	 * @return {@code true} if the signal fired
	 * @throws InterruptedException if the thread is interrupted while waiting
	 */
	public boolean await(Duration timeout) throws InterruptedException {
		return this.latch.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
	}

	/**
	 * Returns the latch behind this signal, counted down when it fires, for code below
	 * the manager that must not depend on it.
	 */
	CountDownLatch latch() {
		return this.latch;
	}

	/**
	 * Fires the signal; later calls do nothing.
	 */
	public void fire() {
		this.latch.countDown();
	}

}
