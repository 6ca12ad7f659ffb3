package io.kubeboot.operator.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class DeployRegenerationTests {

	@TempDir
	Path directory;

	@Test
	void theNestedBuildResolvesAsTheOuterOne() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("kind", "Database");
		properties.put("aether.offline.protocols", "file");
		properties.put("dryRun", "false");
		properties.put("test", "Other"); // the command's own
		properties.put("archetype.version", "1.0");
		properties.put("skipTests", "true"); // the outer build's, not the test's
		properties.put("maven.test.skip", "true");
		DeployRegeneration.Session session = new DeployRegeneration.Session(Path.of("/opt/maven"),
				Path.of("/work/shop/pom.xml"), Path.of("/work/shop/target/surefire-reports"),
				Path.of("/home/me/settings.xml"), Path.of("/opt/maven/conf/settings.xml"), Path.of("/work/repo"), true,
				List.of("ci", "fast"), properties, false);
		assertThat(new DeployRegeneration(session, Set.of("kind", "dryRun")).command()).containsExactly(
				"/opt/maven/bin/mvn", "-B", "-f", "/work/shop/pom.xml", "-s", "/home/me/settings.xml", "-gs",
				"/opt/maven/conf/settings.xml", "-Dmaven.repo.local=/work/repo", "-o", "-P", "ci,fast",
				"-Daether.offline.protocols=file", "-Darchetype.version=1.0", "test", "-Dtest=GeneratedDeployTests",
				"-Ddeploy.update=true", "-Dsurefire.failIfNoSpecifiedTests=false", "-DskipTests=false",
				"-Dmaven.test.skip=false");
	}

	@Test
	void aPlainSessionGivesAPlainCommand() {
		DeployRegeneration.Session session = new DeployRegeneration.Session(Path.of("C:/maven"),
				Path.of("C:/shop/pom.xml"), Path.of("C:/shop/target/surefire-reports"), null, null, null, false,
				List.of(), Map.of(), true);
		assertThat(new DeployRegeneration(session, Set.of()).command()).containsExactly(
				Path.of("C:/maven").resolve("bin").resolve("mvn.cmd").toString(), "-B", "-f",
				Path.of("C:/shop/pom.xml").toString(), "test", "-Dtest=GeneratedDeployTests", "-Ddeploy.update=true",
				"-Dsurefire.failIfNoSpecifiedTests=false", "-DskipTests=false", "-Dmaven.test.skip=false");
	}

	@Test
	void cannotRunWithoutMavenHome() {
		assertThat(regeneration(null).canRun()).isFalse();
		assertThat(regeneration(this.directory).canRun()).isFalse(); // no bin/mvn there
	}

	@Test
	void summarisesTheFilesChangedAddedAndRemoved() {
		assertThat(DeployRegeneration.changes(Map.of("crd.yaml", "1", "rbac.yaml", "2", "old.yaml", "3"),
				Map.of("crd.yaml", "9", "rbac.yaml", "2", "chart/crds/databases.shop.example.com.yaml", "4")))
			.isEqualTo("deploy/ regenerated: changed crd.yaml; added chart/crds/databases.shop.example.com.yaml; "
					+ "removed old.yaml");
		assertThat(DeployRegeneration.changes(Map.of("crd.yaml", "1"), Map.of("crd.yaml", "1")))
			.isEqualTo("deploy/ regenerated: unchanged");
	}

	@Test
	@DisabledOnOs(OS.WINDOWS)
	void runsTheBuildAndTellsWhatChangedInDeploy() throws IOException {
		Path project = shop();
		Projects.write(project, "deploy/crd.yaml", "old\n");
		Projects.write(project, "deploy/rbac.yaml", "same\n");
		Path mavenHome = fakeMaven(
				"""
						echo "[INFO] args: $*"
						mkdir -p target/surefire-reports && echo '<testsuite/>' > target/surefire-reports/TEST-com.example.shop.GeneratedDeployTests.xml
						echo new > deploy/crd.yaml
						mkdir -p deploy/chart && echo added > deploy/chart/extra.yaml
						""");
		List<String> output = new ArrayList<>();
		DeployRegeneration regeneration = new DeployRegeneration(session(mavenHome, project), Set.of());
		assertThat(regeneration.canRun()).isTrue();
		assertThat(regeneration.run(output::add))
			.isEqualTo("deploy/ regenerated: changed crd.yaml; added chart/extra.yaml");
		assertThat(output).containsExactly("[INFO] args: -B -f " + project.resolve("pom.xml")
				+ " test -Dtest=GeneratedDeployTests -Ddeploy.update=true -Dsurefire.failIfNoSpecifiedTests=false"
				+ " -DskipTests=false -Dmaven.test.skip=false");
	}

	@Test
	@DisabledOnOs(OS.WINDOWS)
	void aBuildThatRanNoGeneratedDeployTestsFails() throws IOException {
		Path project = shop();
		// the report of an earlier run does not count for this one
		Projects.write(project, "target/surefire-reports/TEST-com.example.shop.GeneratedDeployTests.xml", "old\n");
		Path mavenHome = fakeMaven("""
				echo "[INFO] Tests are skipped."
				""");
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> new DeployRegeneration(session(mavenHome, project), Set.of()).run((line) -> {
			}))
			.withMessage("The nested build succeeded but ran no GeneratedDeployTests (no "
					+ project.resolve("target/surefire-reports/TEST-*GeneratedDeployTests.xml")
					+ "): deploy/ was not regenerated. Does the project skip its tests, or write its reports "
					+ "elsewhere? Its last lines:\n[INFO] Tests are skipped.");
	}

	@Test
	@DisabledOnOs(OS.WINDOWS)
	void aFailedBuildGivesItsLastSixtyLines() throws IOException {
		Path project = shop();
		Path mavenHome = fakeMaven("""
				for i in $(seq 1 100); do echo "line $i"; done
				exit 3
				""");
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> new DeployRegeneration(session(mavenHome, project), Set.of()).run((line) -> {
			}))
			.withMessageStartingWith("The nested build exited with 3. Its last lines:\nline 41\nline 42\n")
			.withMessageEndingWith("\nline 100");
	}

	private Path shop() throws IOException {
		Path project = Files.createDirectories(this.directory.resolve("shop"));
		Files.writeString(project.resolve("pom.xml"), "<project/>");
		return project;
	}

	private Path fakeMaven(String script) throws IOException {
		Path mvn = this.directory.resolve("maven/bin/mvn");
		Files.createDirectories(mvn.getParent());
		Files.writeString(mvn, "#!/bin/sh\n" + script);
		Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
		return this.directory.resolve("maven");
	}

	private DeployRegeneration regeneration(Path mavenHome) {
		return new DeployRegeneration(session(mavenHome, this.directory), Set.of());
	}

	private static DeployRegeneration.Session session(Path mavenHome, Path project) {
		return new DeployRegeneration.Session(mavenHome, project.resolve("pom.xml"),
				project.resolve("target/surefire-reports"), null, null, null, false, List.of(), Map.of(), false);
	}

}
