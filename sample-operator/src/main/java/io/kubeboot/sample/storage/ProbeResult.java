package io.kubeboot.sample.storage;

import java.time.Duration;

/**
 * What one probe of a bucket's endpoint found. The reason and message become the
 * {@code Available} condition, so they must not carry anything that differs from one
 * probe to the next (a duration, a time): equal results are not written again. Nor may
 * they carry the endpoint's user-info or query string: they name it
 * {@link Endpoints#redact redacted}.
 *
 * @param available whether the endpoint answered with 2xx or 3xx
 * @param reason why, in UpperCamelCase: one of the constants of this class
 * @param message details for a person to read
 * @param duration how long the probe took
 */
record ProbeResult(boolean available, String reason, String message, Duration duration) {

	/**
	 * The endpoint answered with a 2xx or 3xx status.
	 */
	static final String REACHABLE = "EndpointReachable";

	/**
	 * The endpoint answered with another status.
	 */
	static final String ERROR = "EndpointError";

	/**
	 * The endpoint did not answer: connection refused, timeout, unknown host, TLS error.
	 */
	static final String UNREACHABLE = "EndpointUnreachable";

	/**
	 * {@code spec.endpoint} is no absolute http(s) URL.
	 */
	static final String INVALID = "InvalidEndpoint";

	/**
	 * {@code spec.endpoint} names an address the operator does not probe (see
	 * {@link AddressPolicy}): nothing was sent.
	 */
	static final String NOT_ALLOWED = "EndpointNotAllowed";

}
