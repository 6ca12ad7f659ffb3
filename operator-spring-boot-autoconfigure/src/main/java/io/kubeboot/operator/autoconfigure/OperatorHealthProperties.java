package io.kubeboot.operator.autoconfigure;

import java.time.Duration;

import io.kubeboot.operator.manager.ManagerConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Health of the manager: liveness (restart me) and readiness (serve me). The watch
 * failure threshold follows the rule of {@link ManagerConfig}.
 */
@ConfigurationProperties(prefix = "operator.health", ignoreUnknownFields = false)
public class OperatorHealthProperties {

	/**
	 * How often the manager's health is evaluated and mapped onto the application's
	 * liveness and readiness states.
	 */
	private Duration probeInterval = Duration.ofSeconds(1);

	/**
	 * How long an informer's list or watch may keep failing, or the API server leave the
	 * cache's probe unanswered, before readiness goes down.
	 */
	private Duration watchFailureThreshold = Duration.ofSeconds(10);

	/**
	 * Whether to serve controller-runtime's /healthz and /readyz on the application's
	 * port (servlet web applications).
	 */
	private boolean healthzEnabled = true;

	/**
	 * Whether readiness covers the informers of the namespaces of operator.namespaces:
	 * waits for every namespace of the set to be cached, a namespace added while the
	 * operator runs included, and goes down while one of their watches fails. Turn it off
	 * for an operator that serves admission or conversion webhooks, so that adding a
	 * namespace, or one that RBAC refuses, does not take every replica out of its
	 * Service; the namespace's requests still wait for its caches.
	 */
	private boolean namespacesInReadiness = true;

	public Duration getProbeInterval() {
		return this.probeInterval;
	}

	public void setProbeInterval(Duration probeInterval) {
		this.probeInterval = probeInterval;
	}

	public Duration getWatchFailureThreshold() {
		return this.watchFailureThreshold;
	}

	public void setWatchFailureThreshold(Duration watchFailureThreshold) {
		this.watchFailureThreshold = watchFailureThreshold;
	}

	public boolean isHealthzEnabled() {
		return this.healthzEnabled;
	}

	public void setHealthzEnabled(boolean healthzEnabled) {
		this.healthzEnabled = healthzEnabled;
	}

	public boolean isNamespacesInReadiness() {
		return this.namespacesInReadiness;
	}

	public void setNamespacesInReadiness(boolean namespacesInReadiness) {
		this.namespacesInReadiness = namespacesInReadiness;
	}

}
