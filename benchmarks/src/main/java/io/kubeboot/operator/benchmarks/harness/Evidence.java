package io.kubeboot.operator.benchmarks.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first few violations of each kind a check of the journals found, to print with the
 * journal lines that show them. Not thread-safe.
 */
final class Evidence {

	/**
	 * Violations kept per kind.
	 */
	static final int LIMIT = 10;

	private final Map<String, List<String>> byKind = new LinkedHashMap<>();

	/**
	 * Records a violation, unless {@value #LIMIT} of its kind were recorded already.
	 * @param kind what was violated
	 * @param details what shows it
	 */
	void add(String kind, String details) {
		List<String> lines = this.byKind.computeIfAbsent(kind, (key) -> new ArrayList<>());
		if (lines.size() < LIMIT) {
			lines.add(kind + ": " + details);
		}
	}

	/**
	 * Returns the violations recorded, kind by kind in the order each kind was first
	 * seen.
	 * @return one line each
	 */
	List<String> lines() {
		return this.byKind.values().stream().flatMap(List::stream).toList();
	}

}
