package io.kubeboot.operator.autoconfigure;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.util.StringUtils;

/**
 * The namespaces of {@code operator.namespace} and {@code operator.namespaces}: the first
 * is one namespace of the second, and only one of them may be set, so that no namespace
 * is watched or left out by a guess at what was meant.
 */
final class NamespaceSettings {

	private NamespaceSettings() {
	}

	/**
	 * Returns the namespaces the properties name.
	 * @param namespace {@code operator.namespace}
	 * @param namespaces {@code operator.namespaces}
	 * @return the namespaces, empty for all
	 */
	static List<String> from(@Nullable String namespace, @Nullable List<String> namespaces) {
		if (namespaces != null && !namespaces.isEmpty()) {
			return List.copyOf(namespaces.stream().map((value) -> (value != null) ? value.trim() : "").toList());
		}
		return StringUtils.hasText(namespace) ? List.of(namespace.trim()) : List.of();
	}

	/**
	 * Returns the property that set each namespace of {@link #from}, under
	 * {@code operator}, for the settings the core names {@code namespaces[i]}.
	 * @param namespace {@code operator.namespace}
	 * @param namespaces {@code operator.namespaces}
	 * @return the properties by setting
	 */
	static Map<String, String> properties(@Nullable String namespace, @Nullable List<String> namespaces) {
		return (namespaces == null || namespaces.isEmpty()) && StringUtils.hasText(namespace)
				? Map.of("namespaces[0]", "namespace") : Map.of();
	}

	/**
	 * Adds a problem if both properties are set.
	 * @param problems the problems
	 * @param namespace {@code operator.namespace}
	 * @param namespaces {@code operator.namespaces}
	 */
	static void checkNotBoth(PropertyProblems problems, @Nullable String namespace, @Nullable List<String> namespaces) {
		if (StringUtils.hasText(namespace) && namespaces != null && !namespaces.isEmpty()) {
			problems.add("operator.namespaces", String.join(",", namespaces),
					"cannot be set together with operator.namespace (" + namespace + "): list every namespace "
							+ "to watch in operator.namespaces, and remove operator.namespace");
		}
	}

}
