package io.kubeboot.operator.client.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A parsed label selector in Kubernetes' string form, for matching cached objects the way
 * the API server would: {@code k=v}, {@code k==v}, {@code k!=v}, {@code k}, {@code !k},
 * {@code k in (a,b)}, {@code k notin (a,b)}, separated by commas.
 */
public final class LabelSelector {

	private static final Pattern IN = Pattern.compile("^(\\S+)\\s+(in|notin)\\s+\\((.*)\\)$");

	private final List<Predicate<Map<String, String>>> requirements;

	private LabelSelector(List<Predicate<Map<String, String>>> requirements) {
		this.requirements = requirements;
	}

	/**
	 * Parses a selector.
	 * @param selector the selector, empty for one that matches everything
	 * @return the parsed selector
	 * @throws IllegalArgumentException naming the selector if it cannot be parsed
	 */
	public static LabelSelector parse(String selector) {
		List<Predicate<Map<String, String>>> requirements = new ArrayList<>();
		for (String part : split(selector)) {
			String requirement = part.trim();
			if (requirement.isEmpty()) {
				continue;
			}
			requirements.add(requirement(requirement, selector));
		}
		return new LabelSelector(requirements);
	}

	/**
	 * Tells whether labels match.
	 * @param labels an object's labels, {@code null} for none
	 * @return whether they match every requirement
	 */
	public boolean matches(@Nullable Map<String, String> labels) {
		Map<String, String> present = (labels != null) ? labels : Map.of();
		return this.requirements.stream().allMatch((requirement) -> requirement.test(present));
	}

	private static Predicate<Map<String, String>> requirement(String requirement, String selector) {
		Matcher in = IN.matcher(requirement);
		if (in.matches()) {
			String key = in.group(1);
			Set<String> values = Set.copyOf(List.of(in.group(3).trim().split("\\s*,\\s*")));
			return "in".equals(in.group(2)) ? (labels) -> values.contains(labels.get(key))
					: (labels) -> !values.contains(labels.get(key));
		}
		int notEquals = requirement.indexOf("!=");
		if (notEquals > 0) {
			String key = requirement.substring(0, notEquals).trim();
			String value = requirement.substring(notEquals + 2).trim();
			return (labels) -> !value.equals(labels.get(key));
		}
		int equals = requirement.indexOf('=');
		if (equals > 0) {
			String key = requirement.substring(0, equals).trim();
			String value = requirement.substring(requirement.startsWith("==", equals) ? equals + 2 : equals + 1).trim();
			return (labels) -> value.equals(labels.get(key));
		}
		if (requirement.startsWith("!")) {
			String key = requirement.substring(1).trim();
			return (labels) -> !labels.containsKey(key);
		}
		if (requirement.matches("[A-Za-z0-9./_-]+")) {
			return (labels) -> labels.containsKey(requirement);
		}
		throw new IllegalArgumentException("Cannot parse label selector '" + selector + "' at '" + requirement + "'");
	}

	/** Splits at commas outside parentheses. */
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

}
