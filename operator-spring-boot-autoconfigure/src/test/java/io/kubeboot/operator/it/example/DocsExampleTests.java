package io.kubeboot.operator.it.example;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documentation shows exactly the code that
 * {@link ConfigMapSecretReconcilerIntegrationTests} runs, with its application, in
 * {@code docs/guides/testing.md}, and the reconciler it tests in
 * {@code docs/guides/writing-to-the-cluster.md}.
 */
class DocsExampleTests {

	private static final Path EXAMPLES = Path.of("src/test/java/io/kubeboot/operator/it/example");

	private static final Path TESTING = Path.of("../docs/guides/testing.md");

	private static final Path WRITING_TO_THE_CLUSTER = Path.of("../docs/guides/writing-to-the-cluster.md");

	@Test
	void testingGuideShowsTheSpringBootTestAndItsApplicationAsTheyAreHere() throws IOException {
		String guide = Files.readString(TESTING, StandardCharsets.UTF_8);
		assertThat(guide).contains(codeBlock("ExampleOperatorApplication.java"));
		assertThat(guide).contains(codeBlock("ConfigMapSecretReconcilerIntegrationTests.java"));
	}

	@Test
	void writingToTheClusterGuideShowsTheReconcilerAsItIsHere() throws IOException {
		String guide = Files.readString(WRITING_TO_THE_CLUSTER, StandardCharsets.UTF_8);
		assertThat(guide).contains(codeBlock("ConfigMapSecretReconciler.java"));
	}

	/**
	 * The source from its first import on, indented with spaces, as a code block.
	 */
	private static String codeBlock(String file) throws IOException {
		String source = Files.readString(EXAMPLES.resolve(file), StandardCharsets.UTF_8);
		return "```java\n" + source.substring(source.indexOf("import ")).replace("\t", "    ").strip() + "\n```";
	}

}
