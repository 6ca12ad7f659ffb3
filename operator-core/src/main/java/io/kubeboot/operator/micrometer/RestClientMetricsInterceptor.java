package io.kubeboot.operator.micrometer;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * An OkHttp interceptor that counts every request a Kubernetes client makes in
 * client-go's {@code rest_client_requests_total{code,method,host}}: {@code code} is the
 * HTTP status ({@code "200"}) or {@code "<error>"} when no response arrived (an
 * {@link IOException}), {@code method} the HTTP method ({@code "GET"}), {@code host} the
 * server's {@code host:port}. A watch counts once, when its response starts.
 * <p>
 * Install it with {@link #instrument}; clients derived from an instrumented client
 * through {@code getHttpClient().newBuilder()} (as the manager derives its watch and
 * Lease clients) inherit it.
 */
public final class RestClientMetricsInterceptor implements Interceptor {

	/** The {@code code} label of a request that got no response. */
	public static final String ERROR_CODE = "<error>";

	private final MeterRegistry registry;

	private final Map<Key, Counter> counters = new ConcurrentHashMap<>();

	/**
	 * Creates an interceptor that counts in the given registry.
	 * @param registry the registry
	 */
	public RestClientMetricsInterceptor(MeterRegistry registry) {
		this.registry = Objects.requireNonNull(registry, "registry must not be null");
	}

	/**
	 * Adds an interceptor counting in the given registry to a client's HTTP client,
	 * unless it has one for that registry already.
	 * @param client the client; its HTTP client is replaced
	 * @param registry the registry
	 * @return the client
	 */
	public static ApiClient instrument(ApiClient client, MeterRegistry registry) {
		OkHttpClient http = client.getHttpClient();
		boolean instrumented = http.interceptors()
			.stream()
			.anyMatch((interceptor) -> interceptor instanceof RestClientMetricsInterceptor metrics
					&& metrics.registry == registry);
		if (!instrumented) {
			client.setHttpClient(http.newBuilder().addInterceptor(new RestClientMetricsInterceptor(registry)).build());
		}
		return client;
	}

	@Override
	public Response intercept(Chain chain) throws IOException {
		Request request = chain.request();
		String method = request.method();
		String host = hostAndPort(request.url());
		Response response;
		try {
			response = chain.proceed(request);
		}
		catch (IOException ex) {
			count(ERROR_CODE, method, host);
			throw ex;
		}
		count(Integer.toString(response.code()), method, host);
		return response;
	}

	private void count(String code, String method, String host) {
		this.counters.computeIfAbsent(new Key(code, method, host), this::register).increment();
	}

	private Counter register(Key key) {
		return Counter.builder("rest.client.requests")
			.description("Number of HTTP requests, partitioned by status code, method, and host")
			.tag("code", key.code())
			.tag("method", key.method())
			.tag("host", key.host())
			.register(this.registry);
	}

	private static String hostAndPort(HttpUrl url) {
		String host = url.host();
		// OkHttp drops the brackets of an IPv6 literal; a URL's host:port keeps them
		return (host.indexOf(':') >= 0) ? "[" + host + "]:" + url.port() : host + ":" + url.port();
	}

	private record Key(String code, String method, String host) {
	}

}
