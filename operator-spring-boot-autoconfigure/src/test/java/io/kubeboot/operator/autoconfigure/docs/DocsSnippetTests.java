package io.kubeboot.operator.autoconfigure.docs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code ```java} block of the documentation ({@code README.md}, the other Markdown
 * files of the root and {@code docs/}) compiles against the API, as {@link JavaSnippet}
 * wraps it: a block that no longer compiles fails the build with its file, line and the
 * compiler's message. A block is skipped only when the HTML comment before it says
 * {@code <!-- snippet: skip (why) -->}. The blocks that show the example application's
 * code are also compared with it by {@code DocsExampleTests}.
 */
class DocsSnippetTests {

	static final Path ROOT = Path.of("..");

	@TestFactory
	Stream<DynamicTest> everyJavaBlockOfTheDocumentationCompiles(@TempDir Path output) throws IOException {
		List<JavaSnippet> snippets = JavaSnippets.in(ROOT);
		Map<JavaSnippet, List<String>> errors = JavaSnippets
			.compile(snippets.stream().filter((snippet) -> snippet.marker().skip() == null).toList(), output);
		return snippets.stream().map((snippet) -> DynamicTest.dynamicTest(snippet.location(), () -> {
			Assumptions.assumeTrue(snippet.marker().skip() == null, snippet.marker().skip());
			assertThat(errors.get(snippet))
				.as("the errors of the block at %s, compiled as %s (JavaSnippet tells how, and how an HTML comment "
						+ "<!-- snippet: ... --> right before the block changes it)", snippet.location(),
						snippet.context())
				.isEmpty();
		}));
	}

	@Test
	void theDocumentationHasJavaBlocksInReadmeAndDocs() throws IOException {
		List<JavaSnippet> snippets = JavaSnippets.in(ROOT);
		assertThat(snippets).extracting(JavaSnippet::file).contains("README.md", "docs/guides/reconcilers.md");
		assertThat(snippets).hasSizeGreaterThan(20);
	}

	@Test
	void fewBlocksAreSkipped() throws IOException {
		assertThat(JavaSnippets.in(ROOT)).filteredOn((snippet) -> snippet.marker().skip() != null).hasSizeLessThan(4);
	}

}
