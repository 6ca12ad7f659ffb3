package io.kubeboot.operator.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Label selectors in Kubernetes' string form ({@code k=v}, {@code k==v}, {@code k!=v},
 * {@code k in (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k}, separated by commas),
 * as the {@code matchExpressions} of a {@code LabelSelector}.
 */
final class LabelSelectors {

	private static final Pattern SET = Pattern.compile("(\\S+)\\s+(in|notin)\\s*\\(([^()]*)\\)");

	private static final Pattern KEY = Pattern
		.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
				+ "[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

	private static final Pattern VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");

	private LabelSelectors() {
	}

	/**
	 * Parses a selector.
	 * @param selector the selector, empty for none
	 * @param what what it is, for the message ({@code @Webhook of vpod.core.kubeboot.io:
	 * namespaceSelector})
	 * @return its requirements, in order
	 * @throws IllegalArgumentException naming it if it cannot be parsed
	 */
	static List<Requirement> parse(String selector, String what) {
		List<Requirement> requirements = new ArrayList<>();
		for (String part : split(selector)) {
			String requirement = part.strip();
			if (!requirement.isEmpty()) {
				requirements.add(requirement(requirement, what, selector));
			}
		}
		return List.copyOf(requirements);
	}

	private static Requirement requirement(String requirement, String what, String selector) {
		Matcher set = SET.matcher(requirement);
		if (set.matches()) {
			List<String> values = new ArrayList<>();
			for (String value : set.group(3).split(",")) {
				values.add(value.strip());
			}
			return checked(set.group(1), "in".equals(set.group(2)) ? "In" : "NotIn", values, what, selector);
		}
		int notEquals = requirement.indexOf("!=");
		if (notEquals > 0) {
			return checked(requirement.substring(0, notEquals).strip(), "NotIn",
					List.of(requirement.substring(notEquals + 2).strip()), what, selector);
		}
		int equals = requirement.indexOf('=');
		if (equals > 0) {
			int value = requirement.startsWith("==", equals) ? equals + 2 : equals + 1;
			return checked(requirement.substring(0, equals).strip(), "In",
					List.of(requirement.substring(value).strip()), what, selector);
		}
		if (requirement.startsWith("!")) {
			return checked(requirement.substring(1).strip(), "DoesNotExist", List.of(), what, selector);
		}
		return checked(requirement, "Exists", List.of(), what, selector);
	}

	private static Requirement checked(String key, String operator, List<String> values, String what, String selector) {
		if (!KEY.matcher(key).matches() || key.length() > 316) {
			throw new IllegalArgumentException(what + " '" + selector + "': '" + key + "' is no label key");
		}
		for (String value : values) {
			if (!VALUE.matcher(value).matches() || value.length() > 63) {
				throw new IllegalArgumentException(what + " '" + selector + "': '" + value + "' is no label value");
			}
		}
		if (values.isEmpty() && (operator.equals("In") || operator.equals("NotIn"))) {
			throw new IllegalArgumentException(what + " '" + selector + "': " + key + " names no value");
		}
		return new Requirement(key, operator, values);
	}

	/**
	 * Splits at the commas outside parentheses.
	 */
	private static List<String> split(String selector) {
		List<String> parts = new ArrayList<>();
		int depth = 0;
		int start = 0;
		for (int i = 0; i < selector.length(); i++) {
			char c = selector.charAt(i);
			if (c == '(') {
				depth++;
			}
			else if (c == ')') {
				depth--;
			}
			else if (c == ',' && depth == 0) {
				parts.add(selector.substring(start, i));
				start = i + 1;
			}
		}
		parts.add(selector.substring(start));
		return parts;
	}

	/**
	 * One requirement of a selector, as a {@code matchExpressions} item.
	 *
	 * @param key the label's key
	 * @param operator {@code In}, {@code NotIn}, {@code Exists} or {@code DoesNotExist}
	 * @param values the values, none for {@code Exists} and {@code DoesNotExist}
	 */
	record Requirement(String key, String operator, List<String> values) {

		Requirement {
			values = List.copyOf(values);
		}

	}

}
