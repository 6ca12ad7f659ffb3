package io.kubeboot.operator.webhook;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.jspecify.annotations.Nullable;

/**
 * Reads a serving certificate from PEM: a certificate chain (the serving certificate
 * first, as cert-manager writes {@code tls.crt}), a private key in PKCS#8
 * ({@code BEGIN PRIVATE KEY}), PKCS#1 RSA ({@code BEGIN RSA PRIVATE KEY}) or SEC1 EC
 * ({@code BEGIN EC PRIVATE KEY}) form, and optionally a CA bundle ({@code ca.crt}). Every
 * failure is an {@link IllegalArgumentException} whose message names the file and says
 * what was expected. Uses the JDK's security providers; registers none.
 */
final class PemFiles {

	private static final String EXPECTED_CERTIFICATE = "expected one or more -----BEGIN CERTIFICATE----- "
			+ "blocks, the serving certificate first";

	private static final String EXPECTED_KEY = "expected an unencrypted PKCS#8 (-----BEGIN PRIVATE KEY-----), "
			+ "PKCS#1 RSA (-----BEGIN RSA PRIVATE KEY-----) or SEC1 EC (-----BEGIN EC PRIVATE KEY-----) key";

	private PemFiles() {
	}

	/**
	 * Reads a file whole.
	 * @param file the file
	 * @param description what the file holds, for messages: "certificate file", ...
	 * @return the file's bytes
	 * @throws IllegalArgumentException naming the file if it is missing, not a regular
	 * file or unreadable
	 */
	static byte[] read(Path file, String description) {
		if (!Files.exists(file)) {
			throw new IllegalArgumentException(missing(file, description));
		}
		if (!Files.isRegularFile(file)) {
			throw new IllegalArgumentException("Webhook " + description + " " + file + " is not a regular file: "
					+ "expected the PEM file itself (a Secret mounted as a volume has one file per key)");
		}
		try {
			return Files.readAllBytes(file);
		}
		catch (NoSuchFileException ex) {
			throw new IllegalArgumentException(missing(file, description), ex);
		}
		catch (IOException ex) {
			throw new IllegalArgumentException("Webhook " + description + " " + file + " cannot be read (" + ex
					+ "): the operator's user needs read access to it", ex);
		}
	}

	private static String missing(Path file, String description) {
		return "Webhook " + description + " " + file + " does not exist: mount the Secret with tls.crt and tls.key "
				+ "there, or point the webhook server at the files that hold its certificate and private key";
	}

	/**
	 * Parses a certificate chain, a private key and optionally a CA bundle and checks
	 * that the key belongs to the first certificate.
	 * @param certificateFile the certificate file, for messages
	 * @param certificatePem the certificate file's bytes
	 * @param keyFile the key file, for messages
	 * @param keyPem the key file's bytes
	 * @param caFile the CA bundle file, for messages, or {@code null} if there is none
	 * @param caPem the CA bundle file's bytes, or {@code null} if there is none
	 * @return the key material, its CA bundle the CA file's text
	 * @throws IllegalArgumentException naming the file at fault
	 */
	static KeyMaterial parse(Path certificateFile, byte[] certificatePem, Path keyFile, byte[] keyPem,
			@Nullable Path caFile, byte @Nullable [] caPem) {
		List<X509Certificate> chain = certificates(certificateFile, "certificate file", certificatePem);
		PrivateKey key = privateKey(keyFile, keyPem);
		checkPair(key, chain.get(0), keyFile, certificateFile);
		String caBundle = null;
		if (caFile != null && caPem != null) {
			certificates(caFile, "CA certificate file", caPem);
			caBundle = new String(caPem, StandardCharsets.US_ASCII);
		}
		return new KeyMaterial(key, chain, caBundle);
	}

	static List<X509Certificate> certificates(Path file, String description, byte[] pem) {
		List<X509Certificate> certificates = new ArrayList<>();
		JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
		try (PEMParser parser = parser(pem)) {
			for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
				if (object instanceof X509CertificateHolder holder) {
					certificates.add(converter.getCertificate(holder));
				}
			}
		}
		catch (IOException | GeneralSecurityException | RuntimeException ex) {
			throw new IllegalArgumentException("Webhook " + description + " " + file + " is not valid PEM ("
					+ ex.getMessage() + "): " + EXPECTED_CERTIFICATE, ex);
		}
		if (certificates.isEmpty()) {
			throw new IllegalArgumentException(
					"Webhook " + description + " " + file + " holds no PEM certificate: " + EXPECTED_CERTIFICATE);
		}
		return certificates;
	}

	static PrivateKey privateKey(Path file, byte[] pem) {
		Object found = null;
		try (PEMParser parser = parser(pem)) {
			// skips EC PARAMETERS before a SEC1 key and certificates in a combined file
			for (Object object = parser.readObject(); object != null && found == null; object = parser.readObject()) {
				if (object instanceof PrivateKeyInfo || object instanceof PEMKeyPair
						|| object instanceof PEMEncryptedKeyPair || object instanceof PKCS8EncryptedPrivateKeyInfo) {
					found = object;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			throw notValidKey(file, ex);
		}
		if (found == null) {
			throw new IllegalArgumentException(
					"Webhook private key file " + file + " holds no PEM private key: " + EXPECTED_KEY);
		}
		if (found instanceof PEMEncryptedKeyPair || found instanceof PKCS8EncryptedPrivateKeyInfo) {
			throw new IllegalArgumentException(
					"Webhook private key file " + file + " holds an encrypted key: " + EXPECTED_KEY);
		}
		// PKCS#1 RSA and SEC1 EC keys are key pairs, PKCS#8 keys private key infos
		PrivateKeyInfo info = (found instanceof PEMKeyPair pair) ? pair.getPrivateKeyInfo() : (PrivateKeyInfo) found;
		try {
			return new JcaPEMKeyConverter().getPrivateKey(info);
		}
		catch (IOException | RuntimeException ex) {
			throw notValidKey(file, ex);
		}
	}

	private static IllegalArgumentException notValidKey(Path file, Exception ex) {
		return new IllegalArgumentException(
				"Webhook private key file " + file + " is not valid PEM (" + ex.getMessage() + "): " + EXPECTED_KEY,
				ex);
	}

	/**
	 * Checks that a private key belongs to a certificate by signing a random challenge
	 * with the key and verifying it with the certificate's public key.
	 */
	private static void checkPair(PrivateKey key, X509Certificate certificate, Path keyFile, Path certificateFile) {
		String algorithm = signatureAlgorithm(key);
		if (algorithm == null) {
			throw new IllegalArgumentException("Webhook private key file " + keyFile + " holds a " + key.getAlgorithm()
					+ " key: expected an RSA, EC or EdDSA key");
		}
		boolean pair;
		try {
			byte[] challenge = new byte[32];
			new SecureRandom().nextBytes(challenge);
			Signature signer = Signature.getInstance(algorithm);
			signer.initSign(key);
			signer.update(challenge);
			byte[] signature = signer.sign();
			Signature verifier = Signature.getInstance(algorithm);
			verifier.initVerify(certificate.getPublicKey());
			verifier.update(challenge);
			pair = verifier.verify(signature);
		}
		catch (GeneralSecurityException ex) {
			pair = false; // e.g. an EC key and an RSA certificate
		}
		if (!pair) {
			throw new IllegalArgumentException("Webhook private key file " + keyFile
					+ " does not match the certificate in " + certificateFile + " (subject "
					+ certificate.getSubjectX500Principal().getName() + "): the key must be the private key of the "
					+ "first certificate in the file, as in a kubernetes.io/tls Secret's tls.key and tls.crt");
		}
	}

	private static @Nullable String signatureAlgorithm(PrivateKey key) {
		return switch (key.getAlgorithm()) {
			case "RSA" -> "SHA256withRSA";
			case "EC" -> "SHA256withECDSA";
			case "EdDSA", "Ed25519", "Ed448" -> "EdDSA";
			default -> null;
		};
	}

	private static PEMParser parser(byte[] pem) {
		return new PEMParser(new StringReader(new String(pem, StandardCharsets.US_ASCII)));
	}

	/**
	 * Writes certificates as PEM.
	 * @param certificates the certificates
	 * @return their PEM, one block each
	 */
	static String toPem(List<X509Certificate> certificates) {
		StringWriter text = new StringWriter();
		try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
			for (X509Certificate certificate : certificates) {
				writer.writeObject(certificate);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return text.toString();
	}

}
