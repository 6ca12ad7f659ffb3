package io.kubeboot.sample.storage;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link EndpointProber} against HTTP and HTTPS servers on 127.0.0.1, with host names
 * resolved by the test: what it refuses to send, what it sends where, and what it
 * reports.
 */
class EndpointProberTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final String USER_AGENT = "sample-operator/test";

	private final List<HttpExchange> requests = new CopyOnWriteArrayList<>();

	private final AtomicInteger status = new AtomicInteger(200);

	private final CountDownLatch release = new CountDownLatch(1);

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final AtomicInteger resolutions = new AtomicInteger();

	private HttpServer server;

	@AfterEach
	void stop() {
		this.release.countDown();
		if (this.server != null) {
			this.server.stop(0);
		}
		this.executor.shutdownNow();
	}

	@Test
	void refusesLoopbackUnlessPrivateEndpointsAreAllowedAndSendsNothing() throws Exception {
		int port = serve(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
		ProbeResult refused = prober(false, Map.of()).probe("http://127.0.0.1:" + port + "/bucket", TIMEOUT);
		assertThat(refused.available()).isFalse();
		assertThat(refused.reason()).isEqualTo("EndpointNotAllowed");
		assertThat(refused.message()).isEqualTo("GET http://127.0.0.1:" + port + "/bucket not sent: 127.0.0.1 is a "
				+ "loopback address (sample.buckets.allow-private-endpoints is false)");
		ProbeResult named = prober(false, Map.of("bucket.test", "127.0.0.1")).probe("http://bucket.test:" + port,
				TIMEOUT);
		assertThat(named.reason()).isEqualTo("EndpointNotAllowed");
		assertThat(named.message())
			.isEqualTo("GET http://bucket.test:" + port + " not sent: bucket.test resolves to a loopback address "
					+ "(sample.buckets.allow-private-endpoints is false)");
		assertThat(this.requests).isEmpty();
		ProbeResult allowed = prober(true, Map.of()).probe("http://127.0.0.1:" + port + "/bucket", TIMEOUT);
		assertThat(allowed.reason()).isEqualTo("EndpointReachable");
		assertThat(this.requests).hasSize(1);
	}

	@Test
	void aNameIsRefusedIfAnyOfItsAddressesIsLinkLocalEvenIfPrivateOnesAreAllowed() throws Exception {
		int port = serve(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
		// the first address is the test's server: a prober checking only the address it
		// connects to would send the request there
		ProbeResult result = prober(true, Map.of("rebind.test", "127.0.0.1,169.254.169.254"))
			.probe("http://rebind.test:" + port + "/bucket", TIMEOUT);
		assertThat(result.available()).isFalse();
		assertThat(result.reason()).isEqualTo("EndpointNotAllowed");
		assertThat(result.message()).isEqualTo("GET http://rebind.test:" + port
				+ "/bucket not sent: rebind.test resolves to a cloud metadata address");
		assertThat(this.requests).isEmpty();
	}

	@Test
	void cloudMetadataNamesAreRefusedBeforeTheyAreResolved() throws Exception {
		int port = serve(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
		ProbeResult result = prober(true, Map.of("metadata.google.internal", "127.0.0.1"))
			.probe("http://metadata.google.internal:" + port + "/computeMetadata/v1/?recursive=true", TIMEOUT);
		assertThat(result.reason()).isEqualTo("EndpointNotAllowed");
		assertThat(result.message()).isEqualTo("GET http://metadata.google.internal:" + port
				+ "/computeMetadata/v1/ not sent: metadata.google.internal is a cloud metadata service");
		assertThat(this.resolutions).hasValue(0);
		assertThat(this.requests).isEmpty();
	}

	@Test
	void connectsToTheAddressItCheckedNamingTheHostAndReportsTheEndpointRedacted() throws Exception {
		int port = serve(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
		// bucket.test resolves only through the prober's resolver, once: the request can
		// only have gone to the address that was checked
		ProbeResult result = prober(true, Map.of("bucket.test", "127.0.0.1"))
			.probe("http://user:hunter2@bucket.test:" + port + "/bucket?X-Amz-Signature=secret", TIMEOUT);
		assertThat(result.available()).isTrue();
		assertThat(result.reason()).isEqualTo("EndpointReachable");
		assertThat(result.message()).isEqualTo("GET http://bucket.test:" + port + "/bucket answered HTTP 200");
		assertThat(this.resolutions).hasValue(1);
		assertThat(this.requests).singleElement().satisfies((request) -> {
			assertThat(request.getRequestMethod()).isEqualTo("GET");
			// the signed query string goes to the endpoint, and there only
			assertThat(request.getRequestURI()).hasToString("/bucket?X-Amz-Signature=secret");
			assertThat(request.getRequestHeaders().getFirst("Host")).isEqualTo("bucket.test:" + port);
			assertThat(request.getRequestHeaders().getFirst("User-Agent")).isEqualTo(USER_AGENT);
			assertThat(request.getRequestHeaders()).doesNotContainKey("Authorization");
		});
	}

	@Test
	void reportsStatusesRefusalsAndTimeoutsWithoutTheQueryString() throws Exception {
		int port = serve(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
		EndpointProber prober = prober(true, Map.of());
		String url = "http://127.0.0.1:" + port;
		this.status.set(503);
		assertThat(prober.probe(url + "/bucket?sig=secret", TIMEOUT)).satisfies((result) -> {
			assertThat(result.reason()).isEqualTo("EndpointError");
			assertThat(result.message()).isEqualTo("GET " + url + "/bucket answered HTTP 503, expected 2xx or 3xx");
		});
		this.status.set(302);
		assertThat(prober.probe(url + "/bucket", TIMEOUT).available()).isTrue();
		assertThat(prober.probe(url + "/slow?sig=secret", Duration.ofMillis(300))).satisfies((result) -> {
			assertThat(result.reason()).isEqualTo("EndpointUnreachable");
			assertThat(result.message()).isEqualTo("GET " + url + "/slow did not answer within 300ms");
		});
		int closed = freePort();
		assertThat(prober.probe("http://127.0.0.1:" + closed + "/x?sig=secret", TIMEOUT)).satisfies((result) -> {
			assertThat(result.reason()).isEqualTo("EndpointUnreachable");
			assertThat(result.message()).isEqualTo("GET http://127.0.0.1:" + closed + "/x failed: connection refused");
		});
		assertThat(prober(true, Map.of()).probe("http://unknown.test/x?sig=secret", TIMEOUT).message())
			.isEqualTo("GET http://unknown.test/x failed: unknown host");
		assertThat(prober.probe("ftp://user:secret@host/x", TIMEOUT)).satisfies((result) -> {
			assertThat(result.reason()).isEqualTo("InvalidEndpoint");
			assertThat(result.message()).doesNotContain("secret");
		});
	}

	@Test
	void anInterruptedProbeStopsAtOnce() throws Exception {
		int port = serve(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
		EndpointProber prober = prober(true, Map.of());
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		Thread worker = new Thread(() -> {
			try {
				prober.probe("http://127.0.0.1:" + port + "/slow", Duration.ofSeconds(60));
			}
			catch (Throwable ex) {
				thrown.set(ex);
			}
		});
		worker.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.requests.isEmpty());
		// as the manager's graceful shutdown interrupts a reconcile that overruns
		worker.interrupt();
		worker.join(Duration.ofSeconds(10).toMillis());
		assertThat(worker.isAlive()).isFalse();
		assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
	}

	@Test
	void httpsVerifiesTheCertificateAgainstTheEndpointsHost(@TempDir Path directory) throws Exception {
		KeyStore keys = selfSigned(directory, "bucket.test");
		SSLContext server = SSLContext.getInstance("TLS");
		KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keyManagers.init(keys, "changeit".toCharArray());
		server.init(keyManagers.getKeyManagers(), null, null);
		HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		https.setHttpsConfigurator(new HttpsConfigurator(server));
		int port = serve(https);
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(keys);
		SSLContext client = SSLContext.getInstance("TLS");
		client.init(null, trust.getTrustManagers(), null);
		Map<String, String> names = Map.of("bucket.test", "127.0.0.1", "other.test", "127.0.0.1");
		EndpointProber prober = new EndpointProber(USER_AGENT, new AddressPolicy(true), resolver(names),
				client.getSocketFactory());

		ProbeResult named = prober.probe("https://bucket.test:" + port + "/bucket?sig=secret", TIMEOUT);
		assertThat(named.reason()).isEqualTo("EndpointReachable");
		assertThat(named.message()).isEqualTo("GET https://bucket.test:" + port + "/bucket answered HTTP 200");
		assertThat(this.requests).singleElement()
			.satisfies((request) -> assertThat(request.getRequestURI()).hasToString("/bucket?sig=secret"));

		// the same server, through a name its certificate does not carry
		ProbeResult other = prober.probe("https://other.test:" + port + "/bucket", TIMEOUT);
		assertThat(other.available()).isFalse();
		assertThat(other.reason()).isEqualTo("EndpointUnreachable");
		assertThat(other.message()).startsWith("GET https://other.test:" + port + "/bucket failed: ")
			.contains("other.test");
		assertThat(this.requests).hasSize(1);
	}

	private EndpointProber prober(boolean allowPrivate, Map<String, String> names) {
		return new EndpointProber(USER_AGENT, new AddressPolicy(allowPrivate), resolver(names),
				(SSLSocketFactory) SSLSocketFactory.getDefault());
	}

	/**
	 * Resolves the names given, and address literals; any other name is unknown: the
	 * tests look nothing up in DNS.
	 */
	private EndpointProber.Resolver resolver(Map<String, String> names) {
		return (host) -> {
			this.resolutions.incrementAndGet();
			String addresses = names.get(host);
			if (addresses == null) {
				if (host.contains(":") || host.chars().allMatch((c) -> c == '.' || Character.isDigit(c))) {
					return new InetAddress[] { InetAddress.getByName(host) };
				}
				throw new UnknownHostException(host);
			}
			String[] literals = addresses.split(",");
			InetAddress[] resolved = new InetAddress[literals.length];
			for (int i = 0; i < literals.length; i++) {
				resolved[i] = InetAddress.getByAddress(host, InetAddress.getByName(literals[i]).getAddress());
			}
			return resolved;
		};
	}

	private int serve(HttpServer server) {
		server.createContext("/", (exchange) -> {
			this.requests.add(exchange);
			if (exchange.getRequestURI().getPath().startsWith("/slow")) {
				try {
					this.release.await(60, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			exchange.sendResponseHeaders(this.status.get(), -1);
			exchange.close();
		});
		server.setExecutor(this.executor);
		server.start();
		this.server = server;
		return server.getAddress().getPort();
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			return socket.getLocalPort();
		}
	}

	/**
	 * A key pair and a self-signed certificate for one DNS name, made by the JDK's
	 * keytool.
	 */
	private static KeyStore selfSigned(Path directory, String name) throws Exception {
		Path file = directory.resolve("keystore.p12");
		Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
				"-genkeypair", "-alias", "bucket", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
				"-ext", "SAN=dns:" + name, "-validity", "2", "-storetype", "PKCS12", "-keystore", file.toString(),
				"-storepass", "changeit", "-keypass", "changeit")
			.redirectErrorStream(true)
			.start();
		String output = new String(keytool.getInputStream().readAllBytes());
		assertThat(keytool.waitFor()).as(output).isZero();
		assertThat(Files.exists(file)).isTrue();
		KeyStore keys = KeyStore.getInstance("PKCS12");
		try (InputStream in = new FileInputStream(file.toFile())) {
			keys.load(in, "changeit".toCharArray());
		}
		return keys;
	}

}
