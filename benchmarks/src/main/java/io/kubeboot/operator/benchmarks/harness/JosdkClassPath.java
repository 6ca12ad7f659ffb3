package io.kubeboot.operator.benchmarks.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The class path of the JOSDK implementation: the classes of the module
 * {@code benchmarks-josdk} and the jars its build lists in
 * {@code benchmarks-josdk/target/josdk.classpath} (JOSDK, fabric8, their Jackson), so
 * that neither the harness nor the other implementations ever load them. The system
 * property {@value #PROPERTY} names the list; by default it is looked for beside this
 * module, as Maven runs the harness from {@code benchmarks/}.
 */
final class JosdkClassPath {

	/**
	 * The system property naming the file with the list.
	 */
	static final String PROPERTY = "benchmark.josdkClasspathFile";

	private static final Pattern JAR = Pattern.compile(".*/([a-z0-9-]+)-(\\d[^/]*)\\.jar");

	private JosdkClassPath() {
	}

	/**
	 * Returns the class path to start the JOSDK implementation with.
	 * @return the class path
	 * @throws IllegalStateException if {@code benchmarks-josdk} was not built
	 */
	static String get() {
		return get(list());
	}

	static String get(Path list) {
		try {
			String jars = Files.readString(list, StandardCharsets.UTF_8).strip();
			Path classes = list.getParent().resolve("classes");
			return classes + (jars.isEmpty() ? "" : File.pathSeparator + jars);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Describes what the JOSDK implementation runs on, for the report: the versions of
	 * JOSDK and fabric8's client, and fabric8's HTTP client.
	 * @return the description
	 */
	static String describe() {
		return describe(get());
	}

	static String describe(String classPath) {
		String josdk = "?";
		String fabric8 = "?";
		List<String> httpClients = new ArrayList<>();
		for (String entry : classPath.split(File.pathSeparator)) {
			Matcher jar = JAR.matcher(entry);
			if (!jar.matches()) {
				continue;
			}
			switch (jar.group(1)) {
				case "operator-framework-core" -> josdk = jar.group(2);
				case "kubernetes-client" -> fabric8 = jar.group(2);
				default -> {
					if (jar.group(1).startsWith("kubernetes-httpclient-")) {
						httpClients.add(jar.group(1).substring("kubernetes-httpclient-".length()));
					}
				}
			}
		}
		return "operator-framework %s, fabric8 kubernetes-client %s, fabric8's HTTP client: %s".formatted(josdk,
				fabric8, String.join(", ", httpClients));
	}

	private static Path list() {
		String property = System.getProperty(PROPERTY);
		Path list = (property != null && !property.isBlank()) ? Path.of(property)
				: Path.of("..", "benchmarks-josdk", "target", "josdk.classpath");
		if (!Files.isRegularFile(list)) {
			throw new IllegalStateException("The JOSDK implementation runs on the class path that the build of "
					+ "benchmarks-josdk lists in " + list.toAbsolutePath().normalize()
					+ ", which does not exist; build it with the benchmarks: mvn -pl benchmarks -am verify "
					+ "(or set -D" + PROPERTY + ")");
		}
		return list.toAbsolutePath().normalize();
	}

}
