package io.kubeboot.operator.events;

import java.net.HttpURLConnection;
import java.time.Duration;

import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * What a failed write means: whether it may pass (the API server unreachable, 429, 5xx)
 * and is retried with backoff (1s doubling to 30s, {@link #MAX_ATTEMPTS} attempts in
 * all), or is final (403, 422, ...) and drops the event; and the two answers the writer
 * handles itself, an expired Event (404 on a patch) and a name taken (409 on a create).
 */
final class WriteFailures {

	/**
	 * How many times one batch of occurrences is written at most, the first write
	 * included.
	 */
	static final int MAX_ATTEMPTS = 8;

	private static final Duration FIRST_RETRY = Duration.ofSeconds(1);

	private static final Duration MAX_RETRY = Duration.ofSeconds(30);

	private WriteFailures() {
	}

	/**
	 * Returns how long to wait before a failed write is tried again.
	 * @param failure why it failed
	 * @param retry the number of the retry, 1 for the first
	 * @return the delay, or {@code null} if the failure is final or the attempts are used
	 * up
	 */
	static @Nullable Duration retryDelay(ApiException failure, int retry) {
		if (!mayPass(failure) || retry >= MAX_ATTEMPTS) {
			return null;
		}
		Duration delay = FIRST_RETRY.multipliedBy(1L << Math.min(retry - 1, 10));
		return (delay.compareTo(MAX_RETRY) > 0) ? MAX_RETRY : delay;
	}

	/**
	 * Whether a failure may pass by itself: no answer at all (code 0), 429 or 5xx.
	 * @param failure the failure
	 * @return whether to retry
	 */
	static boolean mayPass(ApiException failure) {
		int code = failure.getCode();
		return code == 0 || code == 429 || code >= 500;
	}

	/**
	 * Whether a patch failed because the Event is gone (Events expire).
	 * @param failure the failure
	 * @return whether to create a new Event instead
	 */
	static boolean isExpired(ApiException failure) {
		return failure.getCode() == HttpURLConnection.HTTP_NOT_FOUND;
	}

	/**
	 * Whether a create failed because another writer took the name.
	 * @param failure the failure
	 * @return whether to create it again under a new name
	 */
	static boolean isNameTaken(ApiException failure) {
		return failure.getCode() == HttpURLConnection.HTTP_CONFLICT;
	}

}
