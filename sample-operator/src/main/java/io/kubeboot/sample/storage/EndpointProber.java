package io.kubeboot.sample.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

import io.kubeboot.operator.leaderelection.LeaderElectionStatus;
import io.kubeboot.operator.manager.Manager;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Probes a bucket's health endpoint with an HTTP/1.1 {@code GET}: a 2xx or 3xx answer
 * means available, anything else (another status, no answer within the timeout, a refused
 * connection) means unavailable. Thread-safe: the controller's workers share it.
 * <p>
 * Whoever may create a StorageBucket chooses the URL, so before anything is sent the
 * endpoint's host is resolved and <em>every</em> address it resolves to is checked
 * against the {@link AddressPolicy}: link-local and cloud metadata addresses are never
 * probed, loopback and private ones only with
 * {@code sample.buckets.allow-private-endpoints=true}. A refused endpoint is an
 * unavailable probe with the reason {@link ProbeResult#NOT_ALLOWED}, and no connection is
 * opened.
 * <p>
 * The probe then connects to one of the addresses it checked, not to the host name: a
 * name whose DNS answer changes between the check and the connection (DNS rebinding, a
 * zero TTL) cannot slip another address in. That is why the request is written here on a
 * socket rather than through {@code java.net.http.HttpClient}, which resolves the name
 * again by itself and does not let a request set {@code Host}: the request names the
 * endpoint's host in its {@code Host} header, and TLS sends it as the server name and
 * verifies the certificate against it, as for any request to the URL. Only the status
 * line of the answer is read.
 * <p>
 * The user-info of the endpoint is not sent (nor was it by the JDK's client), and its
 * query string is sent to the endpoint only: what the probe reports names the endpoint
 * {@link Endpoints#redact redacted}.
 * <p>
 * Every request says which replica sent it in its {@code User-Agent}
 * ({@code sample-operator/<leader election identity>}), so the object store's access log
 * tells whether only the leader probes.
 */
@Component
class EndpointProber {

	private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.[01] (\\d{3})(?: .*)?");

	/** The longest status line read. */
	private static final int MAX_STATUS_LINE = 8192;

	private final String userAgent;

	private final AddressPolicy policy;

	private final Resolver resolver;

	private final SSLSocketFactory tls;

	@Autowired
	EndpointProber(Manager manager, BucketProperties properties) {
		this("sample-operator/" + replicaIdentity(manager), new AddressPolicy(properties.allowPrivateEndpoints()),
				InetAddress::getAllByName, (SSLSocketFactory) SSLSocketFactory.getDefault());
	}

	/**
	 * Creates a prober.
	 * @param userAgent the {@code User-Agent} of every request
	 * @param policy the addresses it may probe
	 * @param resolver how host names are resolved
	 * @param tls the sockets for https endpoints, with the trusted certificates
	 */
	EndpointProber(String userAgent, AddressPolicy policy, Resolver resolver, SSLSocketFactory tls) {
		this.userAgent = userAgent;
		this.policy = policy;
		this.resolver = resolver;
		this.tls = tls;
	}

	/**
	 * Probes an endpoint.
	 * @param endpoint the URL, from {@code spec.endpoint}
	 * @param timeout how long the whole request may take, connecting included
	 * @return what the probe found
	 * @throws InterruptedException if the thread was interrupted (the manager stops)
	 */
	ProbeResult probe(@Nullable String endpoint, Duration timeout) throws InterruptedException {
		long start = System.nanoTime();
		URI uri = Endpoints.parse(endpoint);
		if (uri == null) {
			// not repeated: it may carry credentials or a signature that cannot be
			// redacted
			return new ProbeResult(false, ProbeResult.INVALID,
					"spec.endpoint is not an absolute http or https URL with a host", Duration.ZERO);
		}
		String shown = Endpoints.redact(uri);
		String host = Endpoints.host(uri);
		if (AddressPolicy.isMetadataName(host)) {
			return notAllowed(shown, host + " is a cloud metadata service");
		}
		InetAddress[] addresses;
		try {
			addresses = this.resolver.resolve(host);
		}
		catch (UnknownHostException ex) {
			return new ProbeResult(false, ProbeResult.UNREACHABLE, "GET " + shown + " failed: unknown host",
					since(start));
		}
		Optional<String> refusal = refusal(host, addresses);
		if (refusal.isPresent()) {
			return notAllowed(shown, refusal.get());
		}
		long deadline = start + timeout.toNanos();
		try {
			int status = send(uri, addresses, deadline);
			if (status >= 200 && status < 400) {
				return new ProbeResult(true, ProbeResult.REACHABLE, "GET " + shown + " answered HTTP " + status,
						since(start));
			}
			return new ProbeResult(false, ProbeResult.ERROR,
					"GET " + shown + " answered HTTP " + status + ", expected 2xx or 3xx", since(start));
		}
		catch (SocketTimeoutException ex) {
			return new ProbeResult(false, ProbeResult.UNREACHABLE,
					"GET " + shown + " did not answer within " + seconds(timeout), since(start));
		}
		catch (IOException ex) {
			if (Thread.interrupted()) {
				// a blocked channel closes when its thread is interrupted
				throw new InterruptedException("Interrupted while probing " + shown);
			}
			return new ProbeResult(false, ProbeResult.UNREACHABLE, "GET " + shown + " failed: " + describe(ex),
					since(start));
		}
	}

	/**
	 * Why the addresses of a host may not be probed, if any of them may not: one refused
	 * address refuses the host, as the connection could go to any of them. The message
	 * does not say which address a name resolved to: whoever creates a bucket should not
	 * learn the cluster's DNS that way.
	 */
	private Optional<String> refusal(String host, InetAddress[] addresses) {
		boolean literal = host.contains(":") || host.chars().allMatch((c) -> c == '.' || Character.isDigit(c));
		// sorted, so that the message is the same from one probe to the next
		return Arrays.stream(addresses)
			.sorted(Comparator.comparing(InetAddress::getHostAddress))
			.map(this.policy::refusal)
			.filter(Objects::nonNull)
			.findFirst()
			.map((kind) -> (literal ? host + " is " : host + " resolves to ") + kind.description()
					+ (kind.allowedIfPrivateAllowed() ? " (sample.buckets.allow-private-endpoints is false)" : ""));
	}

	private static ProbeResult notAllowed(String shown, String reason) {
		return new ProbeResult(false, ProbeResult.NOT_ALLOWED, "GET " + shown + " not sent: " + reason, Duration.ZERO);
	}

	/**
	 * Connects to the first of the checked addresses that accepts, sends the request, and
	 * reads the status of the answer.
	 */
	private int send(URI uri, InetAddress[] addresses, long deadline) throws IOException {
		IOException failure = null;
		for (InetAddress address : addresses) {
			// a channel's socket: unlike a plain Socket, it gives up when its thread is
			// interrupted, so a stopping manager need not wait for the timeout
			SocketChannel channel = SocketChannel.open();
			try (Socket socket = channel.socket()) {
				try {
					socket.connect(new InetSocketAddress(address, Endpoints.port(uri)), remainingMillis(deadline));
				}
				catch (ConnectException | NoRouteToHostException ex) {
					failure = ex; // try the next address
					continue;
				}
				return exchange(uri, socket, deadline);
			}
		}
		throw (failure != null) ? failure : new UnknownHostException(Endpoints.host(uri));
	}

	private int exchange(URI uri, Socket connected, long deadline) throws IOException {
		Socket socket = connected;
		if (Endpoints.isHttps(uri)) {
			SSLSocket tls = (SSLSocket) this.tls.createSocket(connected, Endpoints.host(uri), Endpoints.port(uri),
					true);
			SSLParameters parameters = tls.getSSLParameters();
			// the certificate must name the endpoint's host, as for any https request
			parameters.setEndpointIdentificationAlgorithm("HTTPS");
			tls.setSSLParameters(parameters);
			tls.setSoTimeout(remainingMillis(deadline));
			tls.startHandshake();
			socket = tls;
		}
		OutputStream out = socket.getOutputStream();
		out.write(request(uri).getBytes(StandardCharsets.US_ASCII));
		out.flush();
		return status(socket, deadline);
	}

	private String request(URI uri) {
		URI ascii = URI.create(uri.toASCIIString());
		String target = (ascii.getRawPath() == null || ascii.getRawPath().isEmpty()) ? "/" : ascii.getRawPath();
		if (ascii.getRawQuery() != null) {
			target += "?" + ascii.getRawQuery();
		}
		String host = ascii.getHost() + ((ascii.getPort() != -1) ? ":" + ascii.getPort() : "");
		return "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: " + this.userAgent
				+ "\r\nAccept: */*\r\nConnection: close\r\n\r\n";
	}

	/**
	 * Reads the status line, each read bounded by what is left of the timeout.
	 */
	private static int status(Socket socket, long deadline) throws IOException {
		InputStream in = socket.getInputStream();
		StringBuilder line = new StringBuilder();
		while (line.length() < MAX_STATUS_LINE) {
			socket.setSoTimeout(remainingMillis(deadline));
			int next = in.read();
			if (next == -1) {
				throw new IOException("connection closed without an answer");
			}
			if (next == '\n') {
				break;
			}
			if (next != '\r') {
				line.append((char) next);
			}
		}
		Matcher matcher = STATUS_LINE.matcher(line);
		if (!matcher.matches()) {
			throw new IOException("the answer is not HTTP/1.x");
		}
		return Integer.parseInt(matcher.group(1));
	}

	private static int remainingMillis(long deadline) throws SocketTimeoutException {
		long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
		if (remaining <= 0) {
			throw new SocketTimeoutException();
		}
		return (int) Math.min(Integer.MAX_VALUE, remaining);
	}

	private static Duration since(long start) {
		return Duration.ofNanos(System.nanoTime() - start);
	}

	/**
	 * Says what a failure means, in lower case as the rest of the message.
	 */
	private static String describe(IOException failure) {
		if (failure instanceof ConnectException) {
			return "connection refused";
		}
		if (failure instanceof NoRouteToHostException) {
			return "no route to host";
		}
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
				return cause.getMessage();
			}
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

	/**
	 * Resolves a host name to its addresses, as {@link InetAddress#getAllByName} does.
	 */
	@FunctionalInterface
	interface Resolver {

		/**
		 * Resolves a host.
		 * @param host a host name or an address literal
		 * @return its addresses, at least one
		 * @throws UnknownHostException if it has none
		 */
		InetAddress[] resolve(String host) throws UnknownHostException;

	}

}
