package io.kubeboot.operator.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ScaffoldPlanTests {

	@TempDir
	Path project;

	@Test
	void createsEveryFileWithItsDirectories() throws IOException {
		new ScaffoldPlan(this.project).create(Path.of("src/main/java/a/A.java"), "class A {}\n", "move it")
			.create(Path.of("examples/a.yaml"), "kind: A\n", "move it")
			.apply();
		assertThat(tree()).containsExactly(Map.entry("examples/a.yaml", "kind: A\n"),
				Map.entry("src/main/java/a/A.java", "class A {}\n"));
	}

	@Test
	void refusesAnExistingFileBeforeWritingAnything() throws IOException {
		write("examples/a.yaml", "mine\n");
		Map<String, String> before = tree();
		ScaffoldPlan plan = new ScaffoldPlan(this.project)
			.create(Path.of("src/main/java/a/A.java"), "class A {}\n", "move it")
			.create(Path.of("examples/a.yaml"), "kind: A\n", "move it, or pass -Dexample=false");
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(plan::apply)
			.withMessage("examples/a.yaml exists and this goal never overwrites: move it, or pass -Dexample=false");
		assertThat(tree()).isEqualTo(before);
		assertThat(this.project.resolve("src")).doesNotExist();
	}

	@Test
	void aFailedWriteLeavesTheTreeAsItWas() throws IOException {
		write("pom.xml", "<project/>\n");
		// a file where the plan needs a directory: the third write fails
		write("blocked", "a file\n");
		Map<String, String> before = tree();
		ScaffoldPlan plan = new ScaffoldPlan(this.project)
			.create(Path.of("src/main/java/a/A.java"), "class A {}\n", "move it")
			.edit(Path.of("pom.xml"), "<project/>\n", "<project><build/></project>\n")
			.create(Path.of("blocked/B.java"), "class B {}\n", "move it");
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(plan::apply)
			.withMessageStartingWith("Cannot write blocked/B.java (")
			.withMessageEndingWith("): nothing was written");
		assertThat(tree()).isEqualTo(before);
		assertThat(this.project.resolve("src")).doesNotExist();
	}

	@Test
	void editsAFileKnownByItsContent() throws IOException {
		write("pom.xml", "<project>\n\t<a/>\n</project>\n");
		new ScaffoldPlan(this.project)
			.edit(Path.of("pom.xml"), "<project>\n\t<a/>\n</project>\n", "<project>\n\t<a/>\n\t<b/>\n</project>\n")
			.apply();
		assertThat(tree()).containsExactly(Map.entry("pom.xml", "<project>\n\t<a/>\n\t<b/>\n</project>\n"));
	}

	@Test
	@DisabledOnOs(OS.WINDOWS)
	void writtenFilesGetTheModesOfTheProjectNotOfATemporaryFile() throws IOException {
		write("pom.xml", "<project/>\n");
		write("run.sh", "echo a\n");
		Files.setPosixFilePermissions(this.project.resolve("pom.xml"), PosixFilePermissions.fromString("rw-rw-r--"));
		Files.setPosixFilePermissions(this.project.resolve("run.sh"), PosixFilePermissions.fromString("rwxr-x---"));
		new ScaffoldPlan(this.project).create(Path.of("src/main/java/a/A.java"), "class A {}\n", "move it")
			.edit(Path.of("run.sh"), "echo a\n", "echo b\n")
			.apply();
		assertThat(PosixFilePermissions
			.toString(Files.getPosixFilePermissions(this.project.resolve("src/main/java/a/A.java"))))
			.isEqualTo("rw-rw-r--");
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(this.project.resolve("run.sh"))))
			.isEqualTo("rwxr-x---");
	}

	@Test
	void refusesToEditAFileThatChangedSinceItWasRead() throws IOException {
		write("pom.xml", "<project>changed</project>\n");
		ScaffoldPlan plan = new ScaffoldPlan(this.project).edit(Path.of("pom.xml"), "<project/>\n",
				"<project><build/></project>\n");
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(plan::apply)
			.withMessage("pom.xml changed while the goal ran: run it again");
		assertThat(tree()).containsExactly(Map.entry("pom.xml", "<project>changed</project>\n"));
	}

	@Test
	void describesCreationsAndTheDiffOfEdits() throws IOException {
		ScaffoldPlan plan = new ScaffoldPlan(this.project)
			.create(Path.of("src/main/java/a/A.java"), "class A {}\n", "move it")
			.edit(Path.of("pom.xml"), "<project>\n\t<a/>\n\t<c/>\n</project>\n",
					"<project>\n\t<a/>\n\t<b/>\n\t<c/>\n</project>\n");
		assertThat(plan.describe(false)).containsExactly("Would create src/main/java/a/A.java", "Would change pom.xml",
				"--- pom.xml", "+++ pom.xml", "@@ -1,4 +1,5 @@", " <project>", " \t<a/>", "+\t<b/>", " \t<c/>",
				" </project>");
		assertThat(plan.describe(true)).startsWith("Created src/main/java/a/A.java", "Changed pom.xml");
		assertThat(tree()).isEmpty();
	}

	@Test
	void refusesPathsOutsideTheProjectAndTwiceThePath() {
		ScaffoldPlan plan = new ScaffoldPlan(this.project);
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> plan.create(Path.of("../x"), "", "move it"));
		plan.create(Path.of("x"), "", "move it");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> plan.create(Path.of("x"), "", "move it"));
	}

	private void write(String path, String content) throws IOException {
		Path file = this.project.resolve(path);
		Files.createDirectories(file.getParent());
		Files.writeString(file, content);
	}

	// every file and directory under the project, byte for byte
	private Map<String, String> tree() throws IOException {
		Map<String, String> tree = new TreeMap<>();
		try (Stream<Path> walk = Files.walk(this.project)) {
			for (Path path : walk.filter((path) -> !path.equals(this.project)).toList()) {
				String name = this.project.relativize(path).toString().replace('\\', '/');
				if (Files.isRegularFile(path)) {
					tree.put(name, Files.readString(path));
				}
				else if (isEmpty(path)) {
					tree.put(name + "/", "");
				}
			}
		}
		return tree;
	}

	private static boolean isEmpty(Path directory) throws IOException {
		try (Stream<Path> entries = Files.list(directory)) {
			return entries.findAny().isEmpty();
		}
	}

}
