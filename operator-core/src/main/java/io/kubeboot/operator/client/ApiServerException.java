package io.kubeboot.operator.client;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The API server refused or failed a call of the {@link Client}; the subclasses name the
 * cases a reconciler handles ({@link NotFoundException}, {@link ConflictException},
 * {@link AlreadyExistsException}, {@link ForbiddenException}, {@link InvalidException},
 * {@link TooManyRequestsException}). Unchecked: a reconcile that lets it escape is
 * retried with backoff, except a {@link ConflictException}, which the controller requeues
 * at once, and a {@link TooManyRequestsException}, which it requeues after the
 * Retry-After.
 */
public class ApiServerException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final int code;

	private final @Nullable String reason;

	/**
	 * Creates an exception.
	 * @param message what failed, for a person to read
	 * @param code the HTTP status code, {@code 0} if the API server was not reached
	 * @param reason the Kubernetes status reason, such as {@code NotFound}
	 * @param cause the client-java exception
	 */
	public ApiServerException(String message, int code, @Nullable String reason, @Nullable Throwable cause) {
		super(message, cause);
		this.code = code;
		this.reason = reason;
	}

	/**
	 * Returns the HTTP status code.
	 * @return the code, {@code 0} if the API server was not reached (connection refused,
	 * timeout)
	 */
	public int code() {
		return this.code;
	}

	/**
	 * Returns the Kubernetes status reason.
	 * @return the reason, such as {@code Conflict}, or {@code null} if the answer had
	 * none
	 */
	public @Nullable String reason() {
		return this.reason;
	}

	/**
	 * The object does not exist (404).
	 */
	public static class NotFoundException extends ApiServerException {

		private static final long serialVersionUID = 1L;

		/**
		 * Creates an exception.
		 * @param message what failed
		 * @param cause the client-java exception
		 */
		public NotFoundException(String message, @Nullable Throwable cause) {
			super(message, 404, "NotFound", cause);
		}

	}

	/**
	 * The write was based on a stale version of the object (409 Conflict): someone else
	 * changed it first. Normal in a controller: read the object again and retry, which
	 * the controller does at once when a reconcile throws this.
	 */
	public static class ConflictException extends ApiServerException {

		private static final long serialVersionUID = 1L;

		/**
		 * Creates an exception.
		 * @param message what failed
		 * @param cause the client-java exception
		 */
		public ConflictException(String message, @Nullable Throwable cause) {
			super(message, 409, "Conflict", cause);
		}

	}

	/**
	 * An object of that name exists already (409 AlreadyExists).
	 */
	public static class AlreadyExistsException extends ApiServerException {

		private static final long serialVersionUID = 1L;

		/**
		 * Creates an exception.
		 * @param message what failed
		 * @param cause the client-java exception
		 */
		public AlreadyExistsException(String message, @Nullable Throwable cause) {
			super(message, 409, "AlreadyExists", cause);
		}

	}

	/**
	 * RBAC does not allow the call (403).
	 */
	public static class ForbiddenException extends ApiServerException {

		private static final long serialVersionUID = 1L;

		/**
		 * Creates an exception.
		 * @param message what failed
		 * @param cause the client-java exception
		 */
		public ForbiddenException(String message, @Nullable Throwable cause) {
			super(message, 403, "Forbidden", cause);
		}

	}

	/**
	 * The object failed validation (422 Invalid), with the fields at fault.
	 */
	public static class InvalidException extends ApiServerException {

		private static final long serialVersionUID = 1L;

		private final List<FieldCause> causes;

		/**
		 * Creates an exception.
		 * @param message what failed
		 * @param causes the fields at fault
		 * @param cause the client-java exception
		 */
		public InvalidException(String message, List<FieldCause> causes, @Nullable Throwable cause) {
			super(message, 422, "Invalid", cause);
			this.causes = List.copyOf(causes);
		}

		/**
		 * Returns the fields at fault.
		 * @return the causes, possibly empty
		 */
		public List<FieldCause> causes() {
			return this.causes;
		}

	}

	/**
	 * The API server is throttling this client (429, API Priority and Fairness), and the
	 * client's own retries after each Retry-After did not get through. A reconcile that
	 * lets it escape is requeued after {@link #retryAfter()} (1s if none, at most 1m)
	 * instead of the growing backoff.
	 */
	public static class TooManyRequestsException extends ApiServerException {

		private static final long serialVersionUID = 1L;

		private final java.time.@Nullable Duration retryAfter;

		/**
		 * Creates an exception.
		 * @param message what failed
		 * @param retryAfter how long the server asked to wait, or {@code null}
		 * @param cause the client-java exception
		 */
		public TooManyRequestsException(String message, java.time.@Nullable Duration retryAfter,
				@Nullable Throwable cause) {
			super(message, 429, "TooManyRequests", cause);
			this.retryAfter = retryAfter;
		}

		/**
		 * Returns how long the server asked to wait ({@code Retry-After}).
		 * @return the duration, or {@code null} if it said nothing
		 */
		public java.time.@Nullable Duration retryAfter() {
			return this.retryAfter;
		}

	}

	/**
	 * One field a validation failed on.
	 *
	 * @param field the field's path, such as {@code spec.replicas}
	 * @param reason the machine-readable reason, such as {@code FieldValueInvalid}
	 * @param message what is wrong, for a person to read
	 */
	public record FieldCause(@Nullable String field, @Nullable String reason, @Nullable String message) {
	}

}
