package io.kubeboot.operator.test;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The throw-away PKI of a control plane, generated with the {@code openssl} command line
 * tool: a self-signed CA, a TLS serving certificate signed by it for {@code 127.0.0.1}
 * and {@code localhost}, and an RSA key pair for signing service account tokens.
 */
final class Pki {

	private static final String CONFIG = """
			[ req ]
			distinguished_name = dn
			prompt = no

			[ dn ]
			CN = kubeboot-test

			[ ca_ext ]
			basicConstraints = critical, CA:TRUE
			keyUsage = critical, keyCertSign, cRLSign, digitalSignature
			subjectKeyIdentifier = hash

			[ server_ext ]
			basicConstraints = critical, CA:FALSE
			keyUsage = critical, digitalSignature, keyEncipherment
			extendedKeyUsage = serverAuth
			subjectKeyIdentifier = hash
			authorityKeyIdentifier = keyid, issuer
			subjectAltName = IP:127.0.0.1, DNS:localhost
			""";

	private final Path directory;

	private Pki(Path directory) {
		this.directory = directory;
	}

	Path caCertificate() {
		return this.directory.resolve("ca.crt");
	}

	Path caKey() {
		return this.directory.resolve("ca.key");
	}

	Path servingCertificate() {
		return this.directory.resolve("apiserver.crt");
	}

	Path servingKey() {
		return this.directory.resolve("apiserver.key");
	}

	Path serviceAccountKey() {
		return this.directory.resolve("sa.key");
	}

	Path serviceAccountPublicKey() {
		return this.directory.resolve("sa.pub");
	}

	byte[] caCertificatePem() {
		try {
			return Files.readAllBytes(caCertificate());
		}
		catch (IOException ex) {
			throw new ControlPlaneException("Cannot read " + caCertificate(), ex);
		}
	}

	/**
	 * Generates a new PKI into the given directory.
	 * @param directory the directory to create the files in (created if needed)
	 * @return the PKI
	 */
	static Pki generate(Path directory) {
		Pki pki = new Pki(directory);
		try {
			Files.createDirectories(directory);
			Path config = directory.resolve("openssl.cnf");
			Files.writeString(config, CONFIG, StandardCharsets.UTF_8);
			String serial = "0x" + new BigInteger(64, new SecureRandom()).toString(16);
			openssl(directory, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "3650", "-config",
					config.toString(), "-extensions", "ca_ext", "-subj", "/CN=kubeboot-test-ca", "-keyout",
					pki.caKey().toString(), "-out", pki.caCertificate().toString());
			Path csr = directory.resolve("apiserver.csr");
			openssl(directory, "req", "-new", "-newkey", "rsa:2048", "-nodes", "-sha256", "-config", config.toString(),
					"-subj", "/CN=kube-apiserver", "-keyout", pki.servingKey().toString(), "-out", csr.toString());
			openssl(directory, "x509", "-req", "-in", csr.toString(), "-CA", pki.caCertificate().toString(), "-CAkey",
					pki.caKey().toString(), "-set_serial", serial, "-sha256", "-days", "3650", "-extfile",
					config.toString(), "-extensions", "server_ext", "-out", pki.servingCertificate().toString());
			openssl(directory, "genrsa", "-out", pki.serviceAccountKey().toString(), "2048");
			openssl(directory, "rsa", "-in", pki.serviceAccountKey().toString(), "-pubout", "-out",
					pki.serviceAccountPublicKey().toString());
		}
		catch (IOException ex) {
			throw new ControlPlaneException("Cannot generate the control plane's certificates in " + directory, ex);
		}
		return pki;
	}

	private static void openssl(Path directory, String... arguments) throws IOException {
		List<String> command = new ArrayList<>();
		command.add("openssl");
		command.addAll(List.of(arguments));
		Path log = directory.resolve("openssl.log");
		ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
		Process process;
		try {
			process = builder.start();
		}
		catch (IOException ex) {
			throw new ControlPlaneException("Cannot run 'openssl' (is it installed and on the PATH? "
					+ ControlPlaneBinaries.INSTALL_SCRIPT + " installs it): " + ex.getMessage(), ex);
		}
		process.getOutputStream().close();
		try {
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new ControlPlaneException("Timed out running " + String.join(" ", command));
			}
		}
		catch (InterruptedException ex) {
			process.destroyForcibly();
			Thread.currentThread().interrupt();
			throw new ControlPlaneException("Interrupted while running " + String.join(" ", command), ex);
		}
		if (process.exitValue() != 0) {
			throw new ControlPlaneException("'" + String.join(" ", command) + "' failed with exit code "
					+ process.exitValue() + ":\n" + LogFiles.tail(log, 40));
		}
	}

}
