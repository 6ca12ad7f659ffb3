package io.kubeboot.sample.storage;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Bucket endpoints as the operator reads and shows them. A {@code spec.endpoint} may
 * carry secrets: credentials ({@code https://user:password@...}, which the validator
 * refuses, but the validator may not be installed) and signed query strings
 * ({@code ?X-Amz-Signature=...}). The operator sends them to the endpoint and nowhere
 * else: status messages, Events and logs show the endpoint {@link #redact redacted} to
 * {@code scheme://host:port/path}.
 */
final class Endpoints {

	private static final Pattern DOTTED_QUAD = Pattern
		.compile("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");

	private Endpoints() {
	}

	/**
	 * Parses an endpoint.
	 * @param endpoint {@code spec.endpoint}
	 * @return the endpoint, or {@code null} if it is no absolute http or https URL with a
	 * host
	 */
	static @Nullable URI parse(@Nullable String endpoint) {
		if (endpoint == null) {
			return null;
		}
		try {
			URI uri = new URI(endpoint);
			String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
			boolean http = scheme.equals("http") || scheme.equals("https");
			return (http && uri.getHost() != null && !uri.getHost().isEmpty()) ? uri : null;
		}
		catch (URISyntaxException ex) {
			return null;
		}
	}

	/**
	 * Shows an endpoint without its user-info, query and fragment:
	 * {@code https://user:pw@objects.example.com:9000/photos/health?X-Amz-Signature=abc}
	 * shows as {@code https://objects.example.com:9000/photos/health}.
	 * @param endpoint an endpoint {@link #parse parsed} before
	 * @return {@code scheme://host[:port]path}
	 */
	static String redact(URI endpoint) {
		StringBuilder shown = new StringBuilder(endpoint.getScheme()).append("://").append(endpoint.getHost());
		if (endpoint.getPort() != -1) {
			shown.append(':').append(endpoint.getPort());
		}
		if (endpoint.getRawPath() != null) {
			shown.append(endpoint.getRawPath());
		}
		return shown.toString();
	}

	/**
	 * The port a request to the endpoint goes to.
	 * @param endpoint an endpoint {@link #parse parsed} before
	 * @return its port, else the scheme's
	 */
	static int port(URI endpoint) {
		if (endpoint.getPort() != -1) {
			return endpoint.getPort();
		}
		return isHttps(endpoint) ? 443 : 80;
	}

	/**
	 * Whether the endpoint is served over TLS.
	 * @param endpoint an endpoint {@link #parse parsed} before
	 * @return whether its scheme is {@code https}
	 */
	static boolean isHttps(URI endpoint) {
		return "https".equalsIgnoreCase(endpoint.getScheme());
	}

	/**
	 * The host to resolve: {@link URI#getHost()} without the brackets of an IPv6 literal.
	 * @param endpoint an endpoint {@link #parse parsed} before
	 * @return the host name or address literal
	 */
	static String host(URI endpoint) {
		String host = endpoint.getHost();
		return (host.startsWith("[") && host.endsWith("]")) ? host.substring(1, host.length() - 1) : host;
	}

	/**
	 * The address an endpoint names literally, found without a DNS lookup.
	 * @param endpoint an endpoint {@link #parse parsed} before
	 * @return the address of an IPv4 ({@code 169.254.169.254}) or IPv6
	 * ({@code [fd00:ec2::254]}) literal, {@code null} for a host name
	 */
	static @Nullable InetAddress literalAddress(URI endpoint) {
		String host = endpoint.getHost();
		if (!host.startsWith("[") && !DOTTED_QUAD.matcher(host).matches()) {
			return null;
		}
		try {
			// a literal, bracketed if IPv6: the JDK parses it and never looks it up
			return InetAddress.getByName(host);
		}
		catch (UnknownHostException ex) {
			return null;
		}
	}

}
