package io.kubeboot.operator.cache.internal;

import io.kubernetes.client.openapi.models.V1Status;
import org.jspecify.annotations.Nullable;

/**
 * A streamed list that could not be read to its end: the API server sent an error, or an
 * event that has no place among the initial events.
 */
final class StreamedListException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient @Nullable V1Status status;

	StreamedListException(String message, @Nullable V1Status status) {
		super((status != null)
				? message + ": " + status.getCode() + " " + status.getReason() + " " + status.getMessage() : message);
		this.status = status;
	}

	/**
	 * The status the API server sent, if it sent one.
	 * @return the status, or {@code null}
	 */
	@Nullable V1Status status() {
		return this.status;
	}

}
