package io.kubeboot.operator.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ScaffoldRunTests {

	@TempDir
	Path directory;

	private final List<String> log = new ArrayList<>();

	private final ScaffoldRun run = new ScaffoldRun((line) -> this.log.add("INFO " + line),
			(line) -> this.log.add("WARN " + line), (line) -> this.log.add("DEBUG " + line));

	@Test
	void aDryRunPrintsThePlanAndWritesNothing() {
		Path project = Projects.copy(Projects.SHOP, this.directory.resolve("shop"));
		Map<String, String> before = Projects.tree(project);
		this.run.run(scaffold(project), true, regeneration(project, null));
		assertThat(Projects.tree(project)).isEqualTo(before);
		assertThat(this.log).contains("INFO Would create src/main/java/com/example/shop/v1alpha1/Database.java",
				"INFO Dry run (-DdryRun): nothing was written; the goal would then run mvn test "
						+ "-Dtest=GeneratedDeployTests -Ddeploy.update=true");
	}

	@Test
	void withoutRegenerationWritesTheFilesAndSaysWhatToRun() {
		Path project = Projects.copy(Projects.SHOP, this.directory.resolve("shop"));
		this.run.run(scaffold(project), false, null);
		assertThat(project.resolve("src/main/java/com/example/shop/v1alpha1/Database.java")).exists();
		assertThat(this.log).contains("INFO Created examples/database.yaml",
				"WARN deploy/ not regenerated (-Dregenerate=false): run mvn test -Dtest=GeneratedDeployTests "
						+ "-Ddeploy.update=true before the next build, which fails until deploy/ holds what the code "
						+ "generates");
		assertThat(this.log.get(this.log.size() - 1)).startsWith("INFO Next: give DatabaseSpec its fields");
	}

	@Test
	void refusesToRegenerateWithoutGeneratedDeployTestsBeforeWriting() throws IOException {
		Path project = Projects.copy(Projects.SHOP, this.directory.resolve("shop"));
		Files.delete(project.resolve("src/test/java/com/example/shop/GeneratedDeployTests.java"));
		Map<String, String> before = Projects.tree(project);
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> this.run.run(scaffold(project), false, regeneration(project, null)))
			.withMessage("No src/test/java/**/GeneratedDeployTests.java to regenerate deploy/ with: pass "
					+ "-Dregenerate=false");
		assertThat(Projects.tree(project)).isEqualTo(before);
	}

	@Test
	void printsTheCommandWhenMavenIsNotFound() {
		Path project = Projects.copy(Projects.SHOP, this.directory.resolve("shop"));
		this.run.run(scaffold(project), false, regeneration(project, null));
		assertThat(this.log).contains("WARN This Maven says not where it is installed (maven.home), so deploy/ is "
				+ "not regenerated: run mvn test -Dtest=GeneratedDeployTests -Ddeploy.update=true");
	}

	@Test
	@DisabledOnOs(OS.WINDOWS)
	void aFailedRegenerationKeepsTheFilesAndSaysHowToRetry() throws IOException {
		Path project = Projects.copy(Projects.SHOP, this.directory.resolve("shop"));
		Path mvn = this.directory.resolve("maven/bin/mvn");
		Files.createDirectories(mvn.getParent());
		Files.writeString(mvn, "#!/bin/sh\necho '[ERROR] COMPILATION ERROR'\nexit 1\n");
		Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(
				() -> this.run.run(scaffold(project), false, regeneration(project, this.directory.resolve("maven"))))
			.withMessage("The files above were written; regenerating deploy/ failed. Fix, then run mvn test "
					+ "-Dtest=GeneratedDeployTests -Ddeploy.update=true\nThe nested build exited with 1. Its last "
					+ "lines:\n[ERROR] COMPILATION ERROR");
		assertThat(project.resolve("src/main/java/com/example/shop/DatabaseReconciler.java")).exists();
		assertThat(this.log).contains("DEBUG [ERROR] COMPILATION ERROR");
	}

	private static Scaffold scaffold(Path project) {
		return new ApiScaffold(new ApiScaffold.Options("Database", null, null, null, null, true))
			.plan(ProjectSources.read(project));
	}

	private static DeployRegeneration regeneration(Path project, Path mavenHome) {
		return new DeployRegeneration(new DeployRegeneration.Session(mavenHome, project.resolve("pom.xml"),
				project.resolve("target/surefire-reports"), null, null, null, false, List.of(), Map.of(), false),
				Set.of());
	}

}
