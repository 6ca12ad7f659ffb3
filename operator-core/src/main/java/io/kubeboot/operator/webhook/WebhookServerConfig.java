package io.kubeboot.operator.webhook;

import java.time.Duration;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;

/**
 * Where a {@link WebhookServer} listens and how long a webhook's code may take; its
 * {@link WebhookServer.Builder builder} checks every value it is given with this record,
 * whose constructor names every value at fault.
 *
 * @param bindAddress the address to listen on, an IP address or host name
 * @param port the port, between 0 (any free port) and 65535
 * @param handlerTimeout how long a webhook's code may take before the request is answered
 * with HTTP 500; positive
 */
public record WebhookServerConfig(String bindAddress, int port, Duration handlerTimeout) {

	/**
	 * The defaults: every address, controller-runtime's port 9443, and the API server's
	 * default webhook timeout of 10s.
	 */
	public static final WebhookServerConfig DEFAULT = new WebhookServerConfig("0.0.0.0", WebhookServer.DEFAULT_PORT,
			WebhookServer.DEFAULT_HANDLER_TIMEOUT);

	/**
	 * Creates the configuration.
	 * @throws InvalidConfigException naming every value that breaks the rules
	 */
	public WebhookServerConfig {
		ConfigChecks checks = new ConfigChecks();
		checks.notNull("bindAddress", bindAddress);
		checks.check(port >= 0 && port <= 65535, "port", port, "must be between 0 and 65535");
		checks.positive("handlerTimeout", handlerTimeout);
		checks.throwIfAny();
	}

}
