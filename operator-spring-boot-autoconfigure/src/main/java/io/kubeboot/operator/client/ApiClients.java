package io.kubeboot.operator.client;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiClient;

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
		return new DelegatingAuthApiClient(client, readTimeout, callTimeout);
	}

}
