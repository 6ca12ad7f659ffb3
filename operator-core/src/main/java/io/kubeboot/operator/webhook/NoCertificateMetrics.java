package io.kubeboot.operator.webhook;

/**
 * The {@link CertificateMetrics} that record nothing.
 */
enum NoCertificateMetrics implements CertificateMetrics {

	INSTANCE;

	@Override
	public void read() {
	}

	@Override
	public void readError() {
	}

}
