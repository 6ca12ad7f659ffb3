package io.kubeboot.operator.client;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when the manager could not reach the API server at start-up: no request got an
 * answer (a refused connection, a timeout, an unknown host, a failed TLS handshake)
 * within the cache sync timeout. The message names the server's URL, where that URL came
 * from if known, and the last error: {@code Cannot reach the API server at
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
		super("Cannot reach the API server at " + server
				+ ((serverOrigin != null) ? " (from " + serverOrigin + ")" : "") + " within " + timeout + ": " + error,
				cause);
		this.server = server;
		this.serverOrigin = serverOrigin;
		this.timeout = timeout;
		this.error = error;
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
