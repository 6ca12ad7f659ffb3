package io.kubeboot.operator.test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Locates the {@code etcd} and {@code kube-apiserver} executables.
 * <p>
 * The candidate directories are, in order: {@code $KUBEBUILDER_ASSETS} (envtest's
 * convention), the system property {@code OPERATOR_CONTROL_PLANE_DIR}, the environment
 * variable {@code OPERATOR_CONTROL_PLANE_DIR}, and
 * {@code ~/.cache/operator-spring-boot/control-plane}. The first directory that holds
 * both executables wins; a directory holding only one of them is skipped. The lookup is
 * split from the environment ({@link #candidates(Map, Properties, Path)} and
 * {@link #locate(List)}) so that it can be tested without touching real environment
 * variables.
 */
final class ControlPlaneBinaries {

	static final String ETCD = "etcd";

	static final String KUBE_APISERVER = "kube-apiserver";

	static final String ASSETS_ENV = "KUBEBUILDER_ASSETS";

	static final String DIR_PROPERTY = "OPERATOR_CONTROL_PLANE_DIR";

	static final String INSTALL_SCRIPT = "scripts/install-control-plane.sh";

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
	 * @return the binaries
	 * @throws ControlPlaneException if no candidate directory holds both binaries
	 */
	static ControlPlaneBinaries locate() {
		return locate(candidates(System.getenv(), System.getProperties(), Path.of(System.getProperty("user.home"))));
	}

	/**
	 * Uses the binaries in the given directory, without any lookup.
	 * @param directory a directory holding {@code etcd} and {@code kube-apiserver}
	 * @return the binaries
	 * @throws ControlPlaneException if the directory does not hold both binaries
	 */
	static ControlPlaneBinaries in(Path directory) {
		return locate(List.of(new Candidate("the configured binary directory", directory)));
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

	/**
	 * Returns the first candidate that holds both executables.
	 * @param candidates the candidates, in lookup order
	 * @return the binaries
	 * @throws ControlPlaneException naming every candidate and why it was rejected, and
	 * how to install the binaries
	 */
	static ControlPlaneBinaries locate(List<Candidate> candidates) {
		StringBuilder looked = new StringBuilder();
		int index = 1;
		for (Candidate candidate : candidates) {
			String problem = problem(candidate.directory());
			if (problem == null) {
				return new ControlPlaneBinaries(candidate.directory().toAbsolutePath());
			}
			looked.append("\n  ")
				.append(index++)
				.append(". ")
				.append(candidate.source())
				.append((candidate.directory() != null) ? " (" + candidate.directory().toAbsolutePath() + ")" : "")
				.append(": ")
				.append(problem);
		}
		throw new ControlPlaneException("Cannot find the local Kubernetes control plane executables '" + ETCD
				+ "' and '" + KUBE_APISERVER + "' (v1.20.2), which must both be in the same directory. Looked in:"
				+ looked + "\nTo install them, run " + INSTALL_SCRIPT
				+ " from the project root (it installs etcd and builds kube-apiserver into "
				+ "~/.cache/operator-spring-boot/control-plane, once per machine), or set " + ASSETS_ENV
				+ " to a directory that holds both executables.");
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
