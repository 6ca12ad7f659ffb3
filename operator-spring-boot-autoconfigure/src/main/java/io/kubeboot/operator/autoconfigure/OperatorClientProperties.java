package io.kubeboot.operator.autoconfigure;

import java.time.Duration;

import io.kubeboot.operator.client.ClientConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Requests of the manager's client and caches to the API server: a client-side rate
 * limit, client-go's token bucket. Off by default, as in controller-runtime: the API
 * server's priority and fairness throttles with 429 answers, which are retried after
 * their Retry-After. The values follow the rules of {@link ClientConfig}.
 */
@ConfigurationProperties(prefix = "operator.client", ignoreUnknownFields = false)
public class OperatorClientProperties {

	/**
	 * Requests per second the client and the caches may send on average; 0 for no
	 * client-side limit. The request opening a watch counts, not what the watch streams;
	 * Lease requests are never held back.
	 */
	private double qps = 0;

	/**
	 * Requests that may be sent at once above qps.
	 */
	private int burst = 10;

	/**
	 * The longest one call of the client may take, retries of throttled calls included.
	 */
	private Duration timeout = Duration.ofSeconds(30);

	public double getQps() {
		return this.qps;
	}

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	public void setQps(double qps) {
		this.qps = qps;
	}

	public int getBurst() {
		return this.burst;
	}

	public void setBurst(int burst) {
		this.burst = burst;
	}

}
