package io.kubeboot.operator.webhook;

/**
 * What a {@link ServingCertificate} reading its files reports: every attempt to read the
 * certificate and key, and every attempt that failed. A metrics binding turns them into
 * controller-runtime's {@code certwatcher_read_certificate_total} and
 * {@code certwatcher_read_certificate_errors_total}.
 * <p>
 * Called from the certificate's watcher thread and from the thread that creates it;
 * implementations must be thread-safe and quick.
 */
public interface CertificateMetrics {

	/**
	 * Called before each attempt to read the certificate and key files.
	 */
	void read();

	/**
	 * Called after an attempt to read the certificate and key files failed.
	 */
	void readError();

	/**
	 * Returns metrics that record nothing.
	 * @return metrics that record nothing
	 */
	static CertificateMetrics none() {
		return NoCertificateMetrics.INSTANCE;
	}

}
