package io.kubeboot.operator.client;

import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.client.internal.DelegatingAuthApiClient;
import io.kubernetes.client.openapi.ApiClient;
import okhttp3.ConnectionPool;
import okhttp3.Protocol;

/**
 * Derives clients with their own timeouts from the application's {@link ApiClient}:
 * watches need a read timeout longer than any quiet period, Lease renewals need a short
 * bound.
 */
public final class ApiClients {

	private ApiClients() {
	}

	/**
	 * Returns a client that talks to the same server with the same credentials but other
	 * timeouts.
	 * @param client the application's client; it is not modified
	 * @param readTimeout the longest wait for the next bytes of a response, zero for none
	 * @param callTimeout the longest a whole call may take, zero for none
	 * @return the derived client
	 */
	public static ApiClient withTimeouts(ApiClient client, Duration readTimeout, Duration callTimeout) {
		return new DelegatingAuthApiClient(client,
				(builder) -> builder.readTimeout(readTimeout).callTimeout(callTimeout));
	}

	/**
	 * Returns a client for long-lived watches: the same server and credentials, a read
	 * timeout, HTTP/1.1 and a connection pool of its own. With HTTP/1.1 every watch has
	 * its own connection, so one that dies half-open (a node or a NAT dropping it
	 * silently) stalls only that watch, and its read timeout ends it; with HTTP/2 every
	 * watch multiplexed on the dead connection would stall together. The own pool lets
	 * {@link #evictIdleConnections} drop idle connections that may be just as dead
	 * without touching the application's.
	 * @param client the application's client; it is not modified
	 * @param readTimeout the longest wait for the next bytes of a response
	 * @return the derived client
	 */
	public static ApiClient forWatches(ApiClient client, Duration readTimeout) {
		return new DelegatingAuthApiClient(client,
				(builder) -> builder.readTimeout(readTimeout)
					.callTimeout(Duration.ZERO)
					.protocols(List.of(Protocol.HTTP_1_1))
					.connectionPool(new ConnectionPool()));
	}

	/**
	 * Closes every idle pooled connection of a client, so that its next request opens a
	 * new one instead of reusing a connection that may have died silently.
	 * @param client the client
	 */
	public static void evictIdleConnections(ApiClient client) {
		client.getHttpClient().connectionPool().evictAll();
	}

}
