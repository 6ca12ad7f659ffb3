package io.kubeboot.sample.storage;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;

import io.kubeboot.operator.leaderelection.LeaderElectionStatus;
import io.kubeboot.operator.manager.Manager;
import org.springframework.stereotype.Component;

/**
 * Probes a bucket's health endpoint with an HTTP {@code GET}: a 2xx or 3xx answer means
 * available, anything else (another status, no answer within the timeout, a refused
 * connection) means unavailable. Thread-safe: the controller's workers share it.
 * <p>
 * Every request says which replica sent it in its {@code User-Agent}
 * ({@code sample-operator/<leader election identity>}), so the object store's access log
 * tells whether only the leader probes.
 */
@Component
class EndpointProber {

	private final HttpClient http;

	private final String userAgent;

	EndpointProber(Manager manager) {
		// Redirects are not followed: a 3xx answer already proves the endpoint is there.
		// HTTP/1.1 avoids the h2c upgrade headers that some health endpoints mishandle.
		this.http = HttpClient.newBuilder()
			.followRedirects(HttpClient.Redirect.NEVER)
			.version(HttpClient.Version.HTTP_1_1)
			.build();
		this.userAgent = "sample-operator/" + replicaIdentity(manager);
	}

	/**
	 * Probes an endpoint.
	 * @param endpoint the URL, from {@code spec.endpoint}
	 * @param timeout how long the whole request may take, connecting included
	 * @return what the probe found
	 * @throws InterruptedException if the thread was interrupted (the manager stops)
	 */
	ProbeResult probe(String endpoint, Duration timeout) throws InterruptedException {
		long start = System.nanoTime();
		URI uri = httpUri(endpoint);
		if (uri == null) {
			return new ProbeResult(false, ProbeResult.INVALID,
					"spec.endpoint '" + endpoint + "' is not an absolute http or https URL", Duration.ZERO);
		}
		HttpRequest request = HttpRequest.newBuilder(uri)
			.GET()
			.timeout(timeout) // bounds the whole exchange, connecting included
			.header("User-Agent", this.userAgent)
			.build();
		try {
			int status = this.http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			if (status >= 200 && status < 400) {
				return new ProbeResult(true, ProbeResult.REACHABLE, "GET " + uri + " answered HTTP " + status, took);
			}
			return new ProbeResult(false, ProbeResult.ERROR,
					"GET " + uri + " answered HTTP " + status + ", expected 2xx or 3xx", took);
		}
		catch (HttpTimeoutException ex) {
			return new ProbeResult(false, ProbeResult.UNREACHABLE,
					"GET " + uri + " did not answer within " + seconds(timeout),
					Duration.ofNanos(System.nanoTime() - start));
		}
		catch (IOException ex) {
			return new ProbeResult(false, ProbeResult.UNREACHABLE, "GET " + uri + " failed: " + describe(ex),
					Duration.ofNanos(System.nanoTime() - start));
		}
	}

	private static URI httpUri(String endpoint) {
		if (endpoint == null) {
			return null;
		}
		try {
			URI uri = new URI(endpoint);
			boolean http = "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
			return (http && uri.getHost() != null) ? uri : null;
		}
		catch (URISyntaxException ex) {
			return null;
		}
	}

	/**
	 * The JDK's HTTP client often throws a {@code ConnectException} without any message;
	 * say what it means.
	 */
	private static String describe(IOException failure) {
		Throwable root = failure;
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
				return cause.getMessage();
			}
			root = cause;
		}
		if (root instanceof UnresolvedAddressException) {
			return "unknown host";
		}
		if (failure instanceof ConnectException) {
			return "connection refused";
		}
		return failure.getClass().getSimpleName();
	}

	private static String seconds(Duration timeout) {
		return (timeout.toMillis() % 1000 == 0) ? timeout.toSeconds() + "s" : timeout.toMillis() + "ms";
	}

	/**
	 * This replica's name: its leader election identity (by default the host name, which
	 * is the pod's name, plus a random suffix), else the host name.
	 */
	private static String replicaIdentity(Manager manager) {
		LeaderElectionStatus elector = manager.leaderElection();
		if (elector != null) {
			return elector.config().identity();
		}
		String hostName = System.getenv("HOSTNAME");
		if (hostName != null && !hostName.isBlank()) {
			return hostName;
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "unknown";
		}
	}

}
