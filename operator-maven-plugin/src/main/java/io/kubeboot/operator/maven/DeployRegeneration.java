package io.kubeboot.operator.maven;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Regenerates {@code deploy/} after a goal wrote its files, as kubebuilder runs
 * {@code make generate}: a nested Maven build runs the project's own
 * {@code GeneratedDeployTests} with {@code -Ddeploy.update=true}. The CRDs come from the
 * new model classes when they compile and the RBAC from the new reconciler, so only a
 * build of the project can render them.
 * <p>
 * The nested build gets the session's settings files, local repository, offline flag,
 * active profiles and user properties (but the goal's own parameters), so that it
 * resolves as the outer one did. It does not get {@code -DskipTests}: a build that skips
 * the test would succeed and leave {@code deploy/} as it was, so the regeneration only
 * counts once the test's report of this run is there.
 */
final class DeployRegeneration {

	/**
	 * What the user runs to regenerate by hand, as the generated project's
	 * {@code GeneratedDeployTests} names it.
	 */
	static final String COMMAND = "mvn test -Dtest=GeneratedDeployTests -Ddeploy.update=true";

	static final Path DEPLOY = Path.of("deploy");

	private static final int TAIL = 60;

	// set by the command itself: the user's values would contradict it
	private static final Set<String> OWN_PROPERTIES = Set.of("test", "deploy.update", "surefire.failIfNoSpecifiedTests",
			"maven.repo.local", "skipTests", "maven.test.skip");

	private static final String REPORT_SUFFIX = "GeneratedDeployTests.xml";

	private final Session session;

	private final Set<String> goalParameters;

	/**
	 * Creates a regeneration.
	 * @param session the outer build's session
	 * @param goalParameters the goal's own user properties, not passed on (such as
	 * {@code kind})
	 */
	DeployRegeneration(Session session, Set<String> goalParameters) {
		this.session = session;
		this.goalParameters = goalParameters;
	}

	/**
	 * The command line of the nested build.
	 * @return the command, its executable first
	 */
	List<String> command() {
		List<String> command = new ArrayList<>();
		command.add(
				this.session.mavenHome().resolve("bin").resolve(this.session.windows() ? "mvn.cmd" : "mvn").toString());
		command.add("-B");
		command.add("-f");
		command.add(this.session.pom().toString());
		if (this.session.userSettings() != null) {
			command.add("-s");
			command.add(this.session.userSettings().toString());
		}
		if (this.session.globalSettings() != null) {
			command.add("-gs");
			command.add(this.session.globalSettings().toString());
		}
		if (this.session.localRepository() != null) {
			command.add("-Dmaven.repo.local=" + this.session.localRepository());
		}
		if (this.session.offline()) {
			command.add("-o");
		}
		if (!this.session.activeProfiles().isEmpty()) {
			command.add("-P");
			command.add(String.join(",", this.session.activeProfiles()));
		}
		new TreeMap<>(this.session.userProperties()).forEach((name, value) -> {
			if (!this.goalParameters.contains(name) && !OWN_PROPERTIES.contains(name)) {
				command.add("-D" + name + "=" + value);
			}
		});
		command.add("test");
		command.add("-Dtest=GeneratedDeployTests");
		command.add("-Ddeploy.update=true");
		// a project that filters its tests otherwise would fail the nested build for
		// nothing
		command.add("-Dsurefire.failIfNoSpecifiedTests=false");
		// the outer build's -DskipTests is for its own tests; a pom's would skip this one
		command.add("-DskipTests=false");
		command.add("-Dmaven.test.skip=false");
		return command;
	}

	/**
	 * Whether the nested build can run: some embedded Mavens set no {@code maven.home}.
	 * @return whether Maven's launcher is there
	 */
	boolean canRun() {
		return this.session.mavenHome() != null && Files.isRegularFile(Path.of(command().get(0)));
	}

	/**
	 * Runs the nested build and tells what changed in {@code deploy/}.
	 * @param output receives each line the build prints, for the debug log
	 * @return what changed, such as
	 * {@code deploy/ regenerated: changed crd.yaml, rbac.yaml; added chart/crds/databases.shop.example.com.yaml}
	 * @throws ScaffoldException if the build fails, with the last lines it printed, or it
	 * ran no {@code GeneratedDeployTests}
	 */
	String run(Consumer<String> output) {
		Path deploy = this.session.pom().getParent().resolve(DEPLOY);
		Map<String, String> before = hashes(deploy);
		deleteReports();
		ProcessBuilder builder = new ProcessBuilder(command()).directory(this.session.pom().getParent().toFile())
			.redirectErrorStream(true);
		// the outer build got these arguments (the goal among them, maybe); the session
		// passes on what the nested build needs of them
		builder.environment().remove("MAVEN_ARGS");
		Deque<String> tail = new ArrayDeque<>();
		int exit;
		Process process;
		try {
			process = builder.start();
		}
		catch (IOException ex) {
			throw new ScaffoldException("Cannot start " + command().get(0) + ": " + ex.getMessage(), ex);
		}
		// Ctrl-C stops the outer build: the nested one goes with it
		Thread destroy = new Thread(process::destroyForcibly, "deploy-regeneration-shutdown");
		Runtime.getRuntime().addShutdownHook(destroy);
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(process.getInputStream(), Charset.defaultCharset()))) {
			for (String line = lines.readLine(); line != null; line = lines.readLine()) {
				output.accept(line);
				tail.addLast(line);
				if (tail.size() > TAIL) {
					tail.removeFirst();
				}
			}
			exit = process.waitFor();
		}
		catch (IOException ex) {
			process.destroyForcibly();
			throw new ScaffoldException("Cannot read the output of the nested build: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			process.destroyForcibly();
			Thread.currentThread().interrupt();
			throw new ScaffoldException("Interrupted while regenerating deploy/", ex);
		}
		finally {
			removeHook(destroy);
		}
		if (exit != 0) {
			throw new ScaffoldException(
					"The nested build exited with " + exit + ". Its last lines:\n" + String.join("\n", tail));
		}
		if (reports().isEmpty()) {
			throw new ScaffoldException("The nested build succeeded but ran no GeneratedDeployTests (no "
					+ this.session.testReports().resolve("TEST-*" + REPORT_SUFFIX)
					+ "): deploy/ was not regenerated. Does the project skip its tests, or write its reports "
					+ "elsewhere? Its last lines:\n" + String.join("\n", tail));
		}
		return changes(before, hashes(deploy));
	}

	// the reports of an earlier run would pass for this one's
	private void deleteReports() {
		for (Path report : reports()) {
			try {
				Files.delete(report);
			}
			catch (IOException ex) {
				throw new ScaffoldException("Cannot delete " + report + ", the report of an earlier run of "
						+ "GeneratedDeployTests: " + ex.getMessage(), ex);
			}
		}
	}

	private List<Path> reports() {
		Path directory = this.session.testReports();
		if (!Files.isDirectory(directory)) {
			return List.of();
		}
		try (Stream<Path> files = Files.list(directory)) {
			return files.filter((file) -> {
				String name = file.getFileName().toString();
				return name.startsWith("TEST-") && name.endsWith(REPORT_SUFFIX);
			}).toList();
		}
		catch (IOException | UncheckedIOException ex) {
			throw new ScaffoldException("Cannot read " + directory + ": " + ex.getMessage(), ex);
		}
	}

	private static void removeHook(Thread hook) {
		try {
			Runtime.getRuntime().removeShutdownHook(hook);
		}
		catch (IllegalStateException ex) {
			// the JVM is shutting down: the hook runs anyway
		}
	}

	/**
	 * What changed between two states of {@code deploy/}.
	 * @param before each file's hash before
	 * @param after each file's hash after
	 * @return the summary line
	 */
	static String changes(Map<String, String> before, Map<String, String> after) {
		List<String> changed = new ArrayList<>();
		List<String> added = new ArrayList<>();
		List<String> removed = new ArrayList<>();
		after.forEach((file, hash) -> {
			if (!before.containsKey(file)) {
				added.add(file);
			}
			else if (!before.get(file).equals(hash)) {
				changed.add(file);
			}
		});
		before.keySet().stream().filter((file) -> !after.containsKey(file)).forEach(removed::add);
		if (changed.isEmpty() && added.isEmpty() && removed.isEmpty()) {
			return "deploy/ regenerated: unchanged";
		}
		List<String> parts = new ArrayList<>();
		if (!changed.isEmpty()) {
			parts.add("changed " + String.join(", ", changed));
		}
		if (!added.isEmpty()) {
			parts.add("added " + String.join(", ", added));
		}
		if (!removed.isEmpty()) {
			parts.add("removed " + String.join(", ", removed));
		}
		return "deploy/ regenerated: " + String.join("; ", parts);
	}

	/**
	 * Each file's SHA-256 under a directory, by its path relative to it with {@code /}.
	 * @param directory the directory, which may not exist
	 * @return the hashes, sorted by path
	 */
	static Map<String, String> hashes(Path directory) {
		Map<String, String> hashes = new TreeMap<>();
		if (!Files.isDirectory(directory)) {
			return hashes;
		}
		try (Stream<Path> files = Files.walk(directory)) {
			for (Path file : files.filter(Files::isRegularFile).toList()) {
				String name = directory.relativize(file).toString().replace('\\', '/');
				hashes.put(name, HexFormat.of()
					.formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))));
			}
		}
		catch (IOException | UncheckedIOException ex) {
			throw new ScaffoldException("Cannot read " + directory + ": " + ex.getMessage(), ex);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex); // every JDK has SHA-256
		}
		return hashes;
	}

	/**
	 * What the nested build takes from the outer one.
	 *
	 * @param mavenHome Maven's installation ({@code maven.home}), or {@code null}
	 * @param pom the project's {@code pom.xml}
	 * @param testReports where Surefire writes the reports of the project's tests
	 * @param userSettings {@code -s}, or {@code null}
	 * @param globalSettings {@code -gs}, or {@code null}
	 * @param localRepository the local repository, or {@code null}
	 * @param offline {@code -o}
	 * @param activeProfiles {@code -P}
	 * @param userProperties {@code -D}
	 * @param windows whether the launcher is {@code mvn.cmd}
	 */
	record Session(Path mavenHome, Path pom, Path testReports, Path userSettings, Path globalSettings,
			Path localRepository, boolean offline, List<String> activeProfiles, Map<String, String> userProperties,
			boolean windows) {

	}

}
