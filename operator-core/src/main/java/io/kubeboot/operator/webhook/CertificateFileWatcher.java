package io.kubeboot.operator.webhook;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a certificate file, its key file and an optional {@code ca.crt} next to the
 * certificate, and reads them again whenever they change: on its own daemon thread it
 * looks every check interval at the files' modification times, sizes and identities and,
 * when one differs, reads them; when their content differs from what is served it parses
 * them and hands the new material over.
 * <p>
 * A read that fails (half-written files during a rotation, a key that does not match the
 * certificate) leaves the served material as it is, logs one warning for each new reason
 * and is retried every tick until it succeeds. Every read is counted, every failed one
 * too; a read that fails while the files change under it is retried without counting as
 * failed.
 */
final class CertificateFileWatcher {

	// named after the public class: the one users configure logging for
	private static final Logger logger = LoggerFactory.getLogger(ServingCertificate.class);

	static final String THREAD_NAME = "webhook-certificate-watcher";

	private final Path certificateFile;

	private final Path keyFile;

	private final Path caFile;

	private final Duration checkInterval;

	private final CertificateMetrics metrics;

	private final CountDownLatch stopped = new CountDownLatch(1);

	// confined to the thread that reads: the creating one, then the watcher

	private FileStates seen;

	private byte[] servedDigest;

	private boolean retrying;

	private @Nullable String lastFailure;

	private @Nullable Thread thread;

	/**
	 * Reads the files for the first time.
	 * @param certificateFile the PEM certificate chain
	 * @param keyFile the PEM private key
	 * @param checkInterval the time between two looks at the files
	 * @param metrics counts the reads
	 * @return the watcher, not yet started, and the material it read
	 * @throws IllegalArgumentException naming the file at fault if the files cannot be
	 * read or do not hold a certificate and its key
	 */
	static Loaded load(Path certificateFile, Path keyFile, Duration checkInterval, CertificateMetrics metrics) {
		CertificateFileWatcher watcher = new CertificateFileWatcher(certificateFile, keyFile, checkInterval, metrics);
		for (int attempt = 1;; attempt++) {
			FileStates states = watcher.states();
			metrics.read();
			try {
				Contents contents = watcher.contents();
				KeyMaterial material = contents.parse();
				watcher.seen = states;
				watcher.servedDigest = contents.digest();
				return new Loaded(watcher, material);
			}
			catch (RuntimeException ex) {
				if (attempt < 3 && !watcher.states().equals(states)) {
					continue; // read in the middle of a rotation: read again
				}
				metrics.readError();
				throw ex;
			}
		}
	}

	private CertificateFileWatcher(Path certificateFile, Path keyFile, Duration checkInterval,
			CertificateMetrics metrics) {
		this.certificateFile = certificateFile;
		this.keyFile = keyFile;
		this.caFile = certificateFile.toAbsolutePath().resolveSibling("ca.crt");
		this.checkInterval = checkInterval;
		this.metrics = metrics;
		this.seen = FileStates.NONE;
		this.servedDigest = new byte[0];
	}

	/**
	 * Starts looking at the files on a daemon thread.
	 * @param served receives each material read after a change
	 */
	synchronized void start(Consumer<KeyMaterial> served) {
		if (this.thread == null && this.stopped.getCount() > 0) {
			Thread started = new Thread(() -> run(served), THREAD_NAME);
			started.setDaemon(true);
			this.thread = started;
			started.start();
		}
	}

	/**
	 * Stops looking at the files; waits a moment for a read in progress to end.
	 */
	void stop() {
		this.stopped.countDown();
		Thread running;
		synchronized (this) {
			running = this.thread;
		}
		if (running != null && running != Thread.currentThread()) {
			try {
				running.join(1000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void run(Consumer<KeyMaterial> served) {
		try {
			while (!this.stopped.await(this.checkInterval.toMillis(), TimeUnit.MILLISECONDS)) {
				try {
					check(served);
				}
				catch (RuntimeException ex) {
					logger.error("Webhook certificate check failed: certificate={}", this.certificateFile, ex);
				}
			}
		}
		catch (InterruptedException ex) {
			// stopped
		}
	}

	/**
	 * Reads the files if they changed since the last look, or if the last read failed.
	 * @param served receives the material read if it differs from the served one
	 */
	void check(Consumer<KeyMaterial> served) {
		FileStates states = states();
		if (states.equals(this.seen) && !this.retrying) {
			return;
		}
		this.metrics.read();
		try {
			Contents contents = contents();
			byte[] digest = contents.digest();
			if (Arrays.equals(digest, this.servedDigest)) {
				if (this.lastFailure != null) {
					logger.info("Webhook certificate files readable again, still serving the same one: certificate={}",
							this.certificateFile);
					this.lastFailure = null;
				}
			}
			else {
				KeyMaterial material = contents.parse();
				requireValidNow(material.leaf());
				served.accept(material);
				this.servedDigest = digest;
				this.lastFailure = null;
				logger.info("Webhook certificate reloaded: certificate={} key={} subject=\"{}\" notAfter={}",
						this.certificateFile, this.keyFile, material.leaf().getSubjectX500Principal().getName(),
						material.leaf().getNotAfter().toInstant());
			}
			this.retrying = false;
		}
		catch (RuntimeException ex) {
			this.retrying = true;
			if (!states().equals(states)) {
				// read in the middle of a rotation (the files were swapped one by one):
				// not a failure, read again next tick
				logger.debug("Webhook certificate files changed while read, reading them again: certificate={}",
						this.certificateFile);
				return;
			}
			this.metrics.readError();
			String reason = Objects.toString(ex.getMessage(), ex.toString());
			if (!reason.equals(this.lastFailure)) {
				logger.warn("Webhook certificate reload failed, serving the previous one: certificate={} error=\"{}\"",
						this.certificateFile, reason);
			}
			else {
				logger.debug("Webhook certificate reload failed again: certificate={} error=\"{}\"",
						this.certificateFile, reason);
			}
			this.lastFailure = reason;
		}
		finally {
			this.seen = states;
		}
	}

	/**
	 * Refuses a certificate that is not valid now: the API server would refuse every
	 * handshake with it, while the one served may still be valid (a rotation that wrote
	 * an old certificate back, a clock ahead of the issuer's).
	 */
	private void requireValidNow(X509Certificate leaf) {
		try {
			leaf.checkValidity();
		}
		catch (CertificateExpiredException | CertificateNotYetValidException ex) {
			throw new IllegalArgumentException(
					this.certificateFile + " holds a certificate that is not valid now (valid "
							+ leaf.getNotBefore().toInstant() + " to " + leaf.getNotAfter().toInstant() + ")",
					ex);
		}
	}

	private FileStates states() {
		return new FileStates(FileState.of(this.certificateFile), FileState.of(this.keyFile),
				FileState.of(this.caFile));
	}

	private Contents contents() {
		byte[] certificate = PemFiles.read(this.certificateFile, "certificate file");
		byte[] key = PemFiles.read(this.keyFile, "private key file");
		byte[] ca = Files.exists(this.caFile) ? PemFiles.read(this.caFile, "CA certificate file") : null;
		return new Contents(certificate, key, ca);
	}

	/**
	 * What was read at the start: the watcher and the material.
	 *
	 * @param watcher the watcher, to start
	 * @param material the material the files hold
	 */
	record Loaded(CertificateFileWatcher watcher, KeyMaterial material) {

	}

	private final class Contents {

		private final byte[] certificate;

		private final byte[] key;

		private final byte @Nullable [] ca;

		Contents(byte[] certificate, byte[] key, byte @Nullable [] ca) {
			this.certificate = certificate;
			this.key = key;
			this.ca = ca;
		}

		KeyMaterial parse() {
			Path caFile = (this.ca != null) ? CertificateFileWatcher.this.caFile : null;
			return PemFiles.parse(CertificateFileWatcher.this.certificateFile, this.certificate,
					CertificateFileWatcher.this.keyFile, this.key, caFile, this.ca);
		}

		byte[] digest() {
			try {
				MessageDigest digest = MessageDigest.getInstance("SHA-256");
				for (byte[] content : new byte[][] { this.certificate, this.key, this.ca }) {
					// each file's length first: no two different sets of files digest
					// alike
					int length = (content != null) ? content.length : -1;
					digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(length).array());
					if (content != null) {
						digest.update(content);
					}
				}
				return digest.digest();
			}
			catch (NoSuchAlgorithmException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

	/**
	 * What a look at one file sees, following symbolic links (a Secret volume's files are
	 * links into a directory that is swapped on update).
	 */
	private record FileState(boolean exists, @Nullable FileTime modified, long size, @Nullable Object fileKey) {

		static final FileState MISSING = new FileState(false, null, -1, null);

		static FileState of(Path file) {
			try {
				BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
				return new FileState(true, attributes.lastModifiedTime(), attributes.size(), attributes.fileKey());
			}
			catch (IOException ex) {
				return MISSING;
			}
		}

	}

	private record FileStates(FileState certificate, FileState key, FileState ca) {

		static final FileStates NONE = new FileStates(FileState.MISSING, FileState.MISSING, FileState.MISSING);

	}

}
