package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * How long to wait after the API server answered 429 Too Many Requests. The API server's
 * priority and fairness (and its max-in-flight filter) reject a request before executing
 * it and say when to come back in a {@code Retry-After} header of whole seconds, which is
 * read as client-go reads it. What is waited is that value, {@link #DEFAULT} when the
 * answer had none (or one that is no number of seconds, or below one second), and at most
 * {@link #MAX}, so that a header from a misbehaving proxy cannot stall work for hours.
 */
public final class RetryAfter {

	/** The wait when the answer says nothing usable. */
	public static final Duration DEFAULT = Duration.ofSeconds(1);

	/** The longest wait honoured. */
	public static final Duration MAX = Duration.ofMinutes(1);

	private RetryAfter() {
	}

	/**
	 * Reads the {@code Retry-After} header of an answer.
	 * @param headers the response headers, names in any case
	 * @return the seconds it asks for, or {@code null} if there is no such header or it
	 * holds no non-negative number of seconds (an HTTP date, which the API server never
	 * sends)
	 */
	public static @Nullable Duration parse(@Nullable Map<String, List<String>> headers) {
		if (headers == null) {
			return null;
		}
		for (Map.Entry<String, List<String>> header : headers.entrySet()) {
			if ("Retry-After".equalsIgnoreCase(header.getKey()) && header.getValue() != null
					&& !header.getValue().isEmpty()) {
				try {
					long seconds = Long.parseLong(header.getValue().get(0).trim());
					return (seconds >= 0) ? Duration.ofSeconds(seconds) : null;
				}
				catch (NumberFormatException | ArithmeticException notSeconds) {
					return null;
				}
			}
		}
		return null;
	}

	/**
	 * Returns how long to wait for an answer's {@code Retry-After}.
	 * @param retryAfter what the answer asked for, or {@code null} if nothing
	 * @return the wait: {@link #DEFAULT} for nothing or less than that, at most
	 * {@link #MAX}
	 */
	public static Duration wait(@Nullable Duration retryAfter) {
		if (retryAfter == null || retryAfter.compareTo(DEFAULT) < 0) {
			return DEFAULT;
		}
		return (retryAfter.compareTo(MAX) > 0) ? MAX : retryAfter;
	}

}
