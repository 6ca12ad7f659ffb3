package io.kubeboot.operator.workqueue;

/**
 * A monotonic nanosecond time source, used to measure delays, rates and durations. Only
 * differences between two readings are meaningful, exactly as for
 * {@link System#nanoTime()}. Implementations must be thread-safe and must never go
 * backwards.
 */
@FunctionalInterface
public interface Ticker {

	/**
	 * Returns the current value of this time source, in nanoseconds. Never blocks.
	 * @return the current reading
	 */
	long nanoTime();

	/**
	 * Returns the ticker backed by {@link System#nanoTime()}.
	 * @return the system ticker
	 */
	static Ticker system() {
		return System::nanoTime;
	}

}
