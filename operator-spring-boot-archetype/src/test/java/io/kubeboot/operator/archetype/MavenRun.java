package io.kubeboot.operator.archetype;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Maven as a user runs it, from the Maven installation of this build, on a project
 * outside the reactor: with {@code it.local-repository} as its local repository, where
 * this build installed its artifacts, and a settings file whose repositories are this
 * build's local repository (read-only, for everything it resolved already), then Maven
 * Central. Offline if this build is.
 */
final class MavenRun {

	private final Path settings;

	MavenRun(Path work) throws IOException {
		this.settings = work.resolve("settings.xml");
		String outer = Path.of(property("it.outer-local-repository")).toUri().toString();
		Files.writeString(this.settings, """
				<settings>
				  <profiles>
				    <profile>
				      <id>this-build</id>
				      <repositories>
				        <repository>
				          <id>this-build-local</id>
				          <url>%1$s</url>
				          <releases><checksumPolicy>ignore</checksumPolicy></releases>
				          <snapshots><enabled>false</enabled></snapshots>
				        </repository>
				      </repositories>
				      <pluginRepositories>
				        <pluginRepository>
				          <id>this-build-local</id>
				          <url>%1$s</url>
				          <releases><checksumPolicy>ignore</checksumPolicy></releases>
				          <snapshots><enabled>false</enabled></snapshots>
				        </pluginRepository>
				      </pluginRepositories>
				    </profile>
				  </profiles>
				  <activeProfiles>
				    <activeProfile>this-build</activeProfile>
				  </activeProfiles>
				</settings>
				""".formatted(outer), StandardCharsets.UTF_8);
	}

	/**
	 * Starts Maven.
	 * @param directory the working directory
	 * @param log the file its output goes to
	 * @param arguments goals and options
	 * @return the process
	 */
	Process start(Path directory, Path log, String... arguments) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(property("maven.home"), "bin", "mvn").toString());
		command.addAll(
				List.of("-B", "-s", this.settings.toString(), "-Dmaven.repo.local=" + property("it.local-repository")));
		if (Boolean.parseBoolean(property("it.offline"))) {
			// offline, the repository of this build is read all the same
			command.addAll(List.of("-o", "-Daether.offline.protocols=file"));
		}
		command.addAll(List.of(arguments));
		ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
		builder.environment().remove("MAVEN_ARGS");
		builder.environment().remove("KUBECONFIG");
		builder.environment().remove("OPERATOR_TEST_KEEP_CONTROL_PLANE");
		return builder.start();
	}

	/**
	 * Runs Maven to its end.
	 * @return its output
	 * @throws AssertionError if it fails or takes longer than the timeout
	 */
	String run(Path directory, Path log, Duration timeout, String... arguments)
			throws IOException, InterruptedException {
		Process process = start(directory, log, arguments);
		if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			Processes.stop(process, Duration.ofSeconds(30));
			throw new AssertionError(
					"mvn " + String.join(" ", arguments) + " took longer than " + timeout + ":\n" + read(log));
		}
		String output = read(log);
		if (process.exitValue() != 0) {
			throw new AssertionError(
					"mvn " + String.join(" ", arguments) + " failed (" + process.exitValue() + "):\n" + output);
		}
		return output;
	}

	static String read(Path file) {
		try {
			return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static String property(String name) {
		String value = System.getProperty(name);
		if (value == null || value.isBlank()) {
			throw new IllegalStateException("System property " + name + " is not set: run this test with Maven "
					+ "(mvn -pl operator-spring-boot-archetype -am verify)");
		}
		return value;
	}

}
