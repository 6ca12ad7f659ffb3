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
 * figures in the document, each marked with the date and time of the run that measured
 * it, and their rows of the targets table and of the every-run table with them.
 */
final class CarriedOver {

	/** How the headings of each scenario's sections start. */
	private static final Map<String, List<String>> HEADINGS = Map.of("drain",
			List.of("## Cold drain", "## API requests of a cold drain"), "live",
			List.of("## Live changes during a cold drain"), "burst", List.of("## Burst"), "memory",
			List.of("## Memory"), "failover", List.of("## Failover"), CacheMemory.SCENARIO,
			List.of("## Heap per cached object"), StreamedLists.SCENARIO, List.of("## Streamed and paged lists"),
			StatusWrites.SCENARIO, List.of("## Status writes"), ShardedDrain.SCENARIO, List.of("## Sharded"), "jmh",
			List.of("## Work queue microbenchmarks (JMH)"));

	/** How each scenario's rows of the targets table start. */
	private static final Map<String, List<String>> TARGET_ROWS = Map.of("drain",
			List.of("| process start", "| operator CPU", "| API requests", "| cold drain", "| throughput"), "memory",
			List.of("| heap after full GC", "| heap per cached object"), "live", List.of("| live change"), "failover",
			List.of("| failover"));

	private static final String NOT_RERUN = "*Not rerun: the figures of the run of ";

	/** The date and time of a run to the minute, which tells two runs of a day apart. */
	private static final Pattern DATE = Pattern.compile("^\\| date \\| (\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d)\\S* \\|$",
			Pattern.MULTILINE);

	private final String date;

	private final Map<String, List<String>> sections;

	private final List<String> targetRows;

	private final List<String> runRows;

	private CarriedOver(String date, Map<String, List<String>> sections, List<String> targetRows,
			List<String> runRows) {
		this.date = date;
		this.sections = sections;
		this.targetRows = targetRows;
		this.runRows = runRows;
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
			return new CarriedOver("", Map.of(), List.of(), List.of());
		}
		String text = Files.readString(previous, StandardCharsets.UTF_8);
		Matcher date = DATE.matcher(text);
		String when = date.find() ? date.group(1) : "an earlier date";
		List<String> parts = split(text);
		Map<String, List<String>> sections = new LinkedHashMap<>();
		List<String> rows = new ArrayList<>();
		List<String> runs = new ArrayList<>();
		for (Map.Entry<String, List<String>> scenario : HEADINGS.entrySet()) {
			if (config.runs(scenario.getKey())) {
				continue;
			}
			for (String part : parts) {
				if (scenario.getValue().stream().anyMatch(part::startsWith)) {
					sections.computeIfAbsent(scenario.getKey(), (key) -> new ArrayList<>()).add(part);
				}
			}
		}
		for (String part : parts) {
			for (String line : part.split("\n")) {
				if (part.startsWith("## Targets")) {
					TARGET_ROWS.forEach((scenario, prefixes) -> {
						if (!config.runs(scenario) && prefixes.stream().anyMatch(line::startsWith)) {
							// a row carried over before keeps its date
							rows.add(line.contains(" (run of ") ? line
									: line.replaceFirst("^\\| ([^|]*?) \\|", "| $1 (run of " + when + ") |"));
						}
					});
				}
				else if (part.startsWith("## Every run") && line.startsWith("| ") && !line.startsWith("| scenario ")) {
					String scenario = line.substring(2, line.indexOf(" |", 2));
					if (HEADINGS.containsKey(scenario) && !config.runs(scenario)) {
						runs.add(line);
					}
				}
			}
		}
		return new CarriedOver(when, sections, rows, runs);
	}

	/**
	 * Appends the carried-over section of a scenario, if there is one.
	 * @param out the report
	 * @param scenario the scenario
	 */
	void appendSection(StringBuilder out, String scenario) {
		for (String section : this.sections.getOrDefault(scenario, List.of())) {
			if (section.contains(NOT_RERUN)) {
				// carried over before: it keeps its date
				out.append(section);
				continue;
			}
			int heading = section.indexOf('\n') + 1;
			out.append(section, 0, heading)
				.append("\n")
				.append(NOT_RERUN)
				.append(this.date)
				.append(" (`-Dbenchmark.scenarios` left this scenario out).*\n")
				.append(section.substring(heading));
		}
	}

	/**
	 * Returns the carried-over rows of the targets table.
	 * @return the rows
	 */
	List<String> targetRows() {
		return this.targetRows;
	}

	/**
	 * Returns the carried-over rows of the every-run table, as they were.
	 * @return the rows
	 */
	List<String> runRows() {
		return this.runRows;
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
