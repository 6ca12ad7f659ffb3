package io.kubeboot.operator.benchmarks.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sections of the previous {@code BENCHMARKS.md} of the scenarios a run leaves out
 * ({@code -Dbenchmark.scenarios}), so that rerunning some scenarios keeps the others'
 * figures in the document, each marked with the date of the run that measured it, and
 * their rows of the targets table with them. The previous run's every-run table is not
 * kept (it is in the repository's history).
 */
final class CarriedOver {

	/** The heading each scenario's section starts with. */
	private static final Map<String, String> HEADINGS = Map.of("drain", "## Cold drain", "live",
			"## Live changes during a cold drain", "burst", "## Burst", "memory", "## Memory", "failover",
			"## Failover", CacheMemory.SCENARIO, "## Heap per cached object", StreamedLists.SCENARIO,
			"## Streamed and paged lists", ShardedDrain.SCENARIO, "## Sharded", "jmh",
			"## Work queue microbenchmarks (JMH)");

	/** How each scenario's rows of the targets table start. */
	private static final Map<String, String> TARGET_ROWS = Map.of("live", "| live change during a cold drain",
			"failover", "| failover after", "memory", "| heap per cached object", "drain", "| cold drain N=");

	private static final Pattern DATE = Pattern.compile("^\\| date \\| (\\S+?)(T.*)? \\|$", Pattern.MULTILINE);

	private final String date;

	private final Map<String, String> sections;

	private final List<String> targetRows;

	private CarriedOver(String date, Map<String, String> sections, List<String> targetRows) {
		this.date = date;
		this.sections = sections;
		this.targetRows = targetRows;
	}

	/**
	 * Reads what a run leaves out from the previous report.
	 * @param previous the previous {@code BENCHMARKS.md}; none is no error
	 * @param config the run
	 * @return the sections to carry over, empty if the run leaves nothing out or there is
	 * no previous report
	 * @throws IOException if the report cannot be read
	 */
	static CarriedOver from(Path previous, BenchmarkConfig config) throws IOException {
		if (config.smoke() || !Files.isRegularFile(previous)) {
			return new CarriedOver("", Map.of(), List.of());
		}
		String text = Files.readString(previous, StandardCharsets.UTF_8);
		Matcher date = DATE.matcher(text);
		String when = date.find() ? date.group(1) : "an earlier date";
		List<String> parts = split(text);
		Map<String, String> sections = new LinkedHashMap<>();
		List<String> rows = new ArrayList<>();
		for (Map.Entry<String, String> scenario : HEADINGS.entrySet()) {
			if (config.runs(scenario.getKey())) {
				continue;
			}
			for (String part : parts) {
				if (part.startsWith(scenario.getValue())) {
					sections.merge(scenario.getKey(), part, String::concat);
				}
			}
		}
		for (String part : parts) {
			if (part.startsWith("## Targets")) {
				for (String line : part.split("\n")) {
					TARGET_ROWS.forEach((scenario, prefix) -> {
						if (!config.runs(scenario) && line.startsWith(prefix)) {
							rows.add(line.replaceFirst("^\\| ([^|]*?) \\|", "| $1 (run of " + when + ") |"));
						}
					});
				}
			}
		}
		return new CarriedOver(when, sections, rows);
	}

	/**
	 * Appends the carried-over section of a scenario, if there is one.
	 * @param out the report
	 * @param scenario the scenario
	 */
	void appendSection(StringBuilder out, String scenario) {
		String section = this.sections.get(scenario);
		if (section == null) {
			return;
		}
		int heading = section.indexOf('\n') + 1;
		out.append(section, 0, heading)
			.append("\n*Not rerun: the figures of the run of ")
			.append(this.date)
			.append(" (`-Dbenchmark.scenarios` left this scenario out).*\n")
			.append(section.substring(heading));
	}

	/**
	 * Returns the carried-over rows of the targets table.
	 * @return the rows
	 */
	List<String> targetRows() {
		return this.targetRows;
	}

	/**
	 * Splits a report at its second-level headings; each part starts with its heading and
	 * ends with the blank line before the next.
	 */
	private static List<String> split(String text) {
		List<String> parts = new ArrayList<>();
		int start = text.indexOf("\n## ");
		while (start >= 0) {
			int next = text.indexOf("\n## ", start + 1);
			parts.add(text.substring(start + 1, (next >= 0) ? next + 1 : text.length()));
			start = next;
		}
		return parts;
	}

}
