package io.kubeboot.operator.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control planes' work directories in the temporary directory: each names the JVM
 * that owns it in a file {@value #OWNER_FILE} (pid and start time), so that a later
 * control plane can delete the directories of JVMs that ended without deleting them
 * (killed, or halted, on a machine without the watchdog). Directories without that file
 * (kept on purpose, or from an older version) are never touched.
 */
final class WorkDirectories {

	static final String PREFIX = "kubeboot-control-plane-";

	static final String OWNER_FILE = "owner";

	private static final Logger logger = LoggerFactory.getLogger(WorkDirectories.class);

	private WorkDirectories() {
	}

	/**
	 * Writes the owner file of a new work directory (best effort: without it the
	 * directory is only never deleted by another JVM).
	 * @param directory the work directory
	 */
	static void claim(Path directory) {
		ProcessHandle self = ProcessHandle.current();
		String start = self.info().startInstant().map(Instant::toString).orElse("-");
		try {
			Files.writeString(directory.resolve(OWNER_FILE), self.pid() + " " + start + "\n", StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			logger.debug("Cannot write the owner of {}", directory, ex);
		}
	}

	/**
	 * Deletes the work directories in the given directory whose owning JVM is gone.
	 * @param temporaryDirectory where the work directories are created
	 */
	static void deleteAbandoned(Path temporaryDirectory) {
		try (DirectoryStream<Path> candidates = Files.newDirectoryStream(temporaryDirectory, PREFIX + "*")) {
			for (Path candidate : candidates) {
				if (isAbandoned(candidate)) {
					deleteRecursively(candidate);
					logger.info("Deleted the work directory of a control plane whose JVM is gone: {}", candidate);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("Cannot look for abandoned control plane work directories in {}", temporaryDirectory, ex);
		}
	}

	static boolean isAbandoned(Path directory) {
		Path owner = directory.resolve(OWNER_FILE);
		String[] fields;
		try {
			fields = Files.readString(owner, StandardCharsets.UTF_8).trim().split(" ");
		}
		catch (IOException ex) {
			return false;
		}
		if (fields.length != 2) {
			return false;
		}
		long pid;
		try {
			pid = Long.parseLong(fields[0]);
		}
		catch (NumberFormatException ex) {
			return false;
		}
		Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
		if (process.isEmpty()) {
			return true;
		}
		// the pid may have been reused by another process since
		Optional<String> started = process.get().info().startInstant().map(Instant::toString);
		return !"-".equals(fields[1]) && started.isPresent() && !started.get().equals(fields[1]);
	}

	static void deleteRecursively(Path directory) {
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> {
				try {
					Files.deleteIfExists(path);
				}
				catch (IOException ex) {
					// best effort
				}
			});
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("Cannot delete {}", directory, ex);
		}
	}

}
