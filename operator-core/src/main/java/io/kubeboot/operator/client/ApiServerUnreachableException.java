package io.kubeboot.operator.client;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * Thrown when the manager could not get through to the API server at start-up: within the
 * cache sync timeout no discovery request got an answer (a refused connection, a timeout,
 * an unknown host, a failed TLS handshake), or every answer was an error (such as
 * {@code 401 Unauthorized} for credentials it does not accept, or {@code 404 Not Found}
 * from a server that is no API server). The message names the server's URL, where that
 * URL came from if known, and the last error: {@code Cannot reach the API server at
 * https://127.0.0.1:6443 (from KUBECONFIG=/home/me/kind.yaml, context kind-dev) within
 * PT2M: ConnectException: Connection refused}.
 */
public class ApiServerUnreachableException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String server;

	private final @Nullable String serverOrigin;

	private final Duration timeout;

	private final String error;

	/**
	 * Creates an exception.
	 * @param server the URL of the API server
	 * @param timeout how long start-up kept trying
	 * @param error the last error, for a person to read
	 * @param cause the last failure
	 */
	public ApiServerUnreachableException(String server, Duration timeout, String error, Throwable cause) {
		this(server, null, timeout, error, cause);
	}

	private ApiServerUnreachableException(String server, @Nullable String serverOrigin, Duration timeout, String error,
			Throwable cause) {
		super(message(server, serverOrigin, timeout, error, cause), cause);
		this.server = server;
		this.serverOrigin = serverOrigin;
		this.timeout = timeout;
		this.error = error;
	}

	private static String message(String server, @Nullable String serverOrigin, Duration timeout, String error,
			Throwable cause) {
		String where = server + ((serverOrigin != null) ? " (from " + serverOrigin + ")" : "");
		Throwable last = (cause instanceof ApiServerUnreachableException unreachable) ? unreachable.getCause() : cause;
		if (last instanceof ApiException api && api.getCode() != 0) {
			return "The API server at " + where + " answered every discovery request within " + timeout
					+ " with an error, the last: " + error;
		}
		return "Cannot reach the API server at " + where + " within " + timeout + ": " + error;
	}

	/**
	 * Returns the same failure, saying where the server's URL came from.
	 * @param origin where the URL came from, such as
	 * {@code KUBECONFIG=/home/me/kind.yaml, context kind-dev}
	 * @return a new exception, caused by this one
	 */
	public ApiServerUnreachableException withServerOrigin(String origin) {
		return new ApiServerUnreachableException(this.server, origin, this.timeout, this.error, this);
	}

	/**
	 * Returns the URL of the API server that could not be reached.
	 * @return the URL, such as {@code https://10.96.0.1:443}
	 */
	public String server() {
		return this.server;
	}

	/**
	 * Returns where the server's URL came from, if known.
	 * @return the origin, or {@code null}
	 */
	public @Nullable String serverOrigin() {
		return this.serverOrigin;
	}

}
