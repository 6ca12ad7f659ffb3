package io.kubeboot.operator.webhook;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.RSAKeyGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import io.kubeboot.operator.config.internal.ConfigChecks;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.IPAddress;

/**
 * Generates a CA and a serving certificate it signs, in memory: the CA self-signed with
 * {@code CA:true} and {@code keyCertSign}, the serving certificate for {@code serverAuth}
 * with the given hosts as subject alternative names (IP addresses for hosts that are IP
 * literals, DNS names otherwise), both valid from a minute ago (clock skew) for a year.
 * Uses the JDK's security providers; registers none.
 */
final class SelfSignedCertificates {

	static final Duration VALIDITY = Duration.ofDays(365);

	static final Duration BACKDATING = Duration.ofMinutes(1);

	private static final SecureRandom random = new SecureRandom();

	/** The key types a certificate can be generated with. */
	enum KeyType {

		/** EC on the P-256 curve, signed with ECDSA over SHA-256. */
		EC_P256("EC", new ECGenParameterSpec("secp256r1"), "SHA256withECDSA", KeyUsage.digitalSignature),

		/** RSA with 2048-bit keys, signed with PKCS#1 v1.5 over SHA-256. */
		RSA_2048("RSA", new RSAKeyGenParameterSpec(2048, RSAKeyGenParameterSpec.F4), "SHA256withRSA",
				KeyUsage.digitalSignature | KeyUsage.keyEncipherment);

		private final String algorithm;

		private final AlgorithmParameterSpec parameters;

		private final String signatureAlgorithm;

		private final int servingKeyUsage;

		KeyType(String algorithm, AlgorithmParameterSpec parameters, String signatureAlgorithm, int servingKeyUsage) {
			this.algorithm = algorithm;
			this.parameters = parameters;
			this.signatureAlgorithm = signatureAlgorithm;
			this.servingKeyUsage = servingKeyUsage;
		}

		KeyPair generate() throws GeneralSecurityException {
			KeyPairGenerator generator = KeyPairGenerator.getInstance(this.algorithm);
			generator.initialize(this.parameters, random);
			return generator.generateKeyPair();
		}

	}

	private SelfSignedCertificates() {
	}

	/**
	 * Generates a CA and a serving certificate for hosts.
	 * @param hosts the DNS names and IP addresses the certificate is for, at least one
	 * @param keyType the key type of both certificates
	 * @return the serving certificate's key and chain (the serving certificate alone),
	 * with the CA's PEM as CA bundle
	 * @throws io.kubeboot.operator.config.InvalidConfigException if there is no host or
	 * one is blank
	 */
	static KeyMaterial generate(List<String> hosts, KeyType keyType) {
		Instant now = Instant.now();
		return generate(hosts, keyType, now.minus(BACKDATING), now.plus(VALIDITY));
	}

	/**
	 * Generates a CA and a serving certificate valid between two instants, for tests of
	 * certificates that expired or are not valid yet.
	 */
	static KeyMaterial generate(List<String> hosts, KeyType keyType, Instant validFrom, Instant validTo) {
		GeneralNames names = subjectAlternativeNames(hosts);
		Date notBefore = Date.from(validFrom);
		Date notAfter = Date.from(validTo);
		try {
			KeyPair caKeys = keyType.generate();
			X500Name caName = new X500Name("CN=kubeboot-webhook-ca");
			JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
			X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(caName, serialNumber(), notBefore, notAfter,
					caName, caKeys.getPublic())
				.addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
				.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
				.addExtension(Extension.subjectKeyIdentifier, false,
						extensions.createSubjectKeyIdentifier(caKeys.getPublic()));
			ContentSigner caSigner = new JcaContentSignerBuilder(keyType.signatureAlgorithm).build(caKeys.getPrivate());
			X509Certificate caCertificate = new JcaX509CertificateConverter().getCertificate(ca.build(caSigner));

			KeyPair servingKeys = keyType.generate();
			PublicKey servingPublic = servingKeys.getPublic();
			X509v3CertificateBuilder serving = new JcaX509v3CertificateBuilder(caName, serialNumber(), notBefore,
					notAfter, new X500Name("CN=kubeboot-webhook"), servingPublic)
				.addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
				.addExtension(Extension.keyUsage, true, new KeyUsage(keyType.servingKeyUsage))
				.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
				.addExtension(Extension.subjectAlternativeName, false, names)
				.addExtension(Extension.subjectKeyIdentifier, false,
						extensions.createSubjectKeyIdentifier(servingPublic))
				.addExtension(Extension.authorityKeyIdentifier, false,
						extensions.createAuthorityKeyIdentifier(caCertificate));
			X509Certificate servingCertificate = new JcaX509CertificateConverter()
				.getCertificate(serving.build(caSigner));
			return new KeyMaterial(servingKeys.getPrivate(), List.of(servingCertificate),
					PemFiles.toPem(List.of(caCertificate)));
		}
		catch (GeneralSecurityException | OperatorCreationException | CertIOException ex) {
			throw new IllegalStateException("Cannot generate a self-signed webhook certificate: " + ex.getMessage(),
					ex);
		}
	}

	private static GeneralNames subjectAlternativeNames(List<String> hosts) {
		ConfigChecks checks = new ConfigChecks();
		// the DNS names or IP addresses the API server calls the webhook at
		checks.check(!hosts.isEmpty(), "hosts", hosts, "must name at least one host");
		checks.check(hosts.stream().map(SelfSignedCertificates::unbracketed).noneMatch(String::isEmpty), "hosts", hosts,
				"must not contain a blank host");
		checks.throwIfAny();
		List<GeneralName> names = new ArrayList<>();
		for (String host : hosts) {
			String name = unbracketed(host);
			// a syntax check only: never a DNS lookup
			boolean ip = IPAddress.isValid(name);
			names.add(new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, name));
		}
		return new GeneralNames(names.toArray(GeneralName[]::new));
	}

	/**
	 * Returns a host without surrounding blanks and brackets: {@code ::1} for
	 * {@code [::1]}.
	 */
	private static String unbracketed(String host) {
		String name = host.strip();
		return (name.startsWith("[") && name.endsWith("]")) ? name.substring(1, name.length() - 1) : name;
	}

	private static BigInteger serialNumber() {
		return new BigInteger(127, random).add(BigInteger.ONE);
	}

}
