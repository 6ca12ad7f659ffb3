package io.kubeboot.operator.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One child process of the control plane ({@code etcd} or {@code kube-apiserver}) whose
 * output goes to a log file, never to the test's output. The same instance can be started
 * again after it stopped; the log file is appended to.
 */
final class ManagedProcess {

	private static final Duration KILL_WAIT = Duration.ofSeconds(10);

	private final String name;

	private final Path logFile;

	private final Duration exitGrace;

	private volatile Process process;

	ManagedProcess(String name, Path logFile) {
		this(name, logFile, Duration.ZERO);
	}

	/**
	 * Creates a process that, with a positive {@code exitGrace}, runs in a session of its
	 * own (a Ctrl-C in the JVM's terminal does not reach it) and is killed on JVM exit
	 * only after that grace period.
	 * @param name the name, for messages
	 * @param logFile where its output goes
	 * @param exitGrace how long it may outlive the JVM's exit request
	 */
	ManagedProcess(String name, Path logFile, Duration exitGrace) {
		this.name = name;
		this.logFile = logFile;
		this.exitGrace = exitGrace;
	}

	String name() {
		return this.name;
	}

	Path logFile() {
		return this.logFile;
	}

	/**
	 * Starts the process.
	 * @param command the command line
	 * @param workingDirectory the working directory
	 */
	void start(List<String> command, Path workingDirectory) {
		if (isAlive()) {
			throw new IllegalStateException(this.name + " is already running");
		}
		try {
			Files.writeString(this.logFile,
					"=== " + Instant.now() + " starting: " + String.join(" ", command) + System.lineSeparator(),
					StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
					java.nio.file.StandardOpenOption.APPEND);
			List<String> commandLine = (this.exitGrace.isZero()) ? command : ProcessReaper.detached(command);
			ProcessBuilder builder = new ProcessBuilder(commandLine).directory(workingDirectory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(this.logFile.toFile()));
			// etcd reads its configuration from ETCD_* variables too: keep only ours.
			builder.environment()
				.keySet()
				.removeIf((key) -> key.startsWith("ETCD_") && !key.equals("ETCD_UNSUPPORTED_ARCH"));
			Process started = builder.start();
			ProcessReaper.register(started, this.exitGrace);
			started.getOutputStream().close();
			this.process = started;
		}
		catch (IOException ex) {
			throw new ControlPlaneException(
					"Cannot start " + this.name + " (" + command.get(0) + "): " + ex.getMessage(), ex);
		}
	}

	boolean isAlive() {
		Process current = this.process;
		return current != null && current.isAlive();
	}

	/**
	 * Returns whether the process was started and has exited since.
	 * @return whether the process exited
	 */
	boolean hasExited() {
		Process current = this.process;
		return current != null && !current.isAlive();
	}

	String exitDescription() {
		Process current = this.process;
		if (current == null) {
			return this.name + " was not started";
		}
		return current.isAlive() ? this.name + " is running (pid " + current.pid() + ")"
				: this.name + " exited with code " + current.exitValue();
	}

	/**
	 * Sends SIGTERM and waits for the process to exit; kills it ({@code SIGKILL}) if it
	 * does not exit within the grace period.
	 * @param grace how long to wait after SIGTERM
	 */
	void stop(Duration grace) {
		Process current = this.process;
		if (current == null || !current.isAlive()) {
			return;
		}
		current.destroy();
		if (!waitFor(current, grace)) {
			kill();
		}
		ProcessReaper.update();
	}

	/**
	 * Kills the process with {@code SIGKILL} and waits for it to be gone.
	 */
	void kill() {
		Process current = this.process;
		if (current == null || !current.isAlive()) {
			return;
		}
		current.destroyForcibly();
		if (!waitFor(current, KILL_WAIT)) {
			throw new ControlPlaneException(this.name + " (pid " + current.pid() + ") did not exit after SIGKILL");
		}
		ProcessReaper.update();
	}

	private static boolean waitFor(Process process, Duration timeout) {
		try {
			return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return !process.isAlive();
		}
	}

	String logTail(int lines) {
		return LogFiles.tail(this.logFile, lines);
	}

}
