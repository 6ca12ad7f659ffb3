package io.kubeboot.operator.it;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A CA for tests that issues serving certificates for {@code 127.0.0.1}, written as
 * {@code tls.crt} and {@code tls.key} the way a mounted certificate Secret holds them.
 */
final class TestCertificates {

	private static final AtomicLong serials = new AtomicLong(System.currentTimeMillis());

	private final KeyPair caKeys;

	private final X509Certificate ca;

	TestCertificates() throws Exception {
		this.caKeys = rsa();
		X500Name name = new X500Name("CN=test-webhook-ca");
		this.ca = sign(
				new JcaX509v3CertificateBuilder(name, serial(), notBefore(), notAfter(), name, this.caKeys.getPublic())
					.addExtension(Extension.basicConstraints, true, new BasicConstraints(true)));
	}

	String caPem() throws IOException {
		return pem(this.ca);
	}

	/**
	 * Issues a serving certificate for 127.0.0.1 and replaces the files with it, each
	 * file atomically.
	 * @return the certificate
	 */
	X509Certificate issueInto(Path certificateFile, Path keyFile) throws Exception {
		KeyPair keys = rsa();
		X509Certificate certificate = sign(new JcaX509v3CertificateBuilder(this.ca, serial(), notBefore(), notAfter(),
				new X500Name("CN=test-webhook"), keys.getPublic())
			.addExtension(Extension.subjectAlternativeName, false,
					new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1"))));
		write(keyFile, pem(keys.getPrivate()));
		write(certificateFile, pem(certificate));
		return certificate;
	}

	private X509Certificate sign(X509v3CertificateBuilder builder) throws Exception {
		return new JcaX509CertificateConverter().getCertificate(
				builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(this.caKeys.getPrivate())));
	}

	private static void write(Path file, String content) throws IOException {
		Path temporary = Files.createTempFile(file.getParent(), ".tmp", ".pem");
		Files.writeString(temporary, content);
		Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
	}

	private static String pem(Object object) throws IOException {
		StringWriter text = new StringWriter();
		try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
			writer.writeObject(object);
		}
		return text.toString();
	}

	private static KeyPair rsa() throws Exception {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
		generator.initialize(2048);
		return generator.generateKeyPair();
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
