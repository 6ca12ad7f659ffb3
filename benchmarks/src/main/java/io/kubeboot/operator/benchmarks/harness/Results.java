package io.kubeboot.operator.benchmarks.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Every measured value, by metric, object count and implementation, in the order
 * measured.
 */
public final class Results {

	private final Map<Key, Map<Implementation, List<Double>>> values = new LinkedHashMap<>();

	private final Map<String, String> environment = new LinkedHashMap<>();

	private final List<String> microbenchmarks = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	private final List<String> sections = new ArrayList<>();

	private final Map<Implementation, String> skipped = new LinkedHashMap<>();

	synchronized void add(Metric metric, int size, Implementation implementation, double value) {
		this.values.computeIfAbsent(new Key(metric, size), (key) -> new LinkedHashMap<>())
			.computeIfAbsent(implementation, (key) -> new ArrayList<>())
			.add(value);
	}

	/**
	 * Returns every value of a metric at a size for an implementation.
	 * @param metric the metric
	 * @param size the object count
	 * @param implementation the implementation
	 * @return the values in the order measured, empty if none
	 */
	public synchronized List<Double> values(Metric metric, int size, Implementation implementation) {
		Map<Implementation, List<Double>> byImplementation = this.values.get(new Key(metric, size));
		List<Double> found = (byImplementation != null) ? byImplementation.get(implementation) : null;
		return (found != null) ? List.copyOf(found) : List.of();
	}

	/**
	 * Returns the median of a metric at a size for an implementation.
	 * @param metric the metric
	 * @param size the object count
	 * @param implementation the implementation
	 * @return the median, empty if nothing was measured
	 */
	public OptionalDouble median(Metric metric, int size, Implementation implementation) {
		return median(values(metric, size, implementation));
	}

	static OptionalDouble median(List<Double> values) {
		if (values.isEmpty()) {
			return OptionalDouble.empty();
		}
		List<Double> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		int middle = sorted.size() / 2;
		return OptionalDouble
			.of((sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2);
	}

	synchronized Map<Key, Map<Implementation, List<Double>>> all() {
		Map<Key, Map<Implementation, List<Double>>> copy = new LinkedHashMap<>();
		this.values.forEach((key, byImplementation) -> copy.put(key, new LinkedHashMap<>(byImplementation)));
		return copy;
	}

	synchronized void environment(String name, String value) {
		this.environment.put(name, value);
	}

	synchronized Map<String, String> environment() {
		return new LinkedHashMap<>(this.environment);
	}

	synchronized void microbenchmark(String row) {
		this.microbenchmarks.add(row);
	}

	/**
	 * Returns the microbenchmark results, as Markdown table rows.
	 * @return the rows
	 */
	public synchronized List<String> microbenchmarks() {
		return List.copyOf(this.microbenchmarks);
	}

	/**
	 * Adds a section of the report that a scenario writes itself, in Markdown.
	 * @param markdown the section, its heading included
	 */
	synchronized void section(String markdown) {
		this.sections.add(markdown);
	}

	/**
	 * Returns the sections scenarios wrote themselves.
	 * @return the sections, in Markdown
	 */
	public synchronized List<String> sections() {
		return List.copyOf(this.sections);
	}

	synchronized void skip(Implementation implementation, String reason) {
		this.skipped.put(implementation, reason);
	}

	/**
	 * Returns the implementations that were selected but could not run, with the reason.
	 * @return the reasons by implementation
	 */
	public synchronized Map<Implementation, String> skipped() {
		return new LinkedHashMap<>(this.skipped);
	}

	synchronized void note(String note) {
		this.notes.add(note);
	}

	synchronized List<String> notes() {
		return List.copyOf(this.notes);
	}

	/**
	 * A metric at an object count.
	 *
	 * @param metric the metric
	 * @param size the object count
	 */
	record Key(Metric metric, int size) {
	}

}
