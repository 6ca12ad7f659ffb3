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
 * The image's recipe of {@link Implementation#SPRING_AOT}, as the archetype's Dockerfile
 * applies it: Spring AOT ({@code -Dspring.aot.enabled=true}, the beans this module's
 * build generated) and a class-data archive written by one training run before the first
 * measured run, the Spring application with the same class path and JVM flags plus
 * {@code -Dspring.context.exit=onRefresh}, with no kubeconfig and no cluster (it
 * refreshes the context and exits before the manager starts). On JDK 25 and later the
 * archive is the AOT cache ({@code -XX:AOTCacheOutput=<file>}, runs with
 * {@code -XX:AOTMode=on -XX:AOTCache=<file>}); before, a dynamic CDS archive
 * ({@code -XX:ArchiveClassesAtExit=<file>}, runs with
 * {@code -Xshare:on -XX:SharedArchiveFile=<file>}). Either way an archive the JVM cannot
 * use stops the run instead of measuring a start without it.
 */
final class AotCache {

	/**
	 * The feature release that has the AOT cache with {@code -XX:AOTCacheOutput} (JEP
	 * 514); earlier ones get a dynamic CDS archive.
	 */
	static final int JDK = 25;

	private static final String SPRING_AOT = "-Dspring.aot.enabled=true";

	private static final Logger logger = LoggerFactory.getLogger(AotCache.class);

	private static final long TRAINING_TIMEOUT_MINUTES = 5;

	private final Path file;

	private final boolean aotCache;

	private final long trainingMillis;

	private AotCache(Path file, boolean aotCache, long trainingMillis) {
		this.file = file;
		this.aotCache = aotCache;
		this.trainingMillis = trainingMillis;
	}

	/**
	 * Tells why the implementation cannot run, if it cannot.
	 * @param jdk the JDK the operator processes run on
	 * @param classPath their class path
	 * @return the reason, or {@code null} if it can run
	 */
	static String unavailable(OperatorClassPath classPath) {
		if (!classPath.jarsOnly()) {
			return "a class-data archive needs a class path of jar files only, and " + classPath.problem();
		}
		return null;
	}

	/**
	 * Runs the training and returns the cache.
	 * @param jdk the JDK the operator processes run on
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
		boolean aotCache = jdk.feature() >= JDK;
		Path file = directory.resolve(aotCache ? "app.aot" : "app.jsa");
		Files.deleteIfExists(file);
		Path home = Files.createDirectories(directory.resolve("home"));
		Path log = workDir.resolve(Implementation.SPRING_AOT.id() + "-training.log");
		List<String> command = new ArrayList<>();
		command.add(jdk.java().toString());
		command.addAll(jvmFlags);
		command.add(SPRING_AOT);
		command.add((aotCache ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=") + file);
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
		AotCache cache = new AotCache(file, aotCache, millis);
		logger.info("Class-data archive of {}: {}", Implementation.SPRING_AOT.id(), cache.describe());
		return cache;
	}

	/**
	 * Returns the flags the measured runs add to the JVM flags.
	 * @return the flags
	 */
	List<String> runFlags() {
		return this.aotCache ? List.of(SPRING_AOT, "-XX:AOTMode=on", "-XX:AOTCache=" + this.file)
				: List.of(SPRING_AOT, "-Xshare:on", "-XX:SharedArchiveFile=" + this.file);
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
		return ("one training run (%s %s, -Dspring.context.exit=onRefresh, no cluster) took %.1f s "
				+ "and wrote %s of %.1f MiB; the runs add %s")
			.formatted(SPRING_AOT, this.aotCache ? "-XX:AOTCacheOutput" : "-XX:ArchiveClassesAtExit",
					this.trainingMillis / 1000.0, this.aotCache ? "an AOT cache" : "a dynamic CDS archive",
					bytes / (1024.0 * 1024.0), String.join(" ", runFlags()).replace(this.file.toString(), "<it>"));
	}

}
