package io.kubeboot.operator.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Who may read the operator's metrics, under {@code operator.metrics.auth}: the
 * Kubernetes API server authenticates the caller's bearer token (TokenReview) and
 * authorizes {@code get} on the path (SubjectAccessReview), as controller-runtime's
 * metrics filter and kube-rbac-proxy do. Checked by {@link OperatorPropertiesCheck}: the
 * core has no such settings.
 */
@ConfigurationProperties(prefix = "operator.metrics.auth", ignoreUnknownFields = false)
public class OperatorMetricsAuthProperties {

	/**
	 * Whether the Actuator endpoints listed in endpoints answer only callers whose bearer
	 * token the API server authenticates and who may get the path (RBAC nonResourceURLs),
	 * on the management port as on the application's. The health endpoint stays open
	 * unless listed.
	 */
	private boolean enabled;

	/**
	 * Ids of the Actuator endpoints guarded, such as prometheus, metrics or operator.
	 */
	private List<String> endpoints = new ArrayList<>(List.of("prometheus"));

	/**
	 * Audiences a token must be valid for, passed to the TokenReview, whose answer must
	 * name one of them; empty for the API server's own, which service account tokens
	 * carry.
	 */
	private List<String> audiences = new ArrayList<>();

	/**
	 * How long an authenticated token, and an access allowed to a user for a path and a
	 * verb, are remembered: a revoked token or RoleBinding stops working after at most
	 * this long. 0 asks the API server on every request.
	 */
	private Duration allowedCacheTtl = Duration.ofMinutes(1);

	/**
	 * How long a token not authenticated (401), and an access denied (403), are
	 * remembered: a new RoleBinding takes effect after at most this long. 0 asks the API
	 * server on every request.
	 */
	private Duration deniedCacheTtl = Duration.ofSeconds(10);

	/**
	 * How many authenticated tokens, and how many allowed accesses, are remembered at
	 * most; the least recently used is forgotten first. Refusals are remembered apart, at
	 * most 256 of each, so that they never push these out.
	 */
	private int cacheSize = 1024;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public List<String> getEndpoints() {
		return this.endpoints;
	}

	public void setEndpoints(List<String> endpoints) {
		this.endpoints = endpoints;
	}

	public List<String> getAudiences() {
		return this.audiences;
	}

	public void setAudiences(List<String> audiences) {
		this.audiences = audiences;
	}

	public Duration getAllowedCacheTtl() {
		return this.allowedCacheTtl;
	}

	public void setAllowedCacheTtl(Duration allowedCacheTtl) {
		this.allowedCacheTtl = allowedCacheTtl;
	}

	public Duration getDeniedCacheTtl() {
		return this.deniedCacheTtl;
	}

	public void setDeniedCacheTtl(Duration deniedCacheTtl) {
		this.deniedCacheTtl = deniedCacheTtl;
	}

	public int getCacheSize() {
		return this.cacheSize;
	}

	public void setCacheSize(int cacheSize) {
		this.cacheSize = cacheSize;
	}

}
