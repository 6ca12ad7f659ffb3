package io.kubeboot.operator.test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real, local Kubernetes control plane: one {@code etcd} and one {@code kube-apiserver}
 * (the newest installed version unless {@value #VERSION_PROPERTY} names one) running as
 * child processes of the JVM, like controller-runtime's {@code envtest}.
 * <p>
 * Contract:
 * <ul>
 * <li>Everything listens on {@code 127.0.0.1} only, on free ports picked at start.</li>
 * <li>A throw-away CA signs the API server's serving certificate (SANs
 * {@code IP:127.0.0.1}, {@code DNS:localhost}); clients created here trust that CA and
 * verify host names.</li>
 * <li>Authentication is by bearer token ({@code --token-auth-file}) with random tokens
 * for {@value #ADMIN} (group {@code system:masters}) and the unprivileged users
 * {@code user1}, {@code user2} and {@code user3} (no groups besides
 * {@code system:authenticated}); authorization is RBAC.</li>
 * <li>No controller-manager, scheduler or kubelet runs, and the {@code ServiceAccount}
 * admission plugin is disabled: namespaces are never finalized, pods never run, no
 * service account tokens are created.</li>
 * <li>The processes' output goes to {@code etcd.log} and {@code kube-apiserver.log} in
 * {@link #workDir()}, never to the test's output. Start failures throw a
 * {@link ControlPlaneException} carrying the last lines of the relevant log.</li>
 * <li>{@link #close()} stops both processes and deletes {@link #workDir()}, unless the
 * environment variable or system property {@value #KEEP_PROPERTY} is {@code true}. A JVM
 * shutdown hook kills ({@code SIGKILL}) any process still alive when the JVM exits (after
 * the {@link Builder#exitGrace(Duration) exit grace}, zero by default) and deletes the
 * work directory; on Linux a watchdog process does both for a JVM that ends without
 * running its shutdown hooks, and a control plane starting later deletes the work
 * directories of JVMs that are gone.</li>
 * </ul>
 * The instance is thread-safe; the fault-control methods ({@link #stopApiServer()},
 * {@link #killApiServer()}, {@link #startApiServer()}, {@link #restartApiServer()}) block
 * until the API server is down, or up and ready, respectively.
 *
 * @see ControlPlaneExtension
 */
public final class ControlPlane implements AutoCloseable {

	/**
	 * The privileged user, member of {@code system:masters}.
	 */
	public static final String ADMIN = "admin";

	/**
	 * The unprivileged users (no groups, hence no permissions until RBAC grants some).
	 */
	public static final List<String> UNPRIVILEGED_USERS = List.of("user1", "user2", "user3");

	/**
	 * Environment variable (or system property) that, when {@code true}, keeps
	 * {@link #workDir()} after {@link #close()} for inspection.
	 */
	public static final String KEEP_PROPERTY = "OPERATOR_TEST_KEEP_CONTROL_PLANE";

	/**
	 * Environment variable (or system property) naming the Kubernetes version to start
	 * when none is {@link Builder#kubernetesVersion(String) asked for}: a release or a
	 * prefix of one, such as {@code 1.34}. Unset: the newest installed.
	 */
	public static final String VERSION_PROPERTY = "OPERATOR_TEST_KUBERNETES_VERSION";

	/**
	 * The default time allowed for starting etcd and the API server until ready.
	 */
	public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);

	private static final Logger logger = LoggerFactory.getLogger(ControlPlane.class);

	private static final String SERVICE_ACCOUNT_ISSUER = "https://kubernetes.default.svc.cluster.local";

	private static final String CLUSTER_NAME = "kubeboot-test";

	private static final Pattern GIT_VERSION = Pattern.compile("\"gitVersion\"\\s*:\\s*\"([^\"]+)\"");

	private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

	private static final Duration STOP_GRACE = Duration.ofSeconds(15);

	private static final int LOG_LINES = 40;

	private static final int START_ATTEMPTS = 3;

	private final ControlPlaneBinaries binaries;

	private final KubernetesVersion binaryVersion;

	private volatile KubernetesVersion version;

	private final Builder options;

	private final Path workDir;

	private final boolean keepWorkDir;

	private final Map<String, String> tokens = new LinkedHashMap<>();

	private final ManagedProcess etcd;

	private final ManagedProcess apiServer;

	private final List<ManagedProcess> additionalApiServers = new ArrayList<>();

	private final Runnable workDirCleanup;

	private Pki pki;

	private HttpClient probeClient;

	private boolean etcdNoFsync = true;

	private int etcdClientPort;

	private int etcdPeerPort;

	private int apiServerPort;

	private String lastProbeFailure;

	private volatile boolean closed;

	private ControlPlane(Builder options) throws IOException {
		this.options = options;
		// a binary directory given explicitly is checked against a version asked for
		// explicitly only, never against the run's default
		this.binaries = (options.binaryDirectory != null)
				? ControlPlaneBinaries.in(options.binaryDirectory, options.kubernetesVersion) : ControlPlaneBinaries
					.locate((options.kubernetesVersion != null) ? options.kubernetesVersion : versionByDefault());
		// the flags an API server accepts depend on its version
		this.binaryVersion = ControlPlaneBinaries.versionOf(this.binaries.kubeApiServer());
		this.version = this.binaryVersion;
		this.keepWorkDir = (options.keepWorkDir != null) ? options.keepWorkDir : keepByDefault();
		Path temporaryDirectory = Path.of(System.getProperty("java.io.tmpdir"));
		WorkDirectories.deleteAbandoned(temporaryDirectory);
		this.workDir = Files.createTempDirectory(temporaryDirectory, WorkDirectories.PREFIX).toRealPath();
		this.workDirCleanup = () -> {
			if (!this.keepWorkDir) {
				deleteRecursively(this.workDir);
			}
		};
		ProcessReaper.registerCleanup(this.workDirCleanup);
		if (!this.keepWorkDir) {
			WorkDirectories.claim(this.workDir);
			ProcessReaper.registerWorkDir(this.workDir);
		}
		this.etcd = new ManagedProcess("etcd", this.workDir.resolve("etcd.log"), options.exitGrace);
		this.apiServer = new ManagedProcess("kube-apiserver", this.workDir.resolve("kube-apiserver.log"),
				options.exitGrace);
	}

	/**
	 * Starts a control plane with the default options.
	 * @return the running control plane, ready to serve requests
	 * @throws ControlPlaneException if the binaries cannot be found (the message says
	 * where they were looked for and how to install them) or the control plane does not
	 * get ready in time
	 */
	public static ControlPlane start() {
		return builder().start();
	}

	/**
	 * Returns a builder for a control plane with non-default options.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	private static ControlPlane start(Builder options) {
		ControlPlane controlPlane;
		try {
			controlPlane = new ControlPlane(options);
		}
		catch (IOException ex) {
			throw new ControlPlaneException("Cannot create the control plane's work directory", ex);
		}
		try {
			controlPlane.bootstrap();
			return controlPlane;
		}
		catch (RuntimeException | Error ex) {
			try {
				controlPlane.close();
			}
			catch (RuntimeException closeFailure) {
				ex.addSuppressed(closeFailure);
			}
			throw ex;
		}
	}

	private synchronized void bootstrap() throws ControlPlaneException {
		long started = System.nanoTime();
		long deadline = started + this.options.startTimeout.toNanos();
		this.pki = Pki.generate(this.workDir.resolve("pki"));
		this.probeClient = createProbeClient(this.pki.caCertificatePem());
		writeTokens();
		startEtcd(deadline);
		startApiServerInitially(deadline);
		for (String user : users()) {
			writeKubeconfig(user);
		}
		this.version = readVersion(apiServerUrl());
		logger.info(
				"Started local control plane (Kubernetes {}; etcd {}, kube-apiserver {}) in {} ms from {}; "
						+ "work directory {}",
				this.version, etcdEndpoint(), apiServerUrl(), Duration.ofNanos(System.nanoTime() - started).toMillis(),
				this.binaries.directory(), this.workDir);
	}

	/**
	 * Returns the API server's base URL, {@code https://127.0.0.1:<port>}. The port stays
	 * the same across {@link #restartApiServer() restarts}.
	 * @return the API server URL
	 */
	public URI apiServerUrl() {
		return URI.create("https://127.0.0.1:" + this.apiServerPort);
	}

	/**
	 * Returns the API server's version, as its {@code /version} endpoint reports it.
	 * @return the Kubernetes version
	 */
	public KubernetesVersion kubernetesVersion() {
		return this.version;
	}

	/**
	 * Returns the directory the {@code etcd} and {@code kube-apiserver} executables were
	 * taken from.
	 * @return the binary directory
	 */
	public Path binaryDirectory() {
		return this.binaries.directory();
	}

	/**
	 * Returns etcd's client URL, {@code http://127.0.0.1:<port>} (plain HTTP, no
	 * authentication).
	 * @return the etcd endpoint
	 */
	public String etcdEndpoint() {
		return "http://127.0.0.1:" + this.etcdClientPort;
	}

	/**
	 * Returns the directory holding the certificates, the token file, the kubeconfig
	 * files, etcd's data and the process logs.
	 * @return the work directory
	 */
	public Path workDir() {
		return this.workDir;
	}

	/**
	 * Returns the users that can authenticate: {@value #ADMIN} followed by
	 * {@link #UNPRIVILEGED_USERS}.
	 * @return the user names
	 */
	public Set<String> users() {
		return Collections.unmodifiableSet(this.tokens.keySet());
	}

	/**
	 * Returns the bearer token of a user.
	 * @param user one of {@link #users()}
	 * @return the token
	 * @throws IllegalArgumentException if the user is unknown
	 */
	public String token(String user) {
		String token = this.tokens.get(user);
		if (token == null) {
			throw new IllegalArgumentException("Unknown user '" + user + "'; known users: " + this.tokens.keySet());
		}
		return token;
	}

	/**
	 * Returns a kubeconfig file for {@value #ADMIN}, with the CA certificate embedded
	 * ({@code certificate-authority-data}) and the token inline.
	 * @return the kubeconfig file
	 */
	public Path kubeconfig() {
		return kubeconfigFor(ADMIN);
	}

	/**
	 * Returns a kubeconfig file for a user, with the CA certificate embedded and the
	 * user's token inline.
	 * @param user one of {@link #users()}
	 * @return the kubeconfig file
	 * @throws IllegalArgumentException if the user is unknown
	 */
	public Path kubeconfigFor(String user) {
		token(user);
		return this.workDir.resolve("kubeconfig-" + user + ".yaml");
	}

	/**
	 * Returns a new client authenticated as {@value #ADMIN}.
	 * @return a new client
	 * @see #clientFor(String)
	 */
	public ApiClient adminClient() {
		return clientFor(ADMIN);
	}

	/**
	 * Returns a new client authenticated as the given user. The client trusts the control
	 * plane's CA only and verifies host names. Its read timeout is {@code 0} (none), as
	 * watches and informers need; its connect timeout is client-java's default (10 s).
	 * Each call returns a new client, so callers may reconfigure it freely.
	 * @param user one of {@link #users()}
	 * @return a new client
	 * @throws IllegalArgumentException if the user is unknown
	 */
	public ApiClient clientFor(String user) {
		return clientFor(user, apiServerUrl());
	}

	/**
	 * Returns a new client authenticated as the given user that talks to the given API
	 * server of this control plane, such as one started by
	 * {@link #startAdditionalApiServer()}; otherwise as {@link #clientFor(String)}.
	 * @param user one of {@link #users()}
	 * @param server the API server's base URL
	 * @return a new client
	 * @throws IllegalArgumentException if the user is unknown
	 */
	public ApiClient clientFor(String user, URI server) {
		String token = token(user);
		return new ClientBuilder().setBasePath(server.toString())
			.setAuthentication(new AccessTokenAuthentication(token))
			.setCertificateAuthority(this.pki.caCertificatePem())
			.setVerifyingSsl(true)
			.setReadTimeout(Duration.ZERO)
			.build();
	}

	/**
	 * Returns whether the API server process is alive (not whether it is ready).
	 * @return whether the API server is running
	 */
	public boolean isApiServerRunning() {
		return this.apiServer.isAlive();
	}

	/**
	 * Stops the API server gracefully: {@code SIGTERM}, then {@code SIGKILL} if it has
	 * not exited within 15 seconds. Does nothing if it is not running. etcd keeps
	 * running.
	 */
	public synchronized void stopApiServer() {
		assertOpen();
		this.apiServer.stop(STOP_GRACE);
	}

	/**
	 * Kills the API server with {@code SIGKILL}, simulating a crash, and waits until the
	 * process is gone. Does nothing if it is not running. etcd keeps running.
	 */
	public synchronized void killApiServer() {
		assertOpen();
		this.apiServer.kill();
	}

	/**
	 * Starts the API server again, on the same port, with the same certificates, tokens
	 * and etcd, and waits until it is ready (within the start timeout).
	 * @throws IllegalStateException if it is already running
	 * @throws ControlPlaneException if it does not get ready in time
	 */
	public synchronized void startApiServer() {
		assertOpen();
		long deadline = System.nanoTime() + this.options.startTimeout.toNanos();
		this.apiServer.start(apiServerCommand(), this.workDir);
		awaitReady(this.apiServer, deadline, this::probeApiServer);
	}

	/**
	 * {@link #stopApiServer() Stops} the API server gracefully and
	 * {@link #startApiServer() starts} it again, waiting until it is ready.
	 */
	public synchronized void restartApiServer() {
		stopApiServer();
		startApiServer();
	}

	/**
	 * Starts one more API server on the same etcd, with the same certificates and tokens
	 * but its own port, as in a control plane with several API servers. While
	 * {@link #stopApiServer()} has the main one down, objects can still be changed
	 * through this one: the outage of the API server an operator talks to, with the
	 * cluster going on. It stops with {@link #close()}.
	 * @return the base URL of the new API server, {@code https://127.0.0.1:<port>}
	 * @throws ControlPlaneException if it does not get ready within the start timeout
	 */
	public synchronized URI startAdditionalApiServer() {
		assertOpen();
		int index = this.additionalApiServers.size() + 1;
		ManagedProcess process = new ManagedProcess("kube-apiserver-" + index,
				this.workDir.resolve("kube-apiserver-" + index + ".log"), this.options.exitGrace);
		long deadline = System.nanoTime() + this.options.startTimeout.toNanos();
		for (int attempt = 1;; attempt++) {
			int port = freePorts(1)[0];
			URI url = URI.create("https://127.0.0.1:" + port);
			process.start(apiServerCommand(port, "apiserver-certs-" + index), this.workDir);
			this.additionalApiServers.add(process);
			try {
				awaitReady(process, deadline, () -> probeApiServer(url));
				return url;
			}
			catch (ProcessExitedException ex) {
				this.additionalApiServers.remove(process);
				if (attempt >= START_ATTEMPTS || !process.logTail(LOG_LINES).contains("address already in use")) {
					throw ex;
				}
			}
		}
	}

	/**
	 * Returns whether {@link #close()} was called.
	 * @return whether this control plane is closed
	 */
	public boolean isClosed() {
		return this.closed;
	}

	/**
	 * Stops the API server and etcd (gracefully, then forcibly) and deletes
	 * {@link #workDir()} unless {@value #KEEP_PROPERTY} is {@code true}. Calling it again
	 * has no effect.
	 */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			for (ManagedProcess additional : this.additionalApiServers) {
				additional.stop(STOP_GRACE);
			}
			this.apiServer.stop(STOP_GRACE);
		}
		finally {
			try {
				this.etcd.stop(STOP_GRACE);
			}
			finally {
				ProcessReaper.unregisterCleanup(this.workDirCleanup);
				logger.debug("Stopped local control plane {}", apiServerUrl());
				if (this.keepWorkDir) {
					logger.info("Kept the control plane's work directory {}", this.workDir);
				}
				else {
					deleteRecursively(this.workDir);
					ProcessReaper.unregisterWorkDir(this.workDir);
				}
			}
		}
	}

	@Override
	public String toString() {
		return "ControlPlane[apiServer=" + apiServerUrl() + ", etcd=" + etcdEndpoint() + ", workDir=" + this.workDir
				+ (this.closed ? ", closed" : "") + "]";
	}

	private void assertOpen() {
		if (this.closed) {
			throw new IllegalStateException("The control plane is closed");
		}
	}

	private void writeTokens() {
		SecureRandom random = new SecureRandom();
		StringBuilder file = new StringBuilder();
		for (String user : allUsers()) {
			byte[] bytes = new byte[24];
			random.nextBytes(bytes);
			String token = HexFormat.of().formatHex(bytes);
			this.tokens.put(user, token);
			file.append(token).append(',').append(user).append(',').append(user);
			if (ADMIN.equals(user)) {
				file.append(",\"system:masters\"");
			}
			file.append('\n');
		}
		write(tokenFile(), file.toString());
	}

	private static List<String> allUsers() {
		List<String> users = new ArrayList<>();
		users.add(ADMIN);
		users.addAll(UNPRIVILEGED_USERS);
		return users;
	}

	private Path tokenFile() {
		return this.workDir.resolve("tokens.csv");
	}

	private void writeKubeconfig(String user) {
		String ca = Base64.getEncoder().encodeToString(this.pki.caCertificatePem());
		String context = user + "@" + CLUSTER_NAME;
		String yaml = """
				apiVersion: v1
				kind: Config
				clusters:
				- name: %s
				  cluster:
				    server: %s
				    certificate-authority-data: %s
				users:
				- name: %s
				  user:
				    token: %s
				contexts:
				- name: %s
				  context:
				    cluster: %s
				    user: %s
				current-context: %s
				preferences: {}
				""".formatted(CLUSTER_NAME, apiServerUrl(), ca, user, token(user), context, CLUSTER_NAME, user,
				context);
		write(kubeconfigFor(user), yaml);
	}

	private static void write(Path file, String content) {
		try {
			Files.writeString(file, content, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new ControlPlaneException("Cannot write " + file, ex);
		}
	}

	private void startEtcd(long deadline) {
		for (int attempt = 1;; attempt++) {
			int[] ports = freePorts(2);
			this.etcdClientPort = ports[0];
			this.etcdPeerPort = ports[1];
			this.etcd.start(etcdCommand(), this.workDir);
			try {
				awaitReady(this.etcd, deadline, this::probeEtcd);
				return;
			}
			catch (ProcessExitedException ex) {
				String log = this.etcd.logTail(LOG_LINES);
				if (this.etcdNoFsync && log.contains("unsafe-no-fsync")) {
					// an etcd older than 3.4.14 does not know the flag
					this.etcdNoFsync = false;
				}
				else if (attempt >= START_ATTEMPTS || !log.contains("address already in use")) {
					throw ex;
				}
				deleteRecursively(etcdDataDir());
			}
		}
	}

	private Path etcdDataDir() {
		return this.workDir.resolve("etcd-data");
	}

	private List<String> etcdCommand() {
		String peerUrl = "http://127.0.0.1:" + this.etcdPeerPort;
		Map<String, String> flags = new LinkedHashMap<>();
		flag(flags, "--name=" + CLUSTER_NAME);
		flag(flags, "--data-dir=" + etcdDataDir());
		flag(flags, "--listen-client-urls=" + etcdEndpoint());
		flag(flags, "--advertise-client-urls=" + etcdEndpoint());
		flag(flags, "--listen-peer-urls=" + peerUrl);
		flag(flags, "--initial-advertise-peer-urls=" + peerUrl);
		flag(flags, "--initial-cluster=" + CLUSTER_NAME + "=" + peerUrl);
		flag(flags, "--initial-cluster-state=new");
		flag(flags, "--logger=zap");
		if (this.etcdNoFsync) {
			flag(flags, "--unsafe-no-fsync=true");
		}
		this.options.etcdFlags.forEach((extra) -> flag(flags, extra));
		return command(this.binaries.etcd(), flags);
	}

	private void startApiServerInitially(long deadline) {
		for (int attempt = 1;; attempt++) {
			this.apiServerPort = freePorts(1)[0];
			this.apiServer.start(apiServerCommand(), this.workDir);
			try {
				awaitReady(this.apiServer, deadline, this::probeApiServer);
				return;
			}
			catch (ProcessExitedException ex) {
				if (attempt >= START_ATTEMPTS
						|| !this.apiServer.logTail(LOG_LINES).contains("address already in use")) {
					throw ex;
				}
			}
		}
	}

	private List<String> apiServerCommand() {
		return apiServerCommand(this.apiServerPort, "apiserver-certs");
	}

	private List<String> apiServerCommand(int port, String certDirectory) {
		Map<String, String> flags = new LinkedHashMap<>();
		flag(flags, "--etcd-servers=" + etcdEndpoint());
		flag(flags, "--cert-dir=" + this.workDir.resolve(certDirectory));
		flag(flags, "--bind-address=127.0.0.1");
		flag(flags, "--secure-port=" + port);
		flag(flags, "--advertise-address=127.0.0.1");
		// no endpoints for the kubernetes Service: newer versions refuse a loopback
		// address there, and no test reaches the API server through that Service
		flag(flags, "--endpoint-reconciler-type=none");
		if (!this.binaryVersion.isAtLeast(1, 24)) {
			// removed in 1.24, where no insecure port is served any more
			flag(flags, "--insecure-port=0");
		}
		flag(flags, "--tls-cert-file=" + this.pki.servingCertificate());
		flag(flags, "--tls-private-key-file=" + this.pki.servingKey());
		flag(flags, "--client-ca-file=" + this.pki.caCertificate());
		flag(flags, "--token-auth-file=" + tokenFile());
		flag(flags, "--authorization-mode=RBAC");
		flag(flags, "--service-account-issuer=" + SERVICE_ACCOUNT_ISSUER);
		flag(flags, "--service-account-key-file=" + this.pki.serviceAccountPublicKey());
		flag(flags, "--service-account-signing-key-file=" + this.pki.serviceAccountKey());
		flag(flags, "--service-cluster-ip-range=10.0.0.0/24");
		flag(flags, "--allow-privileged=true");
		flag(flags, "--disable-admission-plugins=ServiceAccount");
		this.options.apiServerFlags.forEach((extra) -> flag(flags, extra));
		return command(this.binaries.kubeApiServer(), flags);
	}

	private static void flag(Map<String, String> flags, String flag) {
		int equals = flag.indexOf('=');
		flags.put((equals < 0) ? flag : flag.substring(0, equals), flag);
	}

	private static List<String> command(Path executable, Map<String, String> flags) {
		List<String> command = new ArrayList<>();
		command.add(executable.toString());
		command.addAll(flags.values());
		return command;
	}

	private String probeEtcd() {
		HttpResponse<String> response = get(URI.create(etcdEndpoint() + "/health"), null);
		if (response != null && response.statusCode() == 200 && response.body().contains("true")) {
			return null;
		}
		return describe("/health", response);
	}

	private String probeApiServer() {
		return probeApiServer(apiServerUrl());
	}

	private String probeApiServer(URI server) {
		String token = token(ADMIN);
		HttpResponse<String> readyz = get(server.resolve("/readyz"), token);
		if (readyz == null || readyz.statusCode() != 200) {
			return describe("/readyz", readyz);
		}
		HttpResponse<String> namespace = get(server.resolve("/api/v1/namespaces/default"), token);
		if (namespace == null || namespace.statusCode() != 200) {
			return describe("namespace 'default'", namespace);
		}
		return null;
	}

	private HttpResponse<String> get(URI uri, String token) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(PROBE_TIMEOUT).GET();
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		try {
			return this.probeClient.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			this.lastProbeFailure = ex.toString();
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ControlPlaneException("Interrupted while waiting for the control plane", ex);
		}
	}

	private String describe(String what, HttpResponse<String> response) {
		if (response == null) {
			return what + ": " + this.lastProbeFailure;
		}
		String body = response.body().strip();
		if (body.length() > 2000) {
			body = body.substring(0, 2000) + "...";
		}
		return what + " answered " + response.statusCode() + ": " + body;
	}

	private void awaitReady(ManagedProcess process, long deadline, Probe probe) {
		long started = System.nanoTime();
		String state = "not probed yet";
		while (true) {
			if (!process.isAlive()) {
				throw new ProcessExitedException(process.exitDescription() + " while starting (waited "
						+ Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms)\n"
						+ process.logTail(LOG_LINES));
			}
			state = probe.check();
			if (state == null) {
				logger.debug("{} ready after {} ms", process.name(),
						Duration.ofNanos(System.nanoTime() - started).toMillis());
				return;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new ControlPlaneException(process.name() + " did not get ready within the start timeout of "
						+ this.options.startTimeout.toSeconds() + " s; last probe: " + state + "\n"
						+ process.logTail(LOG_LINES));
			}
			try {
				Thread.sleep(POLL_INTERVAL.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new ControlPlaneException("Interrupted while waiting for " + process.name(), ex);
			}
		}
	}

	private static HttpClient createProbeClient(byte[] caPem) {
		try (InputStream in = new ByteArrayInputStream(caPem)) {
			Certificate ca = CertificateFactory.getInstance("X.509").generateCertificate(in);
			KeyStore trustStore = KeyStore.getInstance(KeyStore.getDefaultType());
			trustStore.load(null, null);
			trustStore.setCertificateEntry("control-plane-ca", ca);
			TrustManagerFactory trustManagers = TrustManagerFactory
				.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trustManagers.init(trustStore);
			SSLContext ssl = SSLContext.getInstance("TLS");
			ssl.init(null, trustManagers.getTrustManagers(), null);
			return HttpClient.newBuilder()
				.sslContext(ssl)
				.version(HttpClient.Version.HTTP_1_1)
				.connectTimeout(PROBE_TIMEOUT)
				.build();
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new ControlPlaneException("Cannot load the control plane's CA certificate", ex);
		}
	}

	static int[] freePorts(int count) {
		List<ServerSocket> sockets = new ArrayList<>();
		try {
			InetAddress loopback = InetAddress.getByName("127.0.0.1");
			int[] ports = new int[count];
			for (int i = 0; i < count; i++) {
				ServerSocket socket = new ServerSocket(0, 1, loopback);
				socket.setReuseAddress(true);
				sockets.add(socket);
				ports[i] = socket.getLocalPort();
			}
			return ports;
		}
		catch (IOException ex) {
			throw new ControlPlaneException("Cannot find a free port on 127.0.0.1", ex);
		}
		finally {
			for (ServerSocket socket : sockets) {
				try {
					socket.close();
				}
				catch (IOException ex) {
					// ignore
				}
			}
		}
	}

	private KubernetesVersion readVersion(URI server) {
		HttpResponse<String> response = get(server.resolve("/version"), token(ADMIN));
		if (response == null || response.statusCode() != 200) {
			throw new ControlPlaneException("Cannot read the API server's version: " + describe("/version", response));
		}
		Matcher gitVersion = GIT_VERSION.matcher(response.body());
		if (!gitVersion.find()) {
			throw new ControlPlaneException("The API server's /version has no gitVersion: " + response.body());
		}
		return KubernetesVersion.parse(gitVersion.group(1));
	}

	private static String versionByDefault() {
		String value = System.getProperty(VERSION_PROPERTY, System.getenv(VERSION_PROPERTY));
		return (value == null || value.isBlank()) ? null : value.strip();
	}

	private static boolean keepByDefault() {
		String value = System.getProperty(KEEP_PROPERTY, System.getenv(KEEP_PROPERTY));
		return Boolean.parseBoolean(value);
	}

	private static void deleteRecursively(Path directory) {
		WorkDirectories.deleteRecursively(directory);
	}

	@FunctionalInterface
	private interface Probe {

		/**
		 * Probes once.
		 * @return {@code null} if ready, otherwise a description of the current state
		 */
		String check();

	}

	private static final class ProcessExitedException extends ControlPlaneException {

		private static final long serialVersionUID = 1L;

		ProcessExitedException(String message) {
			super(message);
		}

	}

	/**
	 * Options for a {@link ControlPlane}. Not thread-safe; {@link #start()} may be called
	 * more than once to start several independent control planes.
	 */
	public static final class Builder {

		private final List<String> apiServerFlags = new ArrayList<>();

		private final List<String> etcdFlags = new ArrayList<>();

		private Duration startTimeout = DEFAULT_START_TIMEOUT;

		private Path binaryDirectory;

		private String kubernetesVersion;

		private Boolean keepWorkDir;

		private Duration exitGrace = Duration.ZERO;

		private Builder() {
		}

		/**
		 * Adds a flag to the API server's command line, such as
		 * {@code --etcd-compaction-interval=5s}. A flag with the same name as a default
		 * flag (the part before {@code =}) replaces it; for example
		 * {@code --authorization-mode=RBAC,Node}.
		 * @param flag the flag, {@code --name=value} or {@code --name}
		 * @return this builder
		 */
		public Builder apiServerFlag(String flag) {
			this.apiServerFlags.add(checkFlag(flag));
			return this;
		}

		/**
		 * Adds flags to the API server's command line, as with
		 * {@link #apiServerFlag(String)}.
		 * @param flags the flags
		 * @return this builder
		 */
		public Builder apiServerFlags(String... flags) {
			for (String flag : flags) {
				apiServerFlag(flag);
			}
			return this;
		}

		/**
		 * Adds a flag to etcd's command line; a flag with the same name as a default flag
		 * replaces it.
		 * @param flag the flag, {@code --name=value} or {@code --name}
		 * @return this builder
		 */
		public Builder etcdFlag(String flag) {
			this.etcdFlags.add(checkFlag(flag));
			return this;
		}

		/**
		 * Sets how long starting may take until the API server is ready; also used by
		 * {@link ControlPlane#startApiServer()}. Defaults to 60 seconds.
		 * @param startTimeout the start timeout
		 * @return this builder
		 */
		public Builder startTimeout(Duration startTimeout) {
			Objects.requireNonNull(startTimeout, "startTimeout");
			if (startTimeout.isNegative() || startTimeout.isZero()) {
				throw new IllegalArgumentException("startTimeout must be positive");
			}
			this.startTimeout = startTimeout;
			return this;
		}

		/**
		 * Uses {@code etcd} and {@code kube-apiserver} from the given directory instead
		 * of looking them up.
		 * @param binaryDirectory a directory holding both executables
		 * @return this builder
		 */
		public Builder binaryDirectory(Path binaryDirectory) {
			this.binaryDirectory = Objects.requireNonNull(binaryDirectory, "binaryDirectory");
			return this;
		}

		/**
		 * Asks for a Kubernetes version: a release such as {@code 1.34.4} or a prefix of
		 * one such as {@code 1.34}, which takes the newest installed patch. Defaults to
		 * {@value ControlPlane#VERSION_PROPERTY}, and to the newest installed version
		 * when that is not set either. {@code scripts/install-control-plane.sh 1.34.4}
		 * installs a version.
		 * @param kubernetesVersion the version asked for
		 * @return this builder
		 */
		public Builder kubernetesVersion(String kubernetesVersion) {
			Objects.requireNonNull(kubernetesVersion, "kubernetesVersion");
			if (!kubernetesVersion.matches("\\d+\\.\\d+(\\.\\d+)?")) {
				throw new IllegalArgumentException(
						"kubernetesVersion must be a release such as 1.34.4 or a minor such as 1.34, was '"
								+ kubernetesVersion + "'");
			}
			this.kubernetesVersion = kubernetesVersion;
			return this;
		}

		/**
		 * Sets whether {@link ControlPlane#close()} keeps the work directory. Defaults to
		 * the value of {@value ControlPlane#KEEP_PROPERTY}.
		 * @param keep whether to keep the work directory
		 * @return this builder
		 */
		public Builder keepWorkDir(boolean keep) {
			this.keepWorkDir = keep;
			return this;
		}

		/**
		 * Lets the owner of the control plane stop it when the JVM is asked to exit (a
		 * Ctrl-C or a SIGTERM), for an application that closes it on the same shutdown
		 * after stopping what uses it (a Spring application context, whose operator stops
		 * its controllers and releases its Lease): etcd and kube-apiserver run in a
		 * session of their own, so that a Ctrl-C in the terminal reaches the JVM only,
		 * and the JVM's shutdown hook kills them only if they are still running after
		 * this grace period. Defaults to zero: killed at once when the JVM exits, the
		 * right thing for a test run.
		 * @param exitGrace how long they may outlive the JVM's exit request
		 * @return this builder
		 */
		public Builder exitGrace(Duration exitGrace) {
			Objects.requireNonNull(exitGrace, "exitGrace");
			if (exitGrace.isNegative()) {
				throw new IllegalArgumentException("exitGrace must not be negative");
			}
			this.exitGrace = exitGrace;
			return this;
		}

		/**
		 * Starts a control plane with these options and waits until it is ready.
		 * @return the running control plane
		 * @throws ControlPlaneException if the binaries cannot be found or the control
		 * plane does not get ready in time
		 */
		public ControlPlane start() {
			Builder copy = new Builder();
			copy.apiServerFlags.addAll(this.apiServerFlags);
			copy.etcdFlags.addAll(this.etcdFlags);
			copy.startTimeout = this.startTimeout;
			copy.binaryDirectory = this.binaryDirectory;
			copy.kubernetesVersion = this.kubernetesVersion;
			copy.keepWorkDir = this.keepWorkDir;
			copy.exitGrace = this.exitGrace;
			return ControlPlane.start(copy);
		}

		private static String checkFlag(String flag) {
			Objects.requireNonNull(flag, "flag");
			if (!flag.startsWith("--")) {
				throw new IllegalArgumentException("A flag must start with '--': " + flag);
			}
			return flag;
		}

	}

}
