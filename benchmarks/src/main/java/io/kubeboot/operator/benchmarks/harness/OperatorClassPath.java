package io.kubeboot.operator.benchmarks.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The class path of the implementations that share the harness's ({@code spring},
 * {@code spring-aot}, {@code manager}, {@code baseline}, {@code raw}): the harness's own,
 * with each module's {@code target/classes} replaced by the jar its build packaged beside
 * it and {@code target/test-classes} and pom files left out, so that it holds jar files
 * only. JDK 25's AOT cache (like CDS) needs that: it does not archive classes from a
 * non-empty directory. Where a module has no jar (a build that stopped before
 * {@code package}), the class path stays the harness's and {@link #problem()} says why.
 *
 * @param classPath the class path the processes start with
 * @param jarsOnly whether it holds jar files only
 * @param problem why it is not jars only, or {@code null}
 */
record OperatorClassPath(String classPath, boolean jarsOnly, String problem) {

	private static OperatorClassPath current;

	/**
	 * Returns the class path for this JVM's class path, worked out once.
	 * @return the class path
	 */
	static synchronized OperatorClassPath get() {
		if (current == null) {
			current = of(harness());
		}
		return current;
	}

	/**
	 * Returns the harness's own class path.
	 * @return the class path
	 */
	static String harness() {
		// Surefire runs tests from a manifest-only jar and keeps the real class path here
		String testClassPath = System.getProperty("surefire.test.class.path");
		return (testClassPath != null && !testClassPath.isBlank()) ? testClassPath
				: System.getProperty("java.class.path");
	}

	static OperatorClassPath of(String harness) {
		List<String> entries = new ArrayList<>();
		for (String entry : harness.split(File.pathSeparator)) {
			if (entry.isBlank()) {
				continue;
			}
			Path path = Path.of(entry);
			if (!Files.isDirectory(path)) {
				// Maven lists a dependency of type pom (benchmarks-josdk's) as its
				// pom.xml
				if (!entry.endsWith(".pom") && !entry.endsWith(".xml")) {
					entries.add(entry);
				}
				continue;
			}
			if (isEmpty(path)) {
				entries.add(entry);
				continue;
			}
			Path name = path.getFileName();
			Path target = path.getParent();
			if (name.toString().equals("test-classes")) {
				continue;
			}
			if (!name.toString().equals("classes") || target == null) {
				return new OperatorClassPath(harness, false,
						"the class path holds the directory " + path + ", which has no jar to stand in for it");
			}
			List<Path> jars = jars(target);
			if (jars.size() != 1) {
				return new OperatorClassPath(harness, false,
						"the class path holds " + path + " and " + target + " has " + jars.size()
								+ " jars to stand in for it, not one " + jars
								+ "; package the module first (mvn -pl benchmarks -am package)");
			}
			entries.add(jars.get(0).toString());
		}
		return new OperatorClassPath(String.join(File.pathSeparator, entries), true, null);
	}

	private static List<Path> jars(Path target) {
		try (Stream<Path> files = Files.list(target)) {
			return files.filter((file) -> {
				String name = file.getFileName().toString();
				return Files.isRegularFile(file) && name.endsWith(".jar") && !name.endsWith("-sources.jar")
						&& !name.endsWith("-javadoc.jar") && !name.endsWith("-tests.jar")
						&& !name.endsWith("-test-sources.jar") && !name.startsWith("original-");
			}).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static boolean isEmpty(Path directory) {
		try (Stream<Path> files = Files.list(directory)) {
			return files.findAny().isEmpty();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Describes it for the report.
	 * @return the description
	 */
	String describe() {
		return this.jarsOnly ? "jar files only (each module's packaged jar, no target/classes)"
				: "the harness's, with directories (" + this.problem + ")";
	}

}
