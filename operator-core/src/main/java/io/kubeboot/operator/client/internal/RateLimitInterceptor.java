package io.kubeboot.operator.client.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Holds every request of a client back to an average rate with a burst, as client-go's
 * REST client does with its token bucket. A watch counts once, for the request that opens
 * it: what it streams afterwards is not limited. A thread interrupted while it waits
 * abandons the request with an {@link InterruptedIOException}, keeping its interrupt
 * status.
 */
public final class RateLimitInterceptor implements Interceptor {

	private final TokenBucket bucket;

	RateLimitInterceptor(TokenBucket bucket) {
		this.bucket = bucket;
	}

	/**
	 * Returns a client that talks to the same server with the same credentials and HTTP
	 * settings, holding its requests, and those of every client derived from it, to one
	 * shared rate.
	 * @param client the client; it is not modified
	 * @param qps requests per second on average, positive
	 * @param burst requests sent at once above that rate, at least 1
	 * @return the limited client
	 */
	public static ApiClient limit(ApiClient client, double qps, int burst) {
		RateLimitInterceptor interceptor = new RateLimitInterceptor(new TokenBucket(qps, burst, System::nanoTime));
		return new DelegatingAuthApiClient(client, (builder) -> builder.addInterceptor(interceptor));
	}

	@Override
	public Response intercept(Chain chain) throws IOException {
		long wait = this.bucket.reserve();
		if (wait > 0) {
			try {
				TimeUnit.NANOSECONDS.sleep(wait);
			}
			catch (InterruptedException ex) {
				this.bucket.giveBack();
				Thread.currentThread().interrupt();
				InterruptedIOException abandoned = new InterruptedIOException(
						"interrupted while waiting for the client-side rate limit");
				abandoned.initCause(ex);
				throw abandoned;
			}
		}
		return chain.proceed(chain.request());
	}

}
