package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * Sends a request again after the {@link RetryAfter} of each 429 Too Many Requests it is
 * answered, as client-go's REST client does ({@code checkWait}, {@code maxRetries}). A
 * 429 from the API server's priority and fairness means the request was rejected before
 * it was executed, so every verb, writes included, can be sent again.
 * <p>
 * The retries are bounded by a number and, optionally, by a budget: no retry is made
 * whose wait would end after the budget, counted from the first attempt. A wait is
 * interruptible: an interrupted thread stops retrying and keeps its interrupt status.
 * When the retries end, the last 429 is thrown as it was received.
 */
public final class TooManyRequestsRetry {

	/** client-go's {@code maxRetries} of a REST client. */
	public static final int MAX_RETRIES = 10;

	private final int maxRetries;

	private final @Nullable Duration budget;

	private final Sleeper sleeper;

	private final LongSupplier nanoTime;

	TooManyRequestsRetry(int maxRetries, @Nullable Duration budget, Sleeper sleeper, LongSupplier nanoTime) {
		this.maxRetries = maxRetries;
		this.budget = budget;
		this.sleeper = sleeper;
		this.nanoTime = nanoTime;
	}

	/**
	 * Returns the retries of a client call: at most {@link #MAX_RETRIES}, each waiting
	 * its Retry-After, and none whose wait would end after the call's timeout.
	 * @param timeout the client's timeout of one call
	 * @return the retries
	 */
	public static TooManyRequestsRetry withinTimeout(Duration timeout) {
		return new TooManyRequestsRetry(MAX_RETRIES, timeout, TooManyRequestsRetry::sleep, System::nanoTime);
	}

	/**
	 * Returns the retries of an informer's list or watch request: as many as it takes,
	 * each waiting its Retry-After, as an informer retries every failure for as long as
	 * it runs; stopping an informer interrupts its thread, which ends them.
	 * @return the retries
	 */
	public static TooManyRequestsRetry untilInterrupted() {
		return new TooManyRequestsRetry(Integer.MAX_VALUE, null, TooManyRequestsRetry::sleep, System::nanoTime);
	}

	/**
	 * Sends a request until it is answered with something other than 429 or the retries
	 * end.
	 * @param <T> what the request returns
	 * @param attempt sends the request once; called again for every retry
	 * @param listener told of each 429 that is retried, before the wait
	 * @return what the successful attempt returned
	 * @throws ApiException the failure of the last attempt: an error other than 429, or
	 * the last 429 once the retries are used up, the budget would be exceeded or the
	 * thread was interrupted (its interrupt status is then set)
	 */
	public <T> T call(Attempt<T> attempt, Listener listener) throws ApiException {
		long start = this.nanoTime.getAsLong();
		for (int retry = 1;; retry++) {
			try {
				return attempt.send();
			}
			catch (ApiException ex) {
				if (ex.getCode() != 429 || retry > this.maxRetries) {
					throw ex;
				}
				Duration wait = RetryAfter.wait(RetryAfter.parse(ex.getResponseHeaders()));
				if (this.budget != null
						&& Duration.ofNanos(this.nanoTime.getAsLong() - start).plus(wait).compareTo(this.budget) > 0) {
					throw ex;
				}
				listener.throttled(ex, wait, retry);
				try {
					this.sleeper.sleep(wait);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					throw ex;
				}
			}
		}
	}

	private static void sleep(Duration duration) throws InterruptedException {
		TimeUnit.NANOSECONDS.sleep(duration.toNanos());
	}

	/**
	 * Sends a request once.
	 *
	 * @param <T> what it returns
	 */
	@FunctionalInterface
	public interface Attempt<T> {

		/**
		 * Sends the request.
		 * @return its result
		 * @throws ApiException if it failed or was answered with an error
		 */
		T send() throws ApiException;

	}

	/**
	 * Told of each 429 that is retried.
	 */
	@FunctionalInterface
	public interface Listener {

		/**
		 * Called before waiting.
		 * @param answer the 429
		 * @param wait how long the retry waits
		 * @param retry which retry follows, from 1
		 */
		void throttled(ApiException answer, Duration wait, int retry);

	}

	/**
	 * Waits, interruptibly.
	 */
	@FunctionalInterface
	interface Sleeper {

		void sleep(Duration duration) throws InterruptedException;

	}

}
