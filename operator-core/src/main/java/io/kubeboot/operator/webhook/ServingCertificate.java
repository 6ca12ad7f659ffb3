package io.kubeboot.operator.webhook;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import javax.net.ssl.SSLContext;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;
import io.kubeboot.operator.webhook.SelfSignedCertificates.KeyType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The certificate a webhook server presents to the API server, and the TLS context that
 * presents it: controller-runtime's {@code certwatcher}.
 * <p>
 * {@link #fromFiles} reads a PEM certificate chain and private key, as cert-manager
 * writes {@code tls.crt} and {@code tls.key} into a Secret mounted as a volume, and reads
 * them again when they are rotated: new TLS connections get the new certificate, without
 * a restart. A rotation caught half-way, or files that do not make a pair, leave the
 * previous certificate served until the files are right. {@link #selfSigned} generates a
 * CA and a certificate it signs, for local runs and tests.
 * <p>
 * Close it to stop watching the files.
 */
public final class ServingCertificate implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(ServingCertificate.class);

	private final CurrentKeyManager keyManager;

	private final SSLContext sslContext;

	private final @Nullable CertificateFileWatcher watcher;

	private ServingCertificate(KeyMaterial material, @Nullable CertificateFileWatcher watcher) {
		this.keyManager = new CurrentKeyManager(material);
		this.sslContext = ServerTlsContext.create(this.keyManager);
		this.watcher = watcher;
	}

	/**
	 * Reads a serving certificate from PEM files and watches them: every check interval,
	 * on a daemon thread named {@code webhook-certificate-watcher}, the files are read
	 * again if one of them changed, and a certificate and key that make a pair replace
	 * the served ones. A {@code ca.crt} next to the certificate file becomes the
	 * {@linkplain #caBundlePem() CA bundle}.
	 * @param certificateFile the certificate chain in PEM, the serving certificate first
	 * (a Secret's {@code tls.crt})
	 * @param keyFile its private key in PEM: PKCS#8, PKCS#1 RSA or SEC1 EC, unencrypted
	 * (a Secret's {@code tls.key})
	 * @param checkInterval the time between two looks at the files, positive
	 * @param metrics counts the reads and the failed ones
	 * @return the serving certificate, its watcher started
	 * @throws IllegalArgumentException naming the file and what was expected if a file is
	 * missing, unreadable or holds no certificate or key, or if the key is not the
	 * certificate's; an {@link InvalidConfigException} if the check interval is not
	 * positive
	 */
	public static ServingCertificate fromFiles(Path certificateFile, Path keyFile, Duration checkInterval,
			CertificateMetrics metrics) {
		Objects.requireNonNull(certificateFile, "certificateFile");
		Objects.requireNonNull(keyFile, "keyFile");
		Objects.requireNonNull(metrics, "metrics");
		ConfigChecks checks = new ConfigChecks();
		checks.positive("checkInterval", checkInterval);
		checks.throwIfAny();
		CertificateFileWatcher.Loaded loaded = CertificateFileWatcher.load(certificateFile, keyFile, checkInterval,
				metrics);
		ServingCertificate certificate = new ServingCertificate(loaded.material(), loaded.watcher());
		X509Certificate leaf = loaded.material().leaf();
		logger.info(
				"Webhook certificate loaded: certificate={} key={} subject=\"{}\" notAfter={} caBundle={} "
						+ "checkInterval={}",
				certificateFile, keyFile, leaf.getSubjectX500Principal().getName(), leaf.getNotAfter().toInstant(),
				loaded.material().caBundlePem() != null, checkInterval);
		loaded.watcher().start(certificate.keyManager::set);
		return certificate;
	}

	/**
	 * Generates a CA and a serving certificate it signs, valid from a minute ago for a
	 * year, with EC P-256 keys: for local runs and tests. Nothing is written or watched.
	 * @param hosts the DNS names and IP addresses the API server reaches the webhook at,
	 * as subject alternative names: IP addresses for IP literals, DNS names otherwise
	 * @return the serving certificate, the CA's PEM as {@linkplain #caBundlePem() CA
	 * bundle}
	 * @throws InvalidConfigException if there is no host or one is blank
	 */
	public static ServingCertificate selfSigned(List<String> hosts) {
		Objects.requireNonNull(hosts, "hosts");
		return new ServingCertificate(SelfSignedCertificates.generate(hosts, KeyType.EC_P256), null);
	}

	/**
	 * Returns the TLS server context that presents this certificate: TLS 1.3 and 1.2
	 * only, the current certificate on every handshake (a rotation reaches new
	 * connections, open ones keep theirs). Always the same context.
	 * @return the server context
	 */
	public SSLContext sslContext() {
		return this.sslContext;
	}

	/**
	 * Returns the PEM of the CA that signed the serving certificate, for a webhook
	 * configuration's {@code caBundle}: the generated CA's of a self-signed certificate,
	 * the content of a {@code ca.crt} next to the certificate file as last read, empty
	 * otherwise.
	 * @return the CA bundle in PEM, if known
	 */
	public Optional<String> caBundlePem() {
		return Optional.ofNullable(this.keyManager.current().caBundlePem());
	}

	/**
	 * Returns the serving certificate presented to new connections.
	 * @return the current serving certificate
	 */
	public X509Certificate certificate() {
		return this.keyManager.current().leaf();
	}

	/**
	 * Stops watching the files; the certificate is still served on new connections.
	 * Idempotent.
	 */
	@Override
	public void close() {
		if (this.watcher != null) {
			this.watcher.stop();
		}
	}

	@Override
	public String toString() {
		return "ServingCertificate[subject=" + certificate().getSubjectX500Principal().getName() + ", watched="
				+ (this.watcher != null) + "]";
	}

}
