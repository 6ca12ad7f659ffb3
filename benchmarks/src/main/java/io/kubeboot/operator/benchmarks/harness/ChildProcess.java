package io.kubeboot.operator.benchmarks.harness;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal;
import io.kubeboot.operator.benchmarks.child.Probe;
import io.kubeboot.operator.benchmarks.spring.SpringOperatorApplication;

/**
 * An operator process under test: a separate JVM started with the benchmark's JVM flags,
 * whose standard output goes to a log file and whose {@code BENCH} lines become events
 * the harness waits for.
 */
final class ChildProcess implements AutoCloseable {

	private static final Set<Process> running = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime()
			.addShutdownHook(new Thread(() -> running.forEach(Process::destroyForcibly), "benchmark-children-cleanup"));
	}

	private final String name;

	private final Process process;

	private final long spawnedAt;

	private final Path log;

	private final Map<String, Deque<String[]>> events = new HashMap<>();

	/**
	 * The last answer to each command, for asks after the process exited (guarded by
	 * this).
	 */
	private final Map<String, String[]> lastAnswers = new HashMap<>();

	private final Writer commands;

	private final CompletableFuture<Long> exited;

	/** Whether the reader has read the process's output to its end (guarded by this). */
	private boolean outputEnded;

	private ChildProcess(String name, Process process, long spawnedAt, Path log) {
		this.name = name;
		this.process = process;
		this.spawnedAt = spawnedAt;
		this.log = log;
		this.commands = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
		this.exited = process.onExit().thenApply((exitedProcess) -> ReconcileJournal.now());
		Thread reader = new Thread(this::readOutput, "benchmark-child-" + name);
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Starts an implementation's main class in a new JVM, on the JDK and with the JVM
	 * flags of the benchmark, on the {@linkplain OperatorClassPath operators' class path}
	 * or, for JOSDK, on its own.
	 * @param implementation what to run
	 * @param name a name for the log file
	 * @param environment the {@code BENCH_*} settings and {@code KUBECONFIG}
	 * @param config the benchmark configuration (JVM flags, work directory)
	 * @param jdk the JDK to run on
	 * @param extraFlags JVM flags to add to the benchmark's
	 * @return the started process; {@link #spawnedAt()} is the wall-clock time just
	 * before the operating system was asked to start it
	 * @throws IOException if it cannot be started
	 */
	static ChildProcess start(Implementation implementation, String name, Map<String, String> environment,
			BenchmarkConfig config, ChildJdk jdk, List<String> extraFlags) throws IOException {
		String classPath = implementation.hasOwnClassPath() ? JosdkClassPath.get()
				: OperatorClassPath.get().classPath();
		List<String> flags = new ArrayList<>(config.childJvmFlags());
		flags.addAll(extraFlags);
		return start(jdk.java(), implementation.mainClass(), classPath, name, environment, flags, config.jfr(),
				config.workDir());
	}

	/**
	 * Starts a main class of this module in a new JVM on the harness's JDK and class
	 * path.
	 * @param mainClass the class whose {@code main} to run
	 * @param name a name for the log file
	 * @param environment environment variables to add
	 * @param jvmFlags the JVM flags
	 * @param jfr whether to record a JFR profile into the work directory
	 * @param workDir where the log (and the recording) go
	 * @return the started process
	 * @throws IOException if it cannot be started
	 */
	static ChildProcess start(Class<?> mainClass, String name, Map<String, String> environment, List<String> jvmFlags,
			boolean jfr, Path workDir) throws IOException {
		return start(ChildJdk.harness().java(), mainClass.getName(), OperatorClassPath.harness(), name, environment,
				jvmFlags, jfr, workDir);
	}

	/**
	 * Starts a main class of this module in a new JVM on the harness's class path.
	 * @param java the {@code java} launcher
	 * @param mainClass the class whose {@code main} to run
	 * @param name a name for the log file
	 * @param environment environment variables to add
	 * @param jvmFlags the JVM flags
	 * @param jfr whether to record a JFR profile into the work directory
	 * @param workDir where the log (and the recording) go
	 * @return the started process
	 * @throws IOException if it cannot be started
	 */
	static ChildProcess start(Path java, Class<?> mainClass, String name, Map<String, String> environment,
			List<String> jvmFlags, boolean jfr, Path workDir) throws IOException {
		return start(java, mainClass.getName(), OperatorClassPath.harness(), name, environment, jvmFlags, jfr, workDir);
	}

	private static ChildProcess start(Path java, String mainClass, String classPath, String name,
			Map<String, String> environment, List<String> jvmFlags, boolean jfr, Path workDir) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(java.toString());
		command.addAll(jvmFlags);
		if (jfr) {
			command.add("-XX:StartFlightRecording=filename=" + workDir.resolve(name + ".jfr")
					+ ",settings=profile,dumponexit=true");
			// the Spring implementations record their start-up steps too
			command.add("-D" + SpringOperatorApplication.JFR_PROPERTY + "=true");
		}
		command.add("-cp");
		command.add(classPath);
		command.add(mainClass);
		return start(name, command, environment, workDir);
	}

	/**
	 * Starts a command whose output goes to {@code <name>.log} in the work directory.
	 * @param name a name for the log file
	 * @param command the command line
	 * @param environment environment variables to add
	 * @param workDir where the log goes
	 * @return the started process
	 * @throws IOException if it cannot be started
	 */
	static ChildProcess start(String name, List<String> command, Map<String, String> environment, Path workDir)
			throws IOException {
		Files.createDirectories(workDir);
		Path log = workDir.resolve(name + ".log");
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		builder.environment().putAll(environment);
		long spawnedAt = System.currentTimeMillis();
		Process process = builder.start();
		running.add(process);
		return new ChildProcess(name, process, spawnedAt, log);
	}

	/**
	 * Returns when the process was started, in epoch milliseconds.
	 * @return the spawn time
	 */
	long spawnedAt() {
		return this.spawnedAt;
	}

	/**
	 * Returns when the harness saw the process exit, in epoch microseconds: no earlier
	 * than it did exit.
	 * @return the exit time, or {@code -1} while it runs
	 */
	long exitedAt() {
		return this.exited.getNow(-1L);
	}

	/**
	 * Waits until the process has exited and its exit was recorded.
	 * @return the exit time in epoch microseconds
	 * @throws InterruptedException if interrupted
	 */
	long awaitExit() throws InterruptedException {
		try {
			return this.exited.get();
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex.getCause());
		}
	}

	/**
	 * Returns the process id.
	 * @return the pid
	 */
	long pid() {
		return this.process.pid();
	}

	/**
	 * Waits for the next not yet consumed event of a kind.
	 * @param event the event name
	 * @param timeout how long to wait
	 * @return the event's values
	 * @throws IllegalStateException if the process exits or the time runs out first
	 * @throws InterruptedException if interrupted
	 */
	synchronized String[] await(String event, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			Deque<String[]> queue = this.events.get(event);
			if (queue != null && !queue.isEmpty()) {
				return queue.removeFirst();
			}
			if (this.outputEnded) {
				// everything the process wrote has been read: the event will not come
				throw new IllegalStateException(this.name + " exited with status " + exitStatus()
						+ " before reporting '" + event + "'; see " + this.log);
			}
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				throw new IllegalStateException(this.name + " did not report '" + event + "' within "
						+ timeout.toSeconds() + " s; see " + this.log);
			}
			wait(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, 100));
		}
	}

	private String exitStatus() throws InterruptedException {
		// the output ends when the process closes it, normally as it exits
		return this.process.waitFor(5, TimeUnit.SECONDS) ? String.valueOf(this.process.exitValue()) : "unknown";
	}

	/**
	 * Waits for an event and returns its first value as a number.
	 * @param event the event name
	 * @param timeout how long to wait
	 * @return the first value
	 * @throws InterruptedException if interrupted
	 */
	long awaitTime(String event, Duration timeout) throws InterruptedException {
		return Long.parseLong(await(event, timeout)[0]);
	}

	/**
	 * Sends a command line to the process's standard input.
	 * @param command the command
	 * @throws IOException if the process is gone
	 */
	void send(String command) throws IOException {
		this.commands.write(command + "\n");
		this.commands.flush();
	}

	/**
	 * Sends a command and waits for its answer, an event of the same name. A process that
	 * has exited is not sent anything; the answer is then the one it reported on exit.
	 * @param command the command
	 * @param timeout how long to wait for the answer
	 * @return the answer's values
	 * @throws IllegalStateException if no answer comes in time
	 * @throws InterruptedException if interrupted
	 */
	String[] ask(String command, Duration timeout) throws InterruptedException {
		if (this.process.isAlive()) {
			try {
				send(command);
			}
			catch (IOException ex) {
				// it exited meanwhile and answers with what it reported on exit
			}
		}
		try {
			String[] answer = await(command, timeout);
			synchronized (this) {
				this.lastAnswers.put(command, answer);
			}
			return answer;
		}
		catch (IllegalStateException ex) {
			synchronized (this) {
				// exited after an earlier ask took the answer it reported on exit: that
				// answer is its last word
				String[] last = this.lastAnswers.get(command);
				if (this.outputEnded && last != null) {
					return last;
				}
			}
			throw ex;
		}
	}

	/**
	 * Whether the process is still running.
	 * @return whether it is alive
	 */
	boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Kills the process with {@code SIGKILL} and waits until it is gone.
	 * @throws InterruptedException if interrupted
	 */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor();
		running.remove(this.process);
	}

	/**
	 * Asks the process to stop with {@code SIGTERM} without waiting.
	 */
	void terminate() {
		this.process.destroy();
	}

	/**
	 * Stops the process: {@code SIGTERM}, then {@code SIGKILL} after the grace period.
	 * @param grace how long it may take to stop
	 * @throws InterruptedException if interrupted
	 */
	void stop(Duration grace) throws InterruptedException {
		if (this.process.isAlive()) {
			this.process.destroy();
			if (!this.process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
				this.process.destroyForcibly();
				this.process.waitFor();
			}
		}
		running.remove(this.process);
	}

	@Override
	public void close() throws InterruptedException {
		stop(Duration.ofSeconds(20));
	}

	private void readOutput() {
		try (BufferedReader in = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8));
				Writer out = Files.newBufferedWriter(this.log, StandardCharsets.UTF_8)) {
			String line;
			while ((line = in.readLine()) != null) {
				out.write(line);
				out.write('\n');
				if (line.startsWith(Probe.PREFIX)) {
					out.flush();
					String[] parts = line.substring(Probe.PREFIX.length()).strip().split("\\s+");
					String[] values = new String[parts.length - 1];
					System.arraycopy(parts, 1, values, 0, values.length);
					synchronized (this) {
						this.events.computeIfAbsent(parts[0], (key) -> new ArrayDeque<>()).addLast(values);
						notifyAll();
					}
				}
			}
		}
		catch (IOException ex) {
			// the process went away
		}
		synchronized (this) {
			this.outputEnded = true;
			notifyAll();
		}
	}

	@Override
	public String toString() {
		return this.name + "[pid " + this.process.pid() + "]";
	}

}
