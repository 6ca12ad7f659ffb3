package io.kubeboot.operator.webhook;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubeboot.operator.webhook.SelfSignedCertificates.KeyType;
import org.awaitility.core.ConditionFactory;
import org.bouncycastle.asn1.ASN1BitString;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link ServingCertificate} over real TLS handshakes on the loopback interface: a
 * self-signed certificate, PEM files in each key format, rotations that reach new
 * handshakes, failed rotations that keep the previous certificate, and files that cannot
 * serve at all.
 */
class ServingCertificateTests {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private static final Duration CHECK_INTERVAL = Duration.ofMillis(50);

	private final CountingMetrics metrics = new CountingMetrics();

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	@TempDir
	private Path directory;

	@BeforeEach
	void captureLogs() {
		this.logs.start();
		logger().addAppender(this.logs);
	}

	@AfterEach
	void releaseLogs() {
		logger().detachAppender(this.logs);
	}

	private static Logger logger() {
		return (Logger) LoggerFactory.getLogger(ServingCertificate.class);
	}

	@Test
	void selfSignedCertificateServesATlsHandshake() throws Exception {
		ServingCertificate certificate = ServingCertificate.selfSigned(List.of("127.0.0.1", "localhost"));
		assertThat(certificate.caBundlePem())
			.hasValueSatisfying((pem) -> assertThat(pem).startsWith("-----BEGIN CERTIFICATE-----"));

		X509Certificate served = handshake(certificate, certificate.caBundlePem().orElseThrow());

		assertThat(served).isEqualTo(certificate.certificate());
		assertThat(served.getSubjectAlternativeNames()).contains(List.of(7, "127.0.0.1"), List.of(2, "localhost"));
	}

	@Test
	void selfSignedCertificateIsForServerAuthAndSignedByACa() throws Exception {
		Instant before = Instant.now();
		ServingCertificate certificate = ServingCertificate.selfSigned(List.of("webhook.system.svc", "::1"));
		X509Certificate ca = certificates(certificate.caBundlePem().orElseThrow()).get(0);
		X509Certificate leaf = certificate.certificate();

		assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
		assertThat(ca.getKeyUsage()[5]).as("keyCertSign").isTrue();
		ca.verify(ca.getPublicKey());
		leaf.verify(ca.getPublicKey());
		assertThat(leaf.getBasicConstraints()).isEqualTo(-1);
		assertThat(leaf.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
		assertThat(leaf.getIssuerX500Principal()).isEqualTo(ca.getSubjectX500Principal());
		assertThat(leaf.getSubjectAlternativeNames()).containsExactlyInAnyOrder(List.of(2, "webhook.system.svc"),
				List.of(7, "0:0:0:0:0:0:0:1"));
		assertThat(leaf.getPublicKey().getAlgorithm()).isEqualTo("EC");
		assertThat(leaf.getNotBefore().toInstant()).isBefore(before.minusSeconds(50));
		assertThat(leaf.getNotAfter().toInstant()).isAfter(before.plus(Duration.ofDays(364)));
	}

	@Test
	void selfSignedCertificateNeedsAHost() {
		assertThatIllegalArgumentException().isThrownBy(() -> ServingCertificate.selfSigned(List.of()))
			.withMessageContaining("at least one host");
		assertThatIllegalArgumentException().isThrownBy(() -> ServingCertificate.selfSigned(List.of("localhost", " ")))
			.withMessageContaining("blank");
	}

	@Test
	void tlsContextSpeaksTls13And12Only() throws Exception {
		SSLContext context = ServingCertificate.selfSigned(List.of("127.0.0.1")).sslContext();
		SSLParameters defaults = context.getDefaultSSLParameters();
		assertThat(defaults.getProtocols()).isNotEmpty().isSubsetOf("TLSv1.3", "TLSv1.2");
		assertThat(context.createSSLEngine().getEnabledProtocols()).isNotEmpty().isSubsetOf("TLSv1.3", "TLSv1.2");
		try (SSLServerSocket socket = (SSLServerSocket) context.getServerSocketFactory()
			.createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			assertThat(socket.getEnabledProtocols()).isNotEmpty().isSubsetOf("TLSv1.3", "TLSv1.2");
		}
	}

	@ParameterizedTest
	@EnumSource(KeyFormat.class)
	void filesServeTheirCertificateWithKeysInEachPemFormat(KeyFormat format) throws Exception {
		KeyMaterial material = SelfSignedCertificates.generate(List.of("127.0.0.1"), format.keyType);
		String keyPem = format.write(material);
		assertThat(keyPem).contains(format.header);
		write(this.directory.resolve("tls.crt"), PemFiles.toPem(material.chain()));
		write(this.directory.resolve("tls.key"), keyPem);

		try (ServingCertificate certificate = fromFiles()) {
			assertThat(handshake(certificate, material.caBundlePem())).isEqualTo(material.leaf());
			assertThat(certificate.caBundlePem()).isEmpty();
		}
		assertThat(this.metrics.reads).hasValue(1);
		assertThat(this.metrics.errors).hasValue(0);
	}

	@Test
	void caCrtNextToTheCertificateIsTheCaBundle() throws Exception {
		KeyMaterial material = generate();
		writeSecret(this.directory, material, true);

		try (ServingCertificate certificate = fromFiles()) {
			assertThat(certificate.caBundlePem()).hasValue(material.caBundlePem());
			assertThat(handshake(certificate, certificate.caBundlePem().orElseThrow())).isEqualTo(material.leaf());
		}
	}

	@Test
	void replacedFilesReachNewHandshakes() throws Exception {
		KeyMaterial first = generate();
		KeyMaterial second = generate();
		writeSecret(this.directory, first, false);

		try (ServingCertificate certificate = fromFiles()) {
			String bothCas = first.caBundlePem() + second.caBundlePem();
			assertThat(handshake(certificate, bothCas)).isEqualTo(first.leaf());

			writeSecret(this.directory, second, false);

			eventually().until(() -> handshake(certificate, bothCas).equals(second.leaf()));
			assertThat(certificate.certificate()).isEqualTo(second.leaf());
			assertThat(infos()).anyMatch((message) -> message.startsWith("Webhook certificate reloaded"));
		}
		assertThat(this.metrics.reads).hasValueGreaterThanOrEqualTo(2);
	}

	@Test
	void secretVolumeUpdateIsPickedUpWithoutAFailedRead() throws Exception {
		// the kubelet's layout: tls.crt -> ..data/tls.crt, ..data -> a timestamped
		// directory, and an update swaps the ..data link at once
		KeyMaterial first = generate();
		KeyMaterial second = generate();
		Path firstData = Files.createDirectory(this.directory.resolve("..2024_01_01_00_00_00.1"));
		writeSecret(firstData, first, true);
		Path data = Files.createSymbolicLink(this.directory.resolve("..data"), firstData.getFileName());
		for (String file : List.of("tls.crt", "tls.key", "ca.crt")) {
			Files.createSymbolicLink(this.directory.resolve(file), Path.of("..data", file));
		}

		try (ServingCertificate certificate = fromFiles()) {
			assertThat(certificate.caBundlePem()).hasValue(first.caBundlePem());
			Path secondData = Files.createDirectory(this.directory.resolve("..2024_01_01_00_00_01.2"));
			writeSecret(secondData, second, true);
			Path newData = Files.createSymbolicLink(this.directory.resolve("..data_tmp"), secondData.getFileName());
			Files.move(newData, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

			eventually().until(() -> certificate.certificate().equals(second.leaf()));
			assertThat(certificate.caBundlePem()).hasValue(second.caBundlePem());
			assertThat(handshake(certificate, second.caBundlePem())).isEqualTo(second.leaf());
		}
		assertThat(this.metrics.reads).hasValueGreaterThanOrEqualTo(2);
		assertThat(this.metrics.errors).hasValue(0);
	}

	@Test
	void halfWrittenKeyKeepsThePreviousCertificateAndCountsAnError() throws Exception {
		KeyMaterial first = generate();
		KeyMaterial second = generate();
		writeSecret(this.directory, first, false);

		try (ServingCertificate certificate = fromFiles()) {
			// the new key is written only half, then the new certificate
			String secondKey = KeyFormat.EC_PKCS8.write(second);
			write(this.directory.resolve("tls.key"), secondKey.substring(0, secondKey.length() / 2));
			write(this.directory.resolve("tls.crt"), PemFiles.toPem(second.chain()));

			// retried every tick although the files do not change again, warned once
			eventually().until(() -> this.metrics.errors.get() >= 3);
			assertThat(certificate.certificate()).isEqualTo(first.leaf());
			assertThat(handshake(certificate, first.caBundlePem())).isEqualTo(first.leaf());
			assertThat(warnings()).singleElement()
				.satisfies((message) -> assertThat(message)
					.startsWith("Webhook certificate reload failed, serving the previous one: certificate="
							+ this.directory.resolve("tls.crt"))
					.contains("tls.key is not valid PEM"));

			// the rest of the key arrives
			write(this.directory.resolve("tls.key"), secondKey);
			eventually().until(() -> certificate.certificate().equals(second.leaf()));
			assertThat(handshake(certificate, second.caBundlePem())).isEqualTo(second.leaf());
		}
	}

	@Test
	void aRotationToACertificateThatIsNotValidNowKeepsThePreviousOneUntilItIs() throws Exception {
		KeyMaterial first = generate();
		Instant now = Instant.now();
		KeyMaterial expired = SelfSignedCertificates.generate(List.of("127.0.0.1"), KeyType.EC_P256,
				now.minus(Duration.ofDays(30)), now.minus(Duration.ofDays(1)));
		KeyMaterial notYetValid = SelfSignedCertificates.generate(List.of("127.0.0.1"), KeyType.EC_P256,
				now.plus(Duration.ofDays(1)), now.plus(Duration.ofDays(30)));
		writeSecret(this.directory, first, false);

		try (ServingCertificate certificate = fromFiles()) {
			writeSecret(this.directory, expired, false);
			eventually().until(() -> this.metrics.errors.get() >= 1);
			assertThat(certificate.certificate()).isEqualTo(first.leaf());
			assertThat(warnings()).singleElement()
				.asString()
				.startsWith("Webhook certificate reload failed, serving the previous one: certificate="
						+ this.directory.resolve("tls.crt"))
				.contains("holds a certificate that is not valid now (valid ");

			writeSecret(this.directory, notYetValid, false);
			eventually().until(() -> warnings().size() == 2);
			assertThat(certificate.certificate()).isEqualTo(first.leaf());
			assertThat(handshake(certificate, first.caBundlePem())).isEqualTo(first.leaf());
		}
	}

	@Test
	void garbageKeyKeepsThePreviousCertificate() throws Exception {
		KeyMaterial first = generate();
		writeSecret(this.directory, first, false);

		try (ServingCertificate certificate = fromFiles()) {
			write(this.directory.resolve("tls.key"), "not a key, at least not yet\n");

			eventually().until(() -> this.metrics.errors.get() >= 1);
			assertThat(certificate.certificate()).isEqualTo(first.leaf());
			assertThat(warnings()).singleElement().asString().contains("holds no PEM private key");
		}
	}

	@Test
	void rotationToAKeyOfAnotherCertificateKeepsThePreviousCertificate() throws Exception {
		KeyMaterial first = generate();
		KeyMaterial second = generate();
		writeSecret(this.directory, first, false);

		try (ServingCertificate certificate = fromFiles()) {
			write(this.directory.resolve("tls.key"), KeyFormat.EC_PKCS8.write(second));

			eventually().until(() -> this.metrics.errors.get() >= 1);
			assertThat(certificate.certificate()).isEqualTo(first.leaf());
			assertThat(handshake(certificate, first.caBundlePem())).isEqualTo(first.leaf());
			assertThat(warnings()).singleElement().asString().contains("does not match the certificate");
		}
	}

	@Test
	void missingCertificateFileFailsWithItsPath() throws Exception {
		write(this.directory.resolve("tls.key"), KeyFormat.EC_PKCS8.write(generate()));

		assertThatIllegalArgumentException().isThrownBy(this::fromFiles)
			.withMessageStartingWith("Webhook certificate file " + this.directory.resolve("tls.crt")
					+ " does not exist: mount the " + "Secret with tls.crt and tls.key there");
		assertThat(this.metrics.reads).hasValue(1);
		assertThat(this.metrics.errors).hasValue(1);
	}

	@Test
	void missingKeyFileFailsWithItsPath() throws Exception {
		write(this.directory.resolve("tls.crt"), PemFiles.toPem(generate().chain()));

		assertThatIllegalArgumentException().isThrownBy(this::fromFiles)
			.withMessageStartingWith(
					"Webhook private key file " + this.directory.resolve("tls.key") + " does not exist");
	}

	@Test
	void certificateFileWithoutACertificateFailsWithWhatWasExpected() throws Exception {
		KeyMaterial material = generate();
		write(this.directory.resolve("tls.crt"), KeyFormat.EC_PKCS8.write(material));
		write(this.directory.resolve("tls.key"), KeyFormat.EC_PKCS8.write(material));

		assertThatIllegalArgumentException().isThrownBy(this::fromFiles)
			.withMessage("Webhook certificate file " + this.directory.resolve("tls.crt")
					+ " holds no PEM certificate: expected one or more -----BEGIN CERTIFICATE----- blocks, the "
					+ "serving certificate first");
	}

	@Test
	void keyThatDoesNotMatchTheCertificateIsRefused() throws Exception {
		write(this.directory.resolve("tls.crt"), PemFiles.toPem(generate().chain()));
		write(this.directory.resolve("tls.key"), KeyFormat.EC_PKCS8.write(generate()));

		assertThatIllegalArgumentException().isThrownBy(this::fromFiles)
			.withMessageStartingWith("Webhook private key file " + this.directory.resolve("tls.key")
					+ " does not match the certificate in " + this.directory.resolve("tls.crt"));
		assertThat(this.metrics.errors).hasValue(1);
	}

	@Test
	void keyOfAnotherAlgorithmIsRefused() throws Exception {
		write(this.directory.resolve("tls.crt"), PemFiles.toPem(generate().chain()));
		write(this.directory.resolve("tls.key"),
				KeyFormat.RSA_PKCS8.write(SelfSignedCertificates.generate(List.of("x"), KeyType.RSA_2048)));

		assertThatIllegalArgumentException().isThrownBy(this::fromFiles)
			.withMessageContaining("does not match the certificate");
	}

	@Test
	void checkIntervalMustBePositive() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ServingCertificate.fromFiles(this.directory.resolve("tls.crt"),
					this.directory.resolve("tls.key"), Duration.ZERO, this.metrics))
			.withMessageContaining("must be positive");
	}

	@Test
	void closeStopsTheWatcher() throws Exception {
		writeSecret(this.directory, generate(), false);
		ServingCertificate certificate = fromFiles();
		assertThat(watchers()).isNotEmpty().allMatch(Thread::isDaemon);

		certificate.close();
		certificate.close();

		eventually().until(() -> watchers().isEmpty());
	}

	private ServingCertificate fromFiles() {
		return ServingCertificate.fromFiles(this.directory.resolve("tls.crt"), this.directory.resolve("tls.key"),
				CHECK_INTERVAL, this.metrics);
	}

	private static KeyMaterial generate() {
		return SelfSignedCertificates.generate(List.of("127.0.0.1"), KeyType.EC_P256);
	}

	/**
	 * Writes tls.crt and tls.key, and ca.crt if asked, each replacing the previous file
	 * at once (as an editor or {@code kubectl cp} would not, but a careful writer does).
	 */
	private static void writeSecret(Path directory, KeyMaterial material, boolean withCa) throws IOException {
		write(directory.resolve("tls.key"), KeyFormat.EC_SEC1.write(material));
		write(directory.resolve("tls.crt"), PemFiles.toPem(material.chain()));
		if (withCa) {
			write(directory.resolve("ca.crt"), material.caBundlePem());
		}
	}

	private static void write(Path file, String content) throws IOException {
		Path written = Files.writeString(file.resolveSibling(file.getFileName() + ".tmp"), content);
		Files.move(written, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
	}

	/**
	 * Serves one TLS handshake on a loopback port with the certificate's context and
	 * returns the certificate a client trusting {@code trustedCas} and checking the
	 * address against the subject alternative names was shown.
	 */
	private static X509Certificate handshake(ServingCertificate certificate, String trustedCas) throws Exception {
		try (SSLServerSocket server = (SSLServerSocket) certificate.sslContext()
			.getServerSocketFactory()
			.createServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
				try (SSLSocket accepted = (SSLSocket) server.accept()) {
					accepted.setSoTimeout((int) DEADLINE.toMillis());
					accepted.startHandshake();
					accepted.getOutputStream().write(1);
					accepted.getOutputStream().flush();
				}
				catch (IOException ex) {
					throw new IllegalStateException(ex);
				}
			});
			X509Certificate shown;
			try (SSLSocket client = (SSLSocket) clientContext(trustedCas).getSocketFactory()
				.createSocket("127.0.0.1", server.getLocalPort())) {
				client.setSoTimeout((int) DEADLINE.toMillis());
				SSLParameters parameters = client.getSSLParameters();
				parameters.setEndpointIdentificationAlgorithm("HTTPS");
				client.setSSLParameters(parameters);
				client.startHandshake();
				assertThat(client.getInputStream().read()).isEqualTo(1);
				assertThat(client.getSession().getProtocol()).isIn("TLSv1.3", "TLSv1.2");
				shown = (X509Certificate) client.getSession().getPeerCertificates()[0];
			}
			// after the client closed: the server's close waits for its close_notify
			served.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
			return shown;
		}
	}

	private static SSLContext clientContext(String trustedCas) throws Exception {
		KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
		trusted.load(null, null);
		List<X509Certificate> cas = certificates(trustedCas);
		for (int i = 0; i < cas.size(); i++) {
			trusted.setCertificateEntry("ca-" + i, cas.get(i));
		}
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(trusted);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, trust.getTrustManagers(), null);
		return context;
	}

	private static List<X509Certificate> certificates(String pem) throws Exception {
		List<X509Certificate> certificates = new ArrayList<>();
		for (Certificate certificate : CertificateFactory.getInstance("X.509")
			.generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
			certificates.add((X509Certificate) certificate);
		}
		return certificates;
	}

	private static List<Thread> watchers() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().equals("webhook-certificate-watcher") && thread.isAlive())
			.toList();
	}

	private List<String> warnings() {
		return messages(Level.WARN);
	}

	private List<String> infos() {
		return messages(Level.INFO);
	}

	private List<String> messages(Level level) {
		return this.logs.list.stream()
			.filter((event) -> event.getLevel() == level)
			.map(ILoggingEvent::getFormattedMessage)
			.toList();
	}

	private static ConditionFactory eventually() {
		return await().atMost(DEADLINE).pollInterval(Duration.ofMillis(20));
	}

	/**
	 * The PEM forms of a private key that cert-manager and openssl write.
	 */
	enum KeyFormat {

		RSA_PKCS1(KeyType.RSA_2048, "-----BEGIN RSA PRIVATE KEY-----"),

		RSA_PKCS8(KeyType.RSA_2048, "-----BEGIN PRIVATE KEY-----"),

		EC_SEC1(KeyType.EC_P256, "-----BEGIN EC PRIVATE KEY-----"),

		/** As {@code openssl ecparam -genkey} writes it: the curve first. */
		EC_SEC1_WITH_PARAMETERS(KeyType.EC_P256, "-----BEGIN EC PARAMETERS-----"),

		EC_PKCS8(KeyType.EC_P256, "-----BEGIN PRIVATE KEY-----");

		private final KeyType keyType;

		private final String header;

		KeyFormat(KeyType keyType, String header) {
			this.keyType = keyType;
			this.header = header;
		}

		/**
		 * Writes the private key of key material, in this format.
		 */
		String write(KeyMaterial material) throws IOException {
			PrivateKey key = material.privateKey();
			return switch (this) {
				case RSA_PKCS8, EC_PKCS8 -> pem("PRIVATE KEY", key.getEncoded());
				case RSA_PKCS1 -> pem("RSA PRIVATE KEY",
						PrivateKeyInfo.getInstance(key.getEncoded()).parsePrivateKey().toASN1Primitive().getEncoded());
				case EC_SEC1 -> sec1(material);
				case EC_SEC1_WITH_PARAMETERS ->
					"-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n" + sec1(material);
			};
		}

		/** As Go's x509.MarshalECPrivateKey writes it: with the curve and public key. */
		private static String sec1(KeyMaterial material) throws IOException {
			ECPrivateKey key = (ECPrivateKey) material.privateKey();
			ASN1BitString publicKey = SubjectPublicKeyInfo.getInstance(material.leaf().getPublicKey().getEncoded())
				.getPublicKeyData();
			return pem("EC PRIVATE KEY", new org.bouncycastle.asn1.sec.ECPrivateKey(256, key.getS(), publicKey,
					SECObjectIdentifiers.secp256r1)
				.getEncoded());
		}

		private static String pem(String type, byte[] der) {
			return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] { '\n' }).encodeToString(der)
					+ "\n-----END " + type + "-----\n";
		}

	}

	private static final class CountingMetrics implements CertificateMetrics {

		private final AtomicInteger reads = new AtomicInteger();

		private final AtomicInteger errors = new AtomicInteger();

		@Override
		public void read() {
			this.reads.incrementAndGet();
		}

		@Override
		public void readError() {
			this.errors.incrementAndGet();
		}

	}

}
