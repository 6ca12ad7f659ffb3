package io.kubeboot.operator.client.internal;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import okhttp3.OkHttpClient;

/**
 * An {@link ApiClient} with the same server, TLS and authentication as another (the
 * authentication is delegated, so refreshed tokens keep working) but HTTP settings of its
 * own (timeouts, protocols, connection pool). The other client is never modified.
 */
public final class DelegatingAuthApiClient extends ApiClient {

	private final ApiClient delegate;

	/**
	 * Creates a client that talks to the same server as another, with its own HTTP
	 * settings.
	 * @param delegate the client whose server, TLS and authentication are used; it is not
	 * modified
	 * @param customizer changes a copy of the delegate's HTTP client builder
	 */
	public DelegatingAuthApiClient(ApiClient delegate, UnaryOperator<OkHttpClient.Builder> customizer) {
		super(customizer.apply(delegate.getHttpClient().newBuilder()).build());
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
