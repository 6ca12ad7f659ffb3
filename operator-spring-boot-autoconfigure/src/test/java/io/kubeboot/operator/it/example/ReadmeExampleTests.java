package io.kubeboot.operator.it.example;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README shows exactly the code that
 * {@link ConfigMapSecretReconcilerIntegrationTests} runs, and the reconciler it tests.
 */
class ReadmeExampleTests {

	private static final Path EXAMPLES = Path.of("src/test/java/io/kubeboot/operator/it/example");

	@Test
	void readmeShowsTheSpringBootTestAndItsApplicationAsTheyAreHere() throws IOException {
		String readme = Files.readString(Path.of("../README.md"), StandardCharsets.UTF_8);
		assertThat(readme).contains(codeBlock("ExampleOperatorApplication.java"))
			.contains(codeBlock("ConfigMapSecretReconcilerIntegrationTests.java"))
			.contains(codeBlock("ConfigMapSecretReconciler.java"));
	}

	/**
	 * The source from its first import on, indented with spaces, as a README code block.
	 */
	private static String codeBlock(String file) throws IOException {
		String source = Files.readString(EXAMPLES.resolve(file), StandardCharsets.UTF_8);
		return "```java\n" + source.substring(source.indexOf("import ")).replace("\t", "    ").strip() + "\n```";
	}

}
