package io.kubeboot.sample;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.springframework.test.util.TestSocketUtils;

/**
 * The sample operator in a JVM of its own, as a user runs it: configured through
 * {@code KUBECONFIG} and command-line properties, its output captured to a file.
 */
final class OperatorProcess implements AutoCloseable {

	private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");

	private static final Pattern WEBHOOK_PORT = Pattern
		.compile("Webhook server started: address=127\\.0\\.0\\.1:(\\d+)");

	private static final Pattern CA_BUNDLE = Pattern
		.compile("Webhook server uses a self-signed certificate.* caBundle=(\\S+)");

	private final Process process;

	private final Path log;

	private final int managementPort;

	private OperatorProcess(Process process, Path log, int managementPort) {
		this.process = process;
		this.log = log;
		this.managementPort = managementPort;
	}

	/**
	 * Starts the sample with a self-signed webhook certificate, or with the certificate
	 * files of the directory an {@code --operator.webhook.cert-dir=} argument names.
	 * @param kubeconfig the kubeconfig, passed as {@code KUBECONFIG}
	 * @param args command-line arguments added to the test's own
	 * @return the process
	 */
	static OperatorProcess start(Path kubeconfig, String... args) throws IOException {
		return start(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				applicationClassPath(), SampleOperatorApplication.class.getName()), null, kubeconfig, args);
	}

	/**
	 * Starts the operator with a command of its own, such as {@code java -jar} of the
	 * packaged application.
	 * @param launcher the command up to the application's arguments
	 * @param directory the working directory, {@code null} for this process's
	 * @param kubeconfig the kubeconfig it connects with
	 * @param args the application's arguments
	 */
	static OperatorProcess start(List<String> launcher, @Nullable Path directory, Path kubeconfig, String... args)
			throws IOException {
		List<String> command = new ArrayList<>(launcher);
		// several operators run side by side in these tests, without certificate files
		// unless a test names their directory; Actuator on a port of its own, as
		// application.yaml has it (a free port, as the log would not tell which of the
		// two servers started on which port)
		int managementPort = TestSocketUtils.findAvailableTcpPort();
		command.addAll(List.of("--server.port=0", "--management.server.port=" + managementPort,
				"--operator.webhook.port=0", "--operator.webhook.bind-address=127.0.0.1"));
		if (Arrays.stream(args).noneMatch((arg) -> arg.startsWith("--operator.webhook.cert-dir="))) {
			command.add("--operator.webhook.self-signed=true");
		}
		command.addAll(List.of(args));
		Path log = Files.createTempFile("sample-operator", ".log");
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
		if (directory != null) {
			builder.directory(directory.toFile());
		}
		builder.environment().put("KUBECONFIG", kubeconfig.toString());
		builder.environment().remove("KUBERNETES_SERVICE_HOST");
		return new OperatorProcess(builder.start(), log, managementPort);
	}

	List<String> output() {
		try {
			return Files.readAllLines(this.log, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	boolean logged(String text) {
		return output().stream().anyMatch((line) -> line.contains(text));
	}

	/** The port of the webhook server, once it logged it. */
	int webhookPort() {
		return Integer.parseInt(find(WEBHOOK_PORT));
	}

	/** The PEM of the CA that signed the webhook server's self-signed certificate. */
	String webhookCaBundle() {
		return new String(Base64.getDecoder().decode(find(CA_BUNDLE)), StandardCharsets.US_ASCII);
	}

	private String find(Pattern pattern) {
		for (String line : output()) {
			Matcher matcher = pattern.matcher(line);
			if (matcher.find()) {
				return matcher.group(1);
			}
		}
		throw new IllegalStateException("The operator did not log " + pattern);
	}

	/**
	 * The application's HTTP port, where {@code /healthz} and {@code /readyz} are served.
	 * @return the port
	 * @throws IllegalStateException if the operator has not logged it yet
	 */
	int port() {
		for (String line : output()) {
			Matcher matcher = PORT.matcher(line);
			if (matcher.find() && Integer.parseInt(matcher.group(1)) != this.managementPort) {
				return Integer.parseInt(matcher.group(1));
			}
		}
		throw new IllegalStateException("The operator has not logged its HTTP port yet");
	}

	/**
	 * The port of Actuator ({@code management.server.port}).
	 * @return the port
	 */
	int managementPort() {
		return this.managementPort;
	}

	/**
	 * Returns what Actuator answers to a GET of a path on the management port, such as
	 * {@code /actuator/prometheus}.
	 * @param path the path
	 * @return the response body
	 */
	String get(String path) throws IOException, InterruptedException {
		return get(this.managementPort, path).body();
	}

	/**
	 * Sends a GET to one of the operator's ports.
	 * @param port the port
	 * @param path the path
	 * @return the response
	 */
	HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build();
		return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
	}

	/** Sends SIGTERM, as Kubernetes does before it kills a pod. */
	void terminate() {
		this.process.destroy();
	}

	/**
	 * Sends SIGSTOP, freezing every thread as a stopped container, a VM migration or a
	 * long garbage collection pause would; {@link #resume()} sends SIGCONT.
	 */
	void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	/** Sends SIGCONT to a process {@link #pause() paused}. */
	void resume() throws IOException, InterruptedException {
		signal("CONT");
	}

	private void signal(String name) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(this.process.pid())).inheritIO().start();
		if (kill.waitFor() != 0) {
			throw new IllegalStateException("kill -" + name + " " + this.process.pid() + " failed");
		}
	}

	/** Sends SIGKILL, as {@code kill -9}. */
	void kill() {
		this.process.destroyForcibly();
	}

	int waitForExit(long seconds) throws InterruptedException {
		if (!this.process.waitFor(seconds, TimeUnit.SECONDS)) {
			throw new IllegalStateException("The operator process did not exit within " + seconds + "s");
		}
		return this.process.exitValue();
	}

	@Override
	public void close() throws IOException {
		this.process.destroyForcibly();
		try {
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		Files.deleteIfExists(this.log);
	}

	/**
	 * The test's class path without what the packaged application leaves out: the Jakarta
	 * Validation API, needed only to compile the model (see the pom).
	 */
	private static String applicationClassPath() {
		return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
			.filter((entry) -> !Path.of(entry).getFileName().toString().startsWith("jakarta.validation-api-"))
			.collect(Collectors.joining(File.pathSeparator));
	}

}
