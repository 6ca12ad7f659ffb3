package io.kubeboot.operator.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Makes sure that no {@code etcd} or {@code kube-apiserver} outlives the JVM that started
 * it.
 * <ul>
 * <li>A JVM shutdown hook forcibly kills every registered child process that is still
 * alive (for example when Maven ends a forked test JVM, or when a control plane was never
 * closed), then runs the registered clean-ups (deleting work directories). A process
 * registered with a grace period is given that long to exit first, for its owner to close
 * it on the same shutdown.</li>
 * <li>On Linux, a small {@code sh} watchdog also covers a JVM that ends without running
 * its shutdown hooks ({@code SIGKILL}, {@code Runtime.halt}): it polls the JVM once a
 * second and, once the JVM is gone, kills the processes listed in a pid file, but only
 * those whose command line still names a control plane work directory (so a recycled pid
 * is never hit), then deletes the registered work directories.</li>
 * </ul>
 */
final class ProcessReaper {

	private static final String WATCHDOG_SCRIPT = """
			jvm=$1; file=$2; dirs=$3
			while kill -0 "$jvm" 2>/dev/null; do sleep 1; done
			if [ -f "$file" ]; then
			  for p in $(cat "$file"); do
			    if grep -q kubeboot-control-plane- "/proc/$p/cmdline" 2>/dev/null; then kill -9 "$p" 2>/dev/null; fi
			  done
			  rm -f "$file"
			fi
			if [ -f "$dirs" ]; then
			  sleep 1
			  for d in $(cat "$dirs"); do
			    case "$d" in */kubeboot-control-plane-*) rm -rf "$d" ;; esac
			  done
			  rm -f "$dirs"
			fi
			""";

	private static final Map<Process, Duration> processes = new ConcurrentHashMap<>();

	private static final Set<Runnable> cleanups = ConcurrentHashMap.newKeySet();

	private static final Set<Path> workDirs = ConcurrentHashMap.newKeySet();

	private static boolean installed;

	private static Path pidFile;

	private static Path dirsFile;

	private ProcessReaper() {
	}

	/**
	 * Registers a child process to kill on JVM exit.
	 * @param process the process
	 * @param exitGrace how long the shutdown hook lets it run before killing it, for its
	 * owner to stop it on the same shutdown; zero to kill it at once
	 */
	static synchronized void register(Process process, Duration exitGrace) {
		install();
		processes.put(process, exitGrace);
		update();
	}

	/**
	 * Returns the command that runs a command in a session (and process group) of its
	 * own, out of reach of a Ctrl-C in the JVM's terminal, if this system has one.
	 * @param command the command
	 * @return the command prefixed with {@code setsid}, or the command itself
	 */
	static List<String> detached(List<String> command) {
		Path setsid = setsid();
		if (setsid == null) {
			return command;
		}
		List<String> detached = new ArrayList<>(command.size() + 1);
		detached.add(setsid.toString());
		detached.addAll(command);
		return detached;
	}

	private static Path setsid() {
		for (String directory : new String[] { "/usr/bin", "/bin" }) {
			Path candidate = Path.of(directory, "setsid");
			if (Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		return null;
	}

	/**
	 * Drops exited processes from the watchdog's pid file.
	 */
	static synchronized void update() {
		processes.keySet().removeIf((candidate) -> !candidate.isAlive());
		if (pidFile != null) {
			String pids = processes.keySet()
				.stream()
				.map((process) -> Long.toString(process.pid()))
				.collect(Collectors.joining(" "));
			try {
				Files.writeString(pidFile, pids + "\n", StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				// the shutdown hook still covers a regular JVM exit
			}
		}
	}

	static void registerCleanup(Runnable cleanup) {
		install();
		cleanups.add(cleanup);
	}

	static void unregisterCleanup(Runnable cleanup) {
		cleanups.remove(cleanup);
	}

	/**
	 * Has the watchdog delete a work directory if the JVM ends without running its
	 * shutdown hooks.
	 * @param directory the work directory, whose name starts with
	 * {@code kubeboot-control-plane-}
	 */
	static synchronized void registerWorkDir(Path directory) {
		install();
		workDirs.add(directory);
		writeWorkDirs();
	}

	static synchronized void unregisterWorkDir(Path directory) {
		workDirs.remove(directory);
		writeWorkDirs();
	}

	private static void writeWorkDirs() {
		if (dirsFile != null) {
			String dirs = workDirs.stream().map(Path::toString).collect(Collectors.joining("\n"));
			try {
				Files.writeString(dirsFile, dirs + "\n", StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				// the shutdown hook still covers a regular JVM exit
			}
		}
	}

	private static synchronized void install() {
		if (installed) {
			return;
		}
		installed = true;
		Runtime.getRuntime().addShutdownHook(new Thread(ProcessReaper::reap, "control-plane-reaper"));
		if (Files.isDirectory(Path.of("/proc/self"))) {
			startWatchdog();
		}
	}

	private static void startWatchdog() {
		Path pids = null;
		Path dirs = null;
		try {
			pids = Files.createTempFile("kubeboot-watchdog-pids-", ".txt");
			dirs = Files.createTempFile("kubeboot-watchdog-dirs-", ".txt");
			// in a session of its own: a Ctrl-C meant for the JVM must not end it while
			// the JVM shuts down
			new ProcessBuilder(detached(List.of("sh", "-c", WATCHDOG_SCRIPT, "control-plane-watchdog",
					Long.toString(ProcessHandle.current().pid()), pids.toString(), dirs.toString())))
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.redirectError(ProcessBuilder.Redirect.DISCARD)
				.start()
				.getOutputStream()
				.close();
			pidFile = pids;
			dirsFile = dirs;
		}
		catch (IOException ex) {
			// the shutdown hook still covers a regular JVM exit
			for (Path file : new Path[] { pids, dirs }) {
				if (file != null) {
					file.toFile().delete();
				}
			}
		}
	}

	private static void reap() {
		long started = System.nanoTime();
		processes.forEach((process, grace) -> {
			long remaining = grace.toNanos() - (System.nanoTime() - started);
			if (remaining > 0) {
				try {
					process.waitFor(remaining, TimeUnit.NANOSECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		});
		for (Process process : processes.keySet()) {
			if (process.isAlive()) {
				process.destroyForcibly();
			}
		}
		for (Process process : processes.keySet()) {
			try {
				process.waitFor(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
		}
		for (Runnable cleanup : cleanups) {
			try {
				cleanup.run();
			}
			catch (RuntimeException ex) {
				// best effort while the JVM is going down
			}
		}
		for (Path file : new Path[] { pidFile, dirsFile }) {
			if (file != null) {
				try {
					Files.deleteIfExists(file);
				}
				catch (IOException ex) {
					// the watchdog deletes it too
				}
			}
		}
	}

}
