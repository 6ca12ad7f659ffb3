package io.kubeboot.operator.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A directory of generated files, compared and written.
 */
class GeneratedFilesTests {

	private final GeneratedFiles files = GeneratedFiles.of(files("a.yaml", "one\ntwo\n", "chart/b.yaml", "b\n"));

	@Test
	void everyDifferenceIsNamedWithTheLinesThatDiffer(@TempDir Path directory) throws IOException {
		Files.writeString(directory.resolve("a.yaml"), "one\n2\n");
		Files.writeString(directory.resolve("stale.yaml"), "old\n");
		assertThat(this.files.differencesFrom(directory)).containsExactly(
				"a.yaml differs (- checked in, + generated):\n    2 + two\n    2 - 2", "chart/b.yaml: missing",
				"stale.yaml: not generated");
	}

	@Test
	void writingMakesTheDirectoryHoldExactlyTheFiles(@TempDir Path directory) throws IOException {
		Files.writeString(directory.resolve("stale.yaml"), "old\n");
		this.files.writeTo(directory);
		assertThat(this.files.differencesFrom(directory)).isEmpty();
		assertThat(directory.resolve("stale.yaml")).doesNotExist();
		assertThat(directory.resolve("chart/b.yaml")).hasContent("b");
	}

	@Test
	void filesWhoseNamesStartWithADotAreNeitherComparedNorDeleted(@TempDir Path directory) throws IOException {
		Files.createDirectories(directory.resolve("chart/.idea"));
		Files.writeString(directory.resolve(".gitkeep"), "");
		Files.writeString(directory.resolve("chart/.DS_Store"), "x");
		Files.writeString(directory.resolve("chart/.idea/workspace.xml"), "x");
		this.files.writeTo(directory);
		assertThat(this.files.differencesFrom(directory)).isEmpty();
		assertThat(directory.resolve(".gitkeep")).exists();
		assertThat(directory.resolve("chart/.DS_Store")).exists();
		assertThat(directory.resolve("chart/.idea/workspace.xml")).exists();
	}

	@Test
	void theCheckFailsSayingHowToRegenerateUnlessItUpdates(@TempDir Path directory) {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> this.files.check(directory, false, "mvn test -Ddeploy.update=true"))
			.withMessageContaining("a.yaml: missing")
			.withMessageEndingWith("for names starting with a dot): mvn test -Ddeploy.update=true");
		this.files.check(directory, true, "mvn test -Ddeploy.update=true");
		this.files.check(directory, false, "mvn test -Ddeploy.update=true");
	}

	private static Map<String, String> files(String... pathsAndContents) {
		Map<String, String> files = new LinkedHashMap<>();
		for (int i = 0; i < pathsAndContents.length; i += 2) {
			files.put(pathsAndContents[i], pathsAndContents[i + 1]);
		}
		return files;
	}

}
