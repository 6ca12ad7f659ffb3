package io.kubeboot.operator.benchmarks.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.kubeboot.operator.benchmarks.child.ChildSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JDK 25's AOT cache of {@link Implementation#SPRING_AOT}, written by one training run
 * before its first measured run: the Spring application with the same class path and JVM
 * flags plus {@code -XX:AOTCacheOutput=<file>} and
 * {@code -Dspring.context.exit=onRefresh}, with no kubeconfig and no cluster (it
 * refreshes the context and exits before the manager starts), as an image build would run
 * it. Its runs then start with {@code -XX:AOTMode=on -XX:AOTCache=<file>}: a cache the
 * JVM cannot use stops the run instead of measuring a start without it.
 */
final class AotCache {

	/**
	 * The feature release that has the AOT cache with {@code -XX:AOTCacheOutput} (JEP
	 * 514).
	 */
	static final int JDK = 25;

	private static final Logger logger = LoggerFactory.getLogger(AotCache.class);

	private static final long TRAINING_TIMEOUT_MINUTES = 5;

	private final Path file;

	private final long trainingMillis;

	private AotCache(Path file, long trainingMillis) {
		this.file = file;
		this.trainingMillis = trainingMillis;
	}

	/**
	 * Tells why the implementation cannot run, if it cannot.
	 * @param jdk the JDK the operator processes run on
	 * @param classPath their class path
	 * @return the reason, or {@code null} if it can run
	 */
	static String unavailable(ChildJdk jdk, OperatorClassPath classPath) {
		if (jdk.feature() < JDK) {
			return "the operator processes run on JDK %d (%s), and the AOT cache needs JDK %d or later: set -D%s to one"
				.formatted(jdk.feature(), jdk.home(), JDK, ChildJdk.PROPERTY);
		}
		if (!classPath.jarsOnly()) {
			return "the AOT cache needs a class path of jar files only, and " + classPath.problem();
		}
		return null;
	}

	/**
	 * Runs the training and returns the cache.
	 * @param jdk the JDK, {@value #JDK} or later
	 * @param classPath the class path, jar files only
	 * @param jvmFlags the JVM flags the measured runs use too
	 * @param workDir where the cache, the training's log and its empty home directory go
	 * @return the cache
	 * @throws IllegalStateException if the training run fails or writes no cache
	 * @throws IOException if it cannot be started
	 * @throws InterruptedException if interrupted
	 */
	static AotCache train(ChildJdk jdk, OperatorClassPath classPath, List<String> jvmFlags, Path workDir)
			throws IOException, InterruptedException {
		Path directory = Files.createDirectories(workDir.resolve(Implementation.SPRING_AOT.id()));
		Path file = directory.resolve("app.aot");
		Files.deleteIfExists(file);
		Path home = Files.createDirectories(directory.resolve("home"));
		Path log = workDir.resolve(Implementation.SPRING_AOT.id() + "-training.log");
		List<String> command = new ArrayList<>();
		command.add(jdk.java().toString());
		command.addAll(jvmFlags);
		command.add("-XX:AOTCacheOutput=" + file);
		command.add("-Dspring.context.exit=onRefresh");
		command.add("-cp");
		command.add(classPath.classPath());
		command.add(Implementation.SPRING_AOT.mainClass());
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
		// where an image is built: no kubeconfig, not in a pod
		Map<String, String> environment = builder.environment();
		environment.remove("KUBECONFIG");
		environment.remove("KUBERNETES_SERVICE_HOST");
		environment.remove("KUBERNETES_SERVICE_PORT");
		environment.put("HOME", home.toString());
		environment.put(ChildSettings.NAMESPACE, "aot-training");
		long start = System.nanoTime();
		Process process = builder.start();
		if (!process.waitFor(TRAINING_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
			process.destroyForcibly();
			throw new IllegalStateException("The training run of " + Implementation.SPRING_AOT.id()
					+ " did not exit within " + TRAINING_TIMEOUT_MINUTES + " minutes; see " + log);
		}
		long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		if (process.exitValue() != 0 || !Files.isRegularFile(file) || Files.size(file) == 0) {
			throw new IllegalStateException("The training run of " + Implementation.SPRING_AOT.id()
					+ " exited with status " + process.exitValue() + " and "
					+ (Files.isRegularFile(file) ? "a cache of " + Files.size(file) + " bytes" : "no cache " + file)
					+ "; see " + log);
		}
		String output = Files.readString(log, StandardCharsets.UTF_8);
		if (!output.contains("kubernetes.training-run.invalid")) {
			throw new IllegalStateException("The training run of " + Implementation.SPRING_AOT.id()
					+ " did not log the training run's stand-in client, so it found a cluster configuration; see "
					+ log);
		}
		AotCache cache = new AotCache(file, millis);
		logger.info("AOT cache of {}: {}", Implementation.SPRING_AOT.id(), cache.describe());
		return cache;
	}

	/**
	 * Returns the flags the measured runs add to the JVM flags.
	 * @return the flags
	 */
	List<String> runFlags() {
		return List.of("-XX:AOTMode=on", "-XX:AOTCache=" + this.file);
	}

	/**
	 * Describes the training and the cache for the report.
	 * @return the description
	 */
	String describe() {
		long bytes;
		try {
			bytes = Files.size(this.file);
		}
		catch (IOException ex) {
			bytes = -1;
		}
		return ("one training run (-XX:AOTCacheOutput, -Dspring.context.exit=onRefresh, no cluster) took %.1f s "
				+ "and wrote a cache of %.1f MiB; the runs add -XX:AOTMode=on -XX:AOTCache=<it>")
			.formatted(this.trainingMillis / 1000.0, bytes / (1024.0 * 1024.0));
	}

}
