package io.kubeboot.operator.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the chaos runs share besides their replicas: the facts about the machine they
 * report with their numbers, and the work directory they leave their journals and logs
 * in.
 */
final class RunFacts {

	private RunFacts() {
	}

	/**
	 * Describes the machine and the moment a run starts.
	 * @return the date, CPUs, memory, OS, JDK and load average, in that order
	 */
	static Map<String, String> atStart() {
		Map<String, String> facts = new LinkedHashMap<>();
		facts.put("date", ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
		facts.put("CPUs (nproc)", String.valueOf(Runtime.getRuntime().availableProcessors()));
		facts.put("memory", Benchmark.memTotal());
		facts.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
				+ System.getProperty("os.arch"));
		facts.put("JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + " ("
				+ System.getProperty("java.vendor") + ")");
		facts.put("load average at the start (1/5/15 min)", loadAverage());
		return facts;
	}

	/**
	 * Returns the load average now.
	 * @return the 1, 5 and 15 minute averages
	 */
	static String loadAverage() {
		return Benchmark.loadAverage();
	}

	/**
	 * Creates the work directory, or empties it of an earlier run's journals and replica
	 * logs.
	 * @param workDir the directory
	 * @throws IOException if it cannot be prepared
	 */
	static void prepareWorkDir(Path workDir) throws IOException {
		Files.createDirectories(workDir);
		try (Stream<Path> files = Files.list(workDir)) {
			for (Path file : files.toList()) {
				String name = file.getFileName().toString();
				if (name.startsWith("journal-") || name.startsWith("replica-")) {
					Files.delete(file);
				}
			}
		}
	}

}
