package io.kubeboot.operator.webhook;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One serving certificate as loaded: the private key, the certificate chain (the serving
 * certificate first) and, when known, the PEM of the CA that signed it.
 *
 * @param privateKey the key of the serving certificate
 * @param chain the serving certificate, then any intermediates; never empty
 * @param caBundlePem the PEM of the signing CA, or {@code null} when not known
 */
record KeyMaterial(PrivateKey privateKey, List<X509Certificate> chain, @Nullable String caBundlePem) {

	KeyMaterial {
		chain = List.copyOf(chain);
		if (chain.isEmpty()) {
			throw new IllegalArgumentException("a certificate chain needs at least the serving certificate");
		}
	}

	/**
	 * Returns the serving certificate.
	 * @return the first certificate of the chain
	 */
	X509Certificate leaf() {
		return this.chain.get(0);
	}

	@Override
	public String toString() {
		return "KeyMaterial[subject=" + leaf().getSubjectX500Principal().getName() + ", serial="
				+ leaf().getSerialNumber().toString(16) + "]";
	}

}
