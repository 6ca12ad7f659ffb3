package io.kubeboot.operator.test;

import java.io.IOException;
import java.io.InputStream;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The {@code helm} command, to lint and render a chart in a test, as CI does:
 *
 * <pre class="code">
 * Helm helm = Helm.installed();
 * helm.lint(Path.of("deploy/chart"));
 * String yaml = helm.template(Path.of("deploy/chart"), "shop", "shop-system", Map.of("replicas", "1"));
 * </pre>
 *
 * It is found, in order: at the path the system property or environment variable
 * {@value #HELM_PROPERTY} names, which {@code scripts/test.sh} sets to the helm
 * {@code scripts/install-helm.sh} builds at the version {@code scripts/helm/go.mod} pins;
 * else, for a run outside that script, as the newest version built into
 * {@code $OPERATOR_HELM_DIR} (default {@code ~/.cache/operator-spring-boot/helm}); else
 * on the {@code PATH}. Nothing touches a cluster: {@code helm template} renders locally.
 */
public final class Helm {

	/** The system property or environment variable naming the helm executable. */
	public static final String HELM_PROPERTY = "OPERATOR_HELM";

	private static final String DIR_PROPERTY = "OPERATOR_HELM_DIR";

	private static final Duration TIMEOUT = Duration.ofMinutes(2);

	private final Path executable;

	private Helm(Path executable) {
		this.executable = executable;
	}

	/**
	 * Finds the installed helm.
	 * @return helm
	 * @throws IllegalStateException if none is installed, saying how to install it
	 */
	public static Helm installed() {
		return find().orElseThrow(() -> new IllegalStateException("helm is not installed: run scripts/install-helm.sh, "
				+ "which builds it from its Go module, or set " + HELM_PROPERTY + " to a helm executable"));
	}

	/**
	 * Finds the installed helm, if any.
	 * @return helm, or empty
	 */
	public static Optional<Helm> find() {
		String named = property(HELM_PROPERTY);
		if (named != null) {
			return Optional.of(new Helm(Path.of(named)));
		}
		String dir = property(DIR_PROPERTY);
		Path cache = (dir != null) ? Path.of(dir)
				: Path.of(System.getProperty("user.home"), ".cache", "operator-spring-boot", "helm");
		if (Files.isDirectory(cache)) {
			try (Stream<Path> versions = Files.list(cache)) {
				Optional<Path> newest = versions.map((version) -> version.resolve("helm"))
					.filter(Files::isExecutable)
					.max(Comparator.comparing((path) -> VersionOrder.key(path.getParent())));
				if (newest.isPresent()) {
					return Optional.of(new Helm(newest.get()));
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Cannot list " + cache, ex);
			}
		}
		String path = System.getenv("PATH");
		if (path != null) {
			for (String entry : path.split(java.io.File.pathSeparator)) {
				Path candidate = Path.of(entry, "helm");
				if (Files.isExecutable(candidate)) {
					return Optional.of(new Helm(candidate));
				}
			}
		}
		return Optional.empty();
	}

	/** The value of a system property, else of an environment variable; null if blank. */
	private static String property(String name) {
		String value = System.getProperty(name);
		return (value != null && !value.isBlank()) ? value : blankToNull(System.getenv(name));
	}

	private static String blankToNull(String value) {
		return (value != null && !value.isBlank()) ? value : null;
	}

	/**
	 * Returns the executable.
	 * @return its path
	 */
	public Path executable() {
		return this.executable;
	}

	/**
	 * Returns helm's version.
	 * @return such as {@code v4.3.2}
	 */
	public String version() {
		return run(List.of("version", "--short")).strip();
	}

	/**
	 * Lints a chart strictly: a warning fails too.
	 * @param chart the chart's directory
	 * @return helm's report
	 * @throws HelmException with the report if the chart has a problem
	 */
	public String lint(Path chart) {
		return run(List.of("lint", "--strict", chart.toString()));
	}

	/**
	 * Renders a chart as {@code helm install} would, without a cluster, CRDs of
	 * {@code crds/} included.
	 * @param chart the chart's directory
	 * @param release the release's name
	 * @param namespace the release's namespace
	 * @param values values to set, by path ({@code image.tag}), as {@code --set} takes
	 * them ({@code {a,b}} for a list)
	 * @return the rendered YAML
	 * @throws HelmException with helm's message if the chart does not render, such as a
	 * value its schema or one of its checks refuses
	 */
	public String template(Path chart, String release, String namespace, Map<String, String> values) {
		return template(chart, release, namespace, values, List.of());
	}

	/**
	 * Renders a chart as {@code helm install} would, without a cluster, with files of
	 * values ({@code -f}) and values set on top of them.
	 * @param chart the chart's directory
	 * @param release the release's name
	 * @param namespace the release's namespace
	 * @param values values to set, by path, as {@code --set} takes them
	 * @param valuesFiles YAML files of values, in order
	 * @return the rendered YAML
	 * @throws HelmException with helm's message if the chart does not render
	 */
	public String template(Path chart, String release, String namespace, Map<String, String> values,
			List<Path> valuesFiles) {
		List<String> arguments = new ArrayList<>(
				List.of("template", release, chart.toString(), "--namespace", namespace, "--include-crds"));
		valuesFiles.forEach((file) -> {
			arguments.add("--values");
			arguments.add(file.toString());
		});
		values.forEach((path, value) -> {
			arguments.add("--set");
			arguments.add(path + "=" + value);
		});
		return run(arguments);
	}

	private String run(List<String> arguments) {
		List<String> command = new ArrayList<>();
		command.add(this.executable.toString());
		command.addAll(arguments);
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
			process.getOutputStream().close();
			CompletableFuture<String> out = read(process.getInputStream());
			CompletableFuture<String> err = read(process.getErrorStream());
			if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				process.destroyForcibly();
				throw new HelmException(String.join(" ", command) + " did not finish within " + TIMEOUT, "");
			}
			String output = out.join();
			if (process.exitValue() != 0) {
				throw new HelmException(
						String.join(" ", command) + " exited with " + process.exitValue() + ": " + err.join().strip(),
						output + err.join());
			}
			return output;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot run " + command, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted running " + command, ex);
		}
	}

	private static CompletableFuture<String> read(InputStream stream) {
		return CompletableFuture.supplyAsync(() -> {
			try (stream) {
				return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
	}

	@Override
	public String toString() {
		return "helm " + this.executable;
	}

	/**
	 * Helm failed: its message, and everything it printed.
	 */
	public static final class HelmException extends RuntimeException {

		private final String output;

		HelmException(String message, String output) {
			super(message);
			this.output = output;
		}

		/**
		 * Returns everything helm printed.
		 * @return the output
		 */
		public String output() {
			return this.output;
		}

	}

	/**
	 * Orders the directories {@code v4.3.2-linux-amd64-<hash>} by their version.
	 */
	private static final class VersionOrder {

		static String key(Path directory) {
			String name = directory.getFileName().toString().replaceFirst("^v", "");
			StringBuilder key = new StringBuilder();
			for (String part : name.split("-")[0].split("\\.")) {
				key.append(String.format("%08d", part.matches("[0-9]{1,8}") ? Integer.parseInt(part) : 0));
			}
			return key.toString();
		}

	}

}
