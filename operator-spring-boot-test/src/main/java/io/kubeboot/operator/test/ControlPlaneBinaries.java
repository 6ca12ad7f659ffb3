package io.kubeboot.operator.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Locates the {@code etcd} and {@code kube-apiserver} executables.
 * <p>
 * The candidate directories are, in order: {@code $KUBEBUILDER_ASSETS} (envtest's
 * convention), the system property {@code OPERATOR_CONTROL_PLANE_DIR}, the environment
 * variable {@code OPERATOR_CONTROL_PLANE_DIR}, and
 * {@code ~/.cache/operator-spring-boot/control-plane}. A candidate either holds both
 * executables itself or, as the install script lays them out, one directory per version
 * in envtest's layout, {@code k8s/<version>-<os>-<arch>/}. The first candidate with a
 * matching version wins; a directory holding only one of them is skipped.
 * <p>
 * The version asked for is a prefix of a release version ({@code 1.34} or {@code 1.34.4})
 * or none, which takes the newest installed. The lookup is split from the environment
 * ({@link #candidates(Map, Properties, Path)} and
 * {@link #locate(List, String, Function)}) so that it can be tested without touching real
 * environment variables.
 */
final class ControlPlaneBinaries {

	static final String ETCD = "etcd";

	static final String KUBE_APISERVER = "kube-apiserver";

	static final String ASSETS_ENV = "KUBEBUILDER_ASSETS";

	static final String DIR_PROPERTY = "OPERATOR_CONTROL_PLANE_DIR";

	static final String INSTALL_SCRIPT = "scripts/install-control-plane.sh";

	private static final String VERSIONS_DIRECTORY = "k8s";

	private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(30);

	private final Path directory;

	private ControlPlaneBinaries(Path directory) {
		this.directory = directory;
	}

	Path directory() {
		return this.directory;
	}

	Path etcd() {
		return this.directory.resolve(ETCD);
	}

	Path kubeApiServer() {
		return this.directory.resolve(KUBE_APISERVER);
	}

	/**
	 * Locates the binaries using the real environment, system properties and home
	 * directory.
	 * @param version the version asked for, a prefix such as {@code 1.34}, or
	 * {@code null} for the newest
	 * @return the binaries
	 * @throws ControlPlaneException if no candidate directory holds both binaries
	 */
	static ControlPlaneBinaries locate(String version) {
		return locate(candidates(System.getenv(), System.getProperties(), Path.of(System.getProperty("user.home"))),
				version, ControlPlaneBinaries::versionOf);
	}

	/**
	 * Uses the binaries in the given directory, without any lookup.
	 * @param directory a directory holding {@code etcd} and {@code kube-apiserver}, or
	 * the versions of the install script's layout
	 * @param version the version asked for, or {@code null} for the newest
	 * @return the binaries
	 * @throws ControlPlaneException if the directory does not hold both binaries
	 */
	static ControlPlaneBinaries in(Path directory, String version) {
		return locate(List.of(new Candidate("the configured binary directory", directory)), version,
				ControlPlaneBinaries::versionOf);
	}

	/**
	 * The candidate directories, in lookup order.
	 * @param env the environment variables
	 * @param systemProperties the system properties
	 * @param home the user's home directory
	 * @return the candidates; a candidate whose source is not set has a {@code null}
	 * directory
	 */
	static List<Candidate> candidates(Map<String, String> env, Properties systemProperties, Path home) {
		List<Candidate> candidates = new ArrayList<>();
		candidates.add(new Candidate("environment variable " + ASSETS_ENV, pathOrNull(env.get(ASSETS_ENV))));
		candidates.add(new Candidate("system property " + DIR_PROPERTY,
				pathOrNull(systemProperties.getProperty(DIR_PROPERTY))));
		candidates.add(new Candidate("environment variable " + DIR_PROPERTY, pathOrNull(env.get(DIR_PROPERTY))));
		candidates.add(new Candidate("default cache directory", defaultDirectory(home)));
		return candidates;
	}

	static Path defaultDirectory(Path home) {
		return home.resolve(".cache").resolve("operator-spring-boot").resolve("control-plane");
	}

	static ControlPlaneBinaries locate(List<Candidate> candidates) {
		return locate(candidates, null, (binary) -> {
			throw new IllegalStateException("no version asked for");
		});
	}

	/**
	 * Returns the first candidate that holds both executables of the version asked for.
	 * @param candidates the candidates, in lookup order
	 * @param version the version asked for, or {@code null} for the newest
	 * @param versionOf tells the version of a {@code kube-apiserver} executable, for a
	 * candidate that holds the executables itself when a version is asked for
	 * @return the binaries
	 * @throws ControlPlaneException naming every candidate and why it was rejected, and
	 * how to install the binaries
	 */
	static ControlPlaneBinaries locate(List<Candidate> candidates, String version,
			Function<Path, KubernetesVersion> versionOf) {
		StringBuilder looked = new StringBuilder();
		int index = 1;
		for (Candidate candidate : candidates) {
			Path directory = candidate.directory();
			String problem = problem(directory);
			if (problem == null && version != null) {
				KubernetesVersion found = versionOf.apply(directory.resolve(KUBE_APISERVER));
				if (!matches(found, version)) {
					problem = "holds Kubernetes " + found + ", not " + version;
				}
			}
			if (problem == null) {
				return new ControlPlaneBinaries(directory.toAbsolutePath());
			}
			if (directory != null && Files.isDirectory(directory.resolve(VERSIONS_DIRECTORY))) {
				Optional<Path> versioned = newest(directory.resolve(VERSIONS_DIRECTORY), version);
				if (versioned.isPresent()) {
					return new ControlPlaneBinaries(versioned.get().toAbsolutePath());
				}
				problem = "no version" + ((version != null) ? " " + version : "") + " installed under "
						+ VERSIONS_DIRECTORY + "/";
			}
			looked.append("\n  ")
				.append(index++)
				.append(". ")
				.append(candidate.source())
				.append((directory != null) ? " (" + directory.toAbsolutePath() + ")" : "")
				.append(": ")
				.append(problem);
		}
		String which = (version != null) ? "Kubernetes " + version : "any Kubernetes version";
		throw new ControlPlaneException(
				"Cannot find the local Kubernetes control plane executables '" + ETCD + "' and '" + KUBE_APISERVER
						+ "' of " + which + ", which must both be in the same directory. Looked in:" + looked
						+ "\nTo install them, run " + INSTALL_SCRIPT + installArguments(version)
						+ " from the project root (it builds them from their Go modules into "
						+ "~/.cache/operator-spring-boot/control-plane/k8s, once per machine and version), or set "
						+ ASSETS_ENV + " to a directory that holds both executables.");
	}

	private static String installArguments(String version) {
		if (version == null) {
			return "";
		}
		// the script builds releases: a minor needs its patch
		return (version.chars().filter((c) -> c == '.').count() == 2) ? " " + version
				: " " + version + ".x (a release version)";
	}

	/**
	 * The newest version directory of {@code k8s/} whose version starts with the one
	 * asked for and that holds both executables.
	 */
	private static Optional<Path> newest(Path versions, String version) {
		try (Stream<Path> entries = Files.list(versions)) {
			return entries.filter((entry) -> problem(entry) == null)
				.filter((entry) -> version == null || matches(KubernetesVersion.ofDirectoryName(entry), version))
				.max(Comparator.comparing(KubernetesVersion::ofDirectoryName,
						Comparator.nullsFirst(Comparator.naturalOrder())));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Runs {@code kube-apiserver --version}, which prints {@code Kubernetes v1.37.2}.
	 * @param kubeApiServer the executable
	 * @return its version
	 * @throws ControlPlaneException if it cannot be run or prints no version
	 */
	static KubernetesVersion versionOf(Path kubeApiServer) {
		String output = "";
		try {
			Process process = new ProcessBuilder(kubeApiServer.toString(), "--version").redirectErrorStream(true)
				.start();
			output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (!process.waitFor(VERSION_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
				process.destroyForcibly();
			}
			return KubernetesVersion.parse(output.substring(output.lastIndexOf(' ') + 1));
		}
		catch (IOException | IllegalArgumentException ex) {
			throw new ControlPlaneException(
					"Cannot tell the version of " + kubeApiServer + " from its --version: '" + output + "'", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ControlPlaneException("Interrupted while running " + kubeApiServer + " --version", ex);
		}
	}

	static boolean matches(KubernetesVersion installed, String asked) {
		if (installed == null) {
			return false;
		}
		String release = installed.major() + "." + installed.minor() + "." + installed.patch();
		return release.equals(asked) || release.startsWith(asked + ".");
	}

	private static String problem(Path directory) {
		if (directory == null) {
			return "not set";
		}
		if (!Files.isDirectory(directory)) {
			return "no such directory";
		}
		List<String> missing = new ArrayList<>();
		for (String name : List.of(ETCD, KUBE_APISERVER)) {
			Path file = directory.resolve(name);
			if (!Files.isRegularFile(file)) {
				missing.add(name + " is missing");
			}
			else if (!Files.isExecutable(file)) {
				missing.add(name + " is not executable");
			}
		}
		return missing.isEmpty() ? null : String.join(", ", missing);
	}

	private static Path pathOrNull(String value) {
		return (value == null || value.isBlank()) ? null : Path.of(value.trim());
	}

	/**
	 * A directory to look in.
	 *
	 * @param source where the directory came from, for the error message
	 * @param directory the directory, or {@code null} if its source is not set
	 */
	record Candidate(String source, Path directory) {
	}

}
