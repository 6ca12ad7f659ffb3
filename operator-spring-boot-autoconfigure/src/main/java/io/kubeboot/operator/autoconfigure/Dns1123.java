package io.kubeboot.operator.autoconfigure;

import java.util.regex.Pattern;

/**
 * Kubernetes' rule for namespace names (an RFC 1123 label).
 */
final class Dns1123 {

	static final String LABEL_RULE = "must be a lowercase RFC 1123 label: at most 63 characters of a-z, 0-9 and '-', "
			+ "starting and ending with a letter or digit";

	private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	private Dns1123() {
	}

	static boolean isLabel(String value) {
		return LABEL.matcher(value).matches();
	}

}
