package io.kubeboot.operator.autoconfigure;

import java.util.regex.Pattern;

/**
 * Kubernetes' rules for names: namespaces are RFC 1123 labels, most other objects (such
 * as Leases) RFC 1123 subdomains.
 */
final class Dns1123 {

	static final String LABEL_RULE = "must be a lowercase RFC 1123 label: at most 63 characters of a-z, 0-9 and '-', "
			+ "starting and ending with a letter or digit";

	static final String SUBDOMAIN_RULE = "must be a lowercase RFC 1123 subdomain: at most 253 characters of a-z, 0-9, "
			+ "'-' and '.', starting and ending with a letter or digit";

	private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	private static final Pattern SUBDOMAIN = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	private Dns1123() {
	}

	static boolean isLabel(String value) {
		return LABEL.matcher(value).matches();
	}

	static boolean isSubdomain(String value) {
		return value.length() <= 253 && SUBDOMAIN.matcher(value).matches();
	}

}
