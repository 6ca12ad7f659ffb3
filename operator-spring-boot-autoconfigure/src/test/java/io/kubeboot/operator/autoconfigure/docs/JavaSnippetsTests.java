package io.kubeboot.operator.autoconfigure.docs;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.autoconfigure.docs.JavaSnippet.Context;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * How {@link JavaSnippets} reads the {@code ```java} blocks of a Markdown file, wraps
 * them and locates the compiler's errors in the file.
 */
class JavaSnippetsTests {

	@Test
	void readFindsTheJavaBlocksWithTheLineOfTheirFence() {
		List<JavaSnippet> snippets = JavaSnippets.read("guide.md", """
				# Guide

				```yaml
				a: b
				```

				```java
				Result result = Result.done();
				```

				- in a list:

				  ```java
				  Request request = Request.of("ns", "name");
				  ```
				""");
		assertThat(snippets).extracting(JavaSnippet::location).containsExactly("guide.md:7", "guide.md:13");
		assertThat(snippets.get(1).code()).isEqualTo("Request request = Request.of(\"ns\", \"name\");");
	}

	@Test
	void contextIsFileForImportsOrATypeClassForAnnotatedMembersAndMethodOtherwise() {
		assertThat(contextOf("import java.util.List;\n\nclass A {\n}")).isEqualTo(Context.FILE);
		assertThat(contextOf("@Reconciles(V1ConfigMap.class)\n@RbacRule(verbs = \"get\",\n        reason = \"x\")\n"
				+ "class A {\n}"))
			.isEqualTo(Context.FILE);
		assertThat(contextOf("public record Spec(String size) {}")).isEqualTo(Context.FILE);
		assertThat(contextOf("@Bean\nCheck check() {\n    return null;\n}")).isEqualTo(Context.CLASS);
		assertThat(contextOf("Manager manager = Manager.builder(apiClient).build();\nmanager.start();"))
			.isEqualTo(Context.METHOD);
	}

	@Test
	void markerGivesContextImportsAndWhatTheBlockUses() {
		String marker = "<!-- snippet: context=class; imports=java.util.concurrent.*; "
				+ "given=Map<String, String> labels, List<Request> appsOf(String a, String b) -->";
		JavaSnippet snippet = JavaSnippets.read("guide.md", marker + "\n```java\nint size = labels.size();\n```\n")
			.get(0);
		assertThat(snippet.context()).isEqualTo(Context.CLASS);
		assertThat(snippet.marker().given()).containsExactly("Map<String, String> labels",
				"List<Request> appsOf(String a, String b)");
		String header = snippet.compilationUnit().lines().findFirst().orElseThrow();
		assertThat(header).startsWith("package snippet.guide_md_line2;")
			.contains(" import java.util.concurrent.*;")
			.endsWith(" class Snippet2 { Map<String, String> labels; List<Request> appsOf(String a, String b) "
					+ "{ throw new UnsupportedOperationException(); }");
	}

	@Test
	void skipNeedsAReason() {
		assertThat(JavaSnippets.read("guide.md", "<!-- snippet: skip (pseudo-code) -->\n```java\n...\n```\n")
			.get(0)
			.marker()
			.skip()).isEqualTo("pseudo-code");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> JavaSnippets.read("guide.md", "<!-- snippet: skip -->\n```java\n...\n```\n"))
			.withMessageContaining("needs a reason");
	}

	@Test
	void markerNotRightBeforeAJavaFenceFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> JavaSnippets.read("guide.md", "<!-- snippet: skip (x) -->\n\n```java\n...\n```\n"))
			.withMessage("guide.md:1: a snippet marker must be right before a ```java fence");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> JavaSnippets.read("guide.md", "<!-- snippet: contxt=class -->\n```java\n;\n```\n"))
			.withMessageContaining("unknown item 'contxt=class'");
	}

	@Test
	void givenOnAFileFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> JavaSnippets.read("guide.md",
					"<!-- snippet: given=Cache cache -->\n```java\nclass A {\n}\n```\n"))
			.withMessageStartingWith("guide.md:2: 'given' declares members");
	}

	@Test
	void continuesSharesThePackageOfThePreviousBlock() {
		List<JavaSnippet> snippets = JavaSnippets.read("guide.md", """
				```java
				public record Spec(String size) {}
				```

				<!-- snippet: continues -->
				```java
				Spec spec = new Spec("10Gi");
				```
				""");
		assertThat(snippets.get(1).packageName()).isEqualTo(snippets.get(0).packageName());
	}

	@Test
	void compileLocatesEachErrorInTheMarkdownFileEvenAfterASyntaxError(@TempDir Path output) {
		List<JavaSnippet> snippets = JavaSnippets.read("guide.md", """
				```java
				Result result = Result.done();
				Result other = Result.doneNow();
				```

				```java
				class Broken {
				```

				```java
				Request request = Request.of("ns", "name");
				```
				""");
		Map<JavaSnippet, List<String>> errors = JavaSnippets.compile(snippets, output);
		assertThat(errors.get(snippets.get(0))).singleElement()
			.asString()
			.startsWith("guide.md:3: cannot find symbol")
			.endsWith("\n    Result other = Result.doneNow();");
		assertThat(errors.get(snippets.get(1))).isNotEmpty();
		assertThat(errors.get(snippets.get(2))).isEmpty();
	}

	private static Context contextOf(String code) {
		return JavaSnippets.read("guide.md", "```java\n" + code + "\n```\n").get(0).context();
	}

}
