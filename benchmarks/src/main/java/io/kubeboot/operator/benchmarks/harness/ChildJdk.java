package io.kubeboot.operator.benchmarks.harness;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The JDK the operator processes run on: the harness's own unless
 * {@code -D}{@value #PROPERTY} names another one's home, so that the whole table can run
 * on, say, JDK 25 while Maven and the harness stay on JDK 17.
 *
 * @param home the JDK's home directory
 * @param feature its feature release, e.g. {@code 25}
 * @param description its VM name, version and vendor, for the report
 */
record ChildJdk(Path home, int feature, String description) {

	/**
	 * The system property naming the home of the JDK the operator processes run on.
	 */
	static final String PROPERTY = "benchmark.javaHome";

	/**
	 * Returns the {@code java} launcher of this JDK.
	 * @return the launcher
	 */
	Path java() {
		return java(this.home);
	}

	/**
	 * The JDK this JVM runs on.
	 * @return the harness's JDK
	 */
	static ChildJdk harness() {
		return new ChildJdk(Path.of(System.getProperty("java.home")), Runtime.version().feature(),
				describe(System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
						System.getProperty("java.vendor")));
	}

	/**
	 * The JDK that {@value #PROPERTY} names, or the harness's own without it.
	 * @param value the property's value, or {@code null}
	 * @return the JDK
	 * @throws IllegalArgumentException if the value names no JDK
	 */
	static ChildJdk fromProperty(String value) {
		if (value == null || value.isBlank()) {
			return harness();
		}
		Path home = Path.of(value.strip()).toAbsolutePath().normalize();
		if (home.equals(Path.of(System.getProperty("java.home")).toAbsolutePath().normalize())) {
			return harness();
		}
		if (!Files.isExecutable(java(home))) {
			throw new IllegalArgumentException(
					PROPERTY + "=" + value + " is not a JDK's home: " + java(home) + " is not an executable");
		}
		return probe(home);
	}

	/**
	 * Asks a JDK for its version, the way {@code java -XshowSettings:properties} prints
	 * it.
	 */
	private static ChildJdk probe(Path home) {
		try {
			Process process = new ProcessBuilder(java(home).toString(), "-XshowSettings:properties", "-version")
				.redirectErrorStream(true)
				.start();
			String output;
			try (InputStream in = process.getInputStream()) {
				output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			}
			if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
				process.destroyForcibly();
				throw new IllegalArgumentException(PROPERTY + "=" + home + ": " + java(home)
						+ " -XshowSettings:properties -version failed:\n" + output);
			}
			Map<String, String> properties = new HashMap<>();
			for (String line : output.split("\n")) {
				int equals = line.indexOf(" = ");
				if (equals > 0) {
					properties.putIfAbsent(line.substring(0, equals).strip(), line.substring(equals + 3).strip());
				}
			}
			String specification = properties.getOrDefault("java.specification.version", "0");
			int feature = Integer.parseInt(specification.startsWith("1.") ? specification.substring(2) : specification);
			return new ChildJdk(home, feature, describe(properties.get("java.vm.name"),
					properties.get("java.runtime.version"), properties.get("java.vendor")));
		}
		catch (IOException ex) {
			throw new IllegalArgumentException(PROPERTY + "=" + home + ": cannot run " + java(home), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static Path java(Path home) {
		return home.resolve("bin").resolve("java");
	}

	private static String describe(String vm, String version, String vendor) {
		return vm + " " + version + " (" + vendor + ")";
	}

}
