package io.kubeboot.operator.test;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority of a test's own, for webhooks served from certificate files as
 * cert-manager mounts them: it issues serving certificates into a directory as
 * {@code tls.crt} and {@code tls.key} ({@code operator.webhook.cert-dir}), and its
 * certificate is the {@code caBundle} of the webhook configurations that call them.
 * Issuing again replaces the files, each atomically, as a rotation does.
 *
 * <pre class="code">
 * TestCertificateAuthority ca = TestCertificateAuthority.create();
 * ca.issue(certDir);                               // tls.crt, tls.key for 127.0.0.1 and localhost
 * TestWebhooks.builder(admin, "https://127.0.0.1:" + port, ca.caBundle())...
 * </pre>
 *
 * Keys are EC P-256; certificates are valid from a minute ago for a day.
 */
public final class TestCertificateAuthority {

	private static final AtomicLong serials = new AtomicLong(System.currentTimeMillis());

	private static final List<String> LOOPBACK = List.of("127.0.0.1", "localhost");

	private final KeyPair keys;

	private final X509Certificate certificate;

	private TestCertificateAuthority(KeyPair keys, X509Certificate certificate) {
		this.keys = keys;
		this.certificate = certificate;
	}

	/**
	 * Creates a certificate authority with a new key.
	 * @return the certificate authority
	 */
	public static TestCertificateAuthority create() {
		KeyPair keys = newKeys();
		X500Name name = new X500Name("CN=kubeboot-test-webhook-ca");
		try {
			X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, serial(), notBefore(), notAfter(),
					name, keys.getPublic())
				.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
			return new TestCertificateAuthority(keys, sign(keys, builder));
		}
		catch (CertIOException ex) {
			throw new IllegalStateException("Cannot create the test certificate authority", ex);
		}
	}

	/**
	 * Returns the certificate authority's certificate, PEM-encoded: the {@code caBundle}
	 * of webhook configurations (base64 it for a manifest; {@link TestWebhooks} takes it
	 * as is).
	 * @return the PEM
	 */
	public String caBundle() {
		return pem(this.certificate);
	}

	/**
	 * Returns the certificate authority's certificate.
	 * @return the certificate
	 */
	public X509Certificate certificate() {
		return this.certificate;
	}

	/**
	 * Issues a serving certificate for {@code 127.0.0.1} and {@code localhost} into a
	 * directory, as {@code tls.crt} and {@code tls.key}.
	 * @param directory the directory, which must exist
	 * @return the certificate
	 */
	public X509Certificate issue(Path directory) {
		return issue(directory.resolve("tls.crt"), directory.resolve("tls.key"), LOOPBACK);
	}

	/**
	 * Issues a serving certificate for the given hosts and replaces the files with it,
	 * each atomically (the key first).
	 * @param certificateFile the certificate's file
	 * @param keyFile the private key's file
	 * @param hosts IP addresses and DNS names of the certificate's subject alternative
	 * names
	 * @return the certificate
	 */
	public X509Certificate issue(Path certificateFile, Path keyFile, List<String> hosts) {
		Objects.requireNonNull(certificateFile, "certificateFile");
		Objects.requireNonNull(keyFile, "keyFile");
		if (hosts.isEmpty()) {
			throw new IllegalArgumentException("A serving certificate needs at least one host");
		}
		KeyPair servingKeys = newKeys();
		List<GeneralName> names = new ArrayList<>();
		for (String host : hosts) {
			names.add(new GeneralName(isIpAddress(host) ? GeneralName.iPAddress : GeneralName.dNSName, host));
		}
		try {
			X509Certificate serving = sign(this.keys,
					new JcaX509v3CertificateBuilder(this.certificate, serial(), notBefore(), notAfter(),
							new X500Name("CN=" + hosts.get(0)), servingKeys.getPublic())
						.addExtension(Extension.subjectAlternativeName, false,
								new GeneralNames(names.toArray(GeneralName[]::new))));
			write(keyFile, pem("PRIVATE KEY", servingKeys.getPrivate().getEncoded()));
			write(certificateFile, pem(serving));
			return serving;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot write the serving certificate to " + certificateFile, ex);
		}
	}

	private static boolean isIpAddress(String host) {
		return host.contains(":") || host.chars().allMatch((c) -> c == '.' || Character.isDigit(c));
	}

	private static X509Certificate sign(KeyPair issuer, X509v3CertificateBuilder builder) {
		try {
			return new JcaX509CertificateConverter().getCertificate(
					builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuer.getPrivate())));
		}
		catch (OperatorCreationException | GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot sign a test certificate", ex);
		}
	}

	private static KeyPair newKeys() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
			generator.initialize(new ECGenParameterSpec("secp256r1"));
			return generator.generateKeyPair();
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot generate an EC key", ex);
		}
	}

	private static void write(Path file, String content) throws IOException {
		Path parent = (file.toAbsolutePath().getParent() != null) ? file.toAbsolutePath().getParent() : Path.of(".");
		Path temporary = Files.createTempFile(parent, ".tmp", ".pem");
		Files.writeString(temporary, content, StandardCharsets.US_ASCII);
		Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
	}

	private static String pem(X509Certificate certificate) {
		try {
			return pem("CERTIFICATE", certificate.getEncoded());
		}
		catch (CertificateEncodingException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String pem(String type, byte[] der) {
		return "-----BEGIN " + type + "-----\n"
				+ Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
				+ "\n-----END " + type + "-----\n";
	}

	private static BigInteger serial() {
		return BigInteger.valueOf(serials.incrementAndGet());
	}

	private static Date notBefore() {
		return Date.from(Instant.now().minus(Duration.ofMinutes(1)));
	}

	private static Date notAfter() {
		return Date.from(Instant.now().plus(Duration.ofDays(1)));
	}

}
