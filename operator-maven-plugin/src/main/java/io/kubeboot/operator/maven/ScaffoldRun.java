package io.kubeboot.operator.maven;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * One run of a goal once its scaffold is planned: print what it understood, refuse before
 * writing, write all the files or none, regenerate {@code deploy/}, and say what is next.
 * With {@code -DdryRun} it prints the plan and writes nothing.
 */
final class ScaffoldRun {

	private final Consumer<String> info;

	private final Consumer<String> warn;

	private final Consumer<String> debug;

	/**
	 * Creates a run that prints through the goal's log.
	 * @param info the log's info level
	 * @param warn the log's warn level
	 * @param debug the log's debug level, which gets the nested build's output
	 */
	ScaffoldRun(Consumer<String> info, Consumer<String> warn, Consumer<String> debug) {
		this.info = info;
		this.warn = warn;
		this.debug = debug;
	}

	/**
	 * Runs the scaffold.
	 * @param scaffold what to write
	 * @param dryRun whether to print the plan only
	 * @param regeneration the nested build that regenerates {@code deploy/}, or
	 * {@code null} for {@code -Dregenerate=false}
	 * @throws ScaffoldException if the plan is refused (nothing written), or regenerating
	 * failed (the files are written)
	 */
	void run(Scaffold scaffold, boolean dryRun, DeployRegeneration regeneration) {
		scaffold.summary().forEach(this.info);
		ScaffoldPlan plan = scaffold.plan();
		plan.check();
		if (regeneration != null) {
			requireGeneratedDeployTests(plan.root());
		}
		if (dryRun) {
			plan.describe(false).forEach(this.info);
			this.info.accept("Dry run (-DdryRun): nothing was written"
					+ ((regeneration != null) ? "; the goal would then run " + DeployRegeneration.COMMAND : ""));
			return;
		}
		plan.apply();
		plan.describe(true).forEach(this.info);
		if (regeneration == null) {
			this.warn.accept("deploy/ not regenerated (-Dregenerate=false): run " + DeployRegeneration.COMMAND
					+ " before the next build, which fails until deploy/ holds what the code generates");
		}
		else if (!regeneration.canRun()) {
			this.warn.accept("This Maven says not where it is installed (maven.home), so deploy/ is not regenerated: "
					+ "run " + DeployRegeneration.COMMAND);
		}
		else {
			this.info.accept("Regenerating deploy/: " + DeployRegeneration.COMMAND);
			try {
				this.info.accept(regeneration.run(this.debug));
			}
			catch (ScaffoldException ex) {
				throw new ScaffoldException("The files above were written; regenerating deploy/ failed. Fix, then run "
						+ DeployRegeneration.COMMAND + "\n" + ex.getMessage(), ex);
			}
		}
		this.info.accept(scaffold.next());
	}

	private static void requireGeneratedDeployTests(Path root) {
		Path tests = root.resolve("src/test/java");
		try (Stream<Path> files = Files.isDirectory(tests) ? Files.walk(tests) : Stream.empty()) {
			if (files.noneMatch((file) -> file.getFileName().toString().equals("GeneratedDeployTests.java"))) {
				throw new ScaffoldException("No src/test/java/**/GeneratedDeployTests.java to regenerate deploy/ with: "
						+ "pass -Dregenerate=false");
			}
		}
		catch (IOException | UncheckedIOException ex) {
			throw new ScaffoldException("Cannot read " + tests + ": " + ex.getMessage(), ex);
		}
	}

}
