package io.kubeboot.sample;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A scrape of {@code /actuator/prometheus} in the Prometheus text format: the name of
 * every sample ({@code controller_runtime_reconcile_time_seconds_bucket},
 * {@code workqueue_depth}, ...) and the label names its series have, as Prometheus stores
 * them.
 */
final class PrometheusScrape {

	private final Map<String, Set<String>> labels;

	private PrometheusScrape(Map<String, Set<String>> labels) {
		this.labels = labels;
	}

	/**
	 * Reads a scrape.
	 * @param text the text format: {@code # HELP} and {@code # TYPE} lines and samples
	 * such as {@code name{a="x",b="y"} 1.0}
	 * @return the scrape
	 * @throws IllegalArgumentException if a sample's labels do not end
	 */
	static PrometheusScrape parse(String text) {
		Map<String, Set<String>> labels = new TreeMap<>();
		for (String line : text.lines().toList()) {
			if (line.isBlank() || line.startsWith("#")) {
				continue;
			}
			int end = 0;
			while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
				end++;
			}
			Set<String> names = labels.computeIfAbsent(line.substring(0, end), (name) -> new TreeSet<>());
			if (end < line.length() && line.charAt(end) == '{') {
				readLabels(line, end + 1, names);
			}
		}
		return new PrometheusScrape(labels);
	}

	private static void readLabels(String line, int start, Set<String> names) {
		int position = start;
		while (true) {
			if (position >= line.length()) {
				throw new IllegalArgumentException("Labels that do not end: " + line);
			}
			char c = line.charAt(position);
			if (c == '}') {
				return;
			}
			if (c == ',' || c == ' ') {
				position++;
				continue;
			}
			int equals = line.indexOf('=', position);
			if (equals < 0 || equals + 1 >= line.length() || line.charAt(equals + 1) != '"') {
				throw new IllegalArgumentException("A label without a quoted value: " + line);
			}
			names.add(line.substring(position, equals));
			position = equals + 2;
			while (position < line.length() && line.charAt(position) != '"') {
				position += (line.charAt(position) == '\\') ? 2 : 1;
			}
			position++;
		}
	}

	/**
	 * Whether the scrape has samples of a name.
	 * @param name the sample name, such as
	 * {@code controller_runtime_reconcile_time_seconds_bucket}
	 * @return whether it does
	 */
	boolean exports(String name) {
		return this.labels.containsKey(name);
	}

	/**
	 * The label names of the samples of a name, over all its series.
	 * @param name the sample name
	 * @return the label names, empty for a name the scrape does not have
	 */
	Set<String> labels(String name) {
		return this.labels.getOrDefault(name, Set.of());
	}

	/**
	 * Every sample name.
	 * @return the names, sorted
	 */
	Set<String> names() {
		return this.labels.keySet();
	}

}
