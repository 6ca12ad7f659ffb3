package io.kubeboot.operator.cache;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;

/**
 * An {@link ApiClient} for list and watch calls: the same server, TLS and authentication
 * as the user's client (authentication is delegated, so refreshed tokens keep working),
 * but with a read timeout long enough for a watch that sees no event for minutes. The
 * user's client is never modified.
 */
final class WatchApiClient extends ApiClient {

	private final ApiClient delegate;

	WatchApiClient(ApiClient delegate, Duration readTimeout) {
		super(delegate.getHttpClient().newBuilder().readTimeout(readTimeout).build());
		this.delegate = delegate;
		setBasePath(delegate.getBasePath());
		setJSON(delegate.getJSON());
	}

	@Override
	public void updateParamsForAuth(String[] authNames, List<Pair> queryParams, Map<String, String> headerParams,
			Map<String, String> cookieParams, String payload, String method, URI uri) throws ApiException {
		this.delegate.updateParamsForAuth(authNames, queryParams, headerParams, cookieParams, payload, method, uri);
	}

}
