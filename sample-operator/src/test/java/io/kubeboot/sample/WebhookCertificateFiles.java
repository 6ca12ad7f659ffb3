package io.kubeboot.sample;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The webhook's certificate as cert-manager provides it in production: {@code tls.crt}
 * and {@code tls.key} in a directory ({@code operator.webhook.cert-dir}), a serving
 * certificate for {@code 127.0.0.1} signed by a CA of the test's own.
 */
final class WebhookCertificateFiles {

	private WebhookCertificateFiles() {
	}

	/**
	 * Writes {@code tls.crt} and {@code tls.key} into a directory.
	 * @param directory the directory
	 * @return the CA's PEM, the webhook configurations' {@code caBundle}
	 */
	static String write(Path directory) throws Exception {
		KeyPair caKeys = keys();
		X500Name caName = new X500Name("CN=dashboard-test-ca");
		X509Certificate ca = sign(caKeys,
				new JcaX509v3CertificateBuilder(caName, BigInteger.ONE, notBefore(), notAfter(), caName,
						caKeys.getPublic())
					.addExtension(Extension.basicConstraints, true, new BasicConstraints(true)));
		KeyPair servingKeys = keys();
		X509Certificate serving = sign(caKeys,
				new JcaX509v3CertificateBuilder(ca, BigInteger.TWO, notBefore(), notAfter(),
						new X500Name("CN=sample-operator-webhook"), servingKeys.getPublic())
					.addExtension(Extension.subjectAlternativeName, false,
							new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1"))));
		Files.writeString(directory.resolve("tls.crt"), pem("CERTIFICATE", serving.getEncoded()),
				StandardCharsets.US_ASCII);
		Files.writeString(directory.resolve("tls.key"), pem("PRIVATE KEY", servingKeys.getPrivate().getEncoded()),
				StandardCharsets.US_ASCII);
		return pem("CERTIFICATE", ca.getEncoded());
	}

	private static X509Certificate sign(KeyPair issuer, X509v3CertificateBuilder builder) throws Exception {
		return new JcaX509CertificateConverter()
			.getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuer.getPrivate())));
	}

	private static KeyPair keys() throws Exception {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
		generator.initialize(new ECGenParameterSpec("secp256r1"));
		return generator.generateKeyPair();
	}

	private static String pem(String type, byte[] der) {
		return "-----BEGIN " + type + "-----\n"
				+ Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
				+ "\n-----END " + type + "-----\n";
	}

	private static Date notBefore() {
		return Date.from(Instant.now().minus(Duration.ofMinutes(1)));
	}

	private static Date notAfter() {
		return Date.from(Instant.now().plus(Duration.ofDays(1)));
	}

}
