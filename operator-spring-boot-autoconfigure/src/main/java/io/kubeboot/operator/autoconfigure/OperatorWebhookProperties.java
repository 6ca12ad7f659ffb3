package io.kubeboot.operator.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.webhook.ServingCertificate;
import io.kubeboot.operator.webhook.WebhookServerConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The webhook server, started when the application has AdmissionValidator, Defaulter or
 * Conversion beans. The values follow the rules of {@link WebhookServerConfig} and of
 * {@link ServingCertificate}.
 */
@ConfigurationProperties(prefix = "operator.webhook", ignoreUnknownFields = false)
public class OperatorWebhookProperties {

	/**
	 * Port of the webhook server (HTTPS), apart from the application's and Actuator's.
	 */
	private int port = 9443;

	/**
	 * Address the webhook server listens on.
	 */
	private String bindAddress = "0.0.0.0";

	/**
	 * How long a validator, defaulter or conversion may take before the request is
	 * answered with HTTP 500 and the webhook configuration's failurePolicy decides. Keep
	 * it below the configuration's timeoutSeconds.
	 */
	private Duration handlerTimeout = Duration.ofSeconds(10);

	/**
	 * Directory of the serving certificate and key, where the certificate Secret is
	 * mounted (cert-manager's tls.crt and tls.key).
	 */
	private String certDir = "/tmp/k8s-webhook-server/serving-certs";

	/**
	 * File name of the certificate (chain) in cert-dir, PEM.
	 */
	private String certName = "tls.crt";

	/**
	 * File name of the private key in cert-dir, PEM.
	 */
	private String keyName = "tls.key";

	/**
	 * How often the certificate files are checked for a rotation; a new certificate is
	 * served without restart.
	 */
	private Duration certCheckInterval = Duration.ofSeconds(10);

	/**
	 * Whether to serve a certificate generated at start-up, signed by a CA generated with
	 * it, instead of the files: for local runs and tests (the CA bundle is logged at
	 * start-up and available from WebhookServer.certificate()).
	 */
	private boolean selfSigned = false;

	/**
	 * Host names and IP addresses of the self-signed certificate.
	 */
	private List<String> selfSignedHosts = new ArrayList<>(List.of("localhost", "127.0.0.1"));

	public int getPort() {
		return this.port;
	}

	public void setPort(int port) {
		this.port = port;
	}

	public String getBindAddress() {
		return this.bindAddress;
	}

	public void setBindAddress(String bindAddress) {
		this.bindAddress = bindAddress;
	}

	public Duration getHandlerTimeout() {
		return this.handlerTimeout;
	}

	public void setHandlerTimeout(Duration handlerTimeout) {
		this.handlerTimeout = handlerTimeout;
	}

	public String getCertDir() {
		return this.certDir;
	}

	public void setCertDir(String certDir) {
		this.certDir = certDir;
	}

	public String getCertName() {
		return this.certName;
	}

	public void setCertName(String certName) {
		this.certName = certName;
	}

	public String getKeyName() {
		return this.keyName;
	}

	public void setKeyName(String keyName) {
		this.keyName = keyName;
	}

	public Duration getCertCheckInterval() {
		return this.certCheckInterval;
	}

	public void setCertCheckInterval(Duration certCheckInterval) {
		this.certCheckInterval = certCheckInterval;
	}

	public boolean isSelfSigned() {
		return this.selfSigned;
	}

	public void setSelfSigned(boolean selfSigned) {
		this.selfSigned = selfSigned;
	}

	public List<String> getSelfSignedHosts() {
		return this.selfSignedHosts;
	}

	public void setSelfSignedHosts(List<String> selfSignedHosts) {
		this.selfSignedHosts = selfSignedHosts;
	}

}
