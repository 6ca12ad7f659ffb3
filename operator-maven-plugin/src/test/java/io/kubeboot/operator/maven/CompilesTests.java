package io.kubeboot.operator.maven;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the goals write compiles against this repository's library, with the CRD generator
 * as the annotation processor, as in a generated project's build: the class path is this
 * module's test class path, which has the starter, the test support and the generator.
 */
class CompilesTests {

	private static final String PROCESSOR = "io.kubeboot.operator.crd.CustomResourceDefinitionProcessor";

	@TempDir
	Path directory;

	@Test
	void scaffoldedKindsAndWebhooksCompileAndGenerateTheirCrds() throws IOException {
		Path project = Projects.copy(Projects.SHOP, this.directory.resolve("shop"));
		scaffold(project, new ApiScaffold.Options("Database", null, null, null, null, true));
		scaffold(project, new ApiScaffold.Options("Region", null, null, null, "Cluster", true));
		scaffold(project, new ApiScaffold.Options("Invoice", "billing.example.com/v1", null, null, null, true));
		webhooks(project, "Database");
		webhooks(project, "Region");

		Path classes = this.directory.resolve("classes");
		compile(javaFiles(project.resolve("src/main/java")), classes, List.of("-processor", PROCESSOR));
		Path crds = classes.resolve("META-INF/kubeboot/crds");
		String database = Files.readString(crds.resolve("databases.shop.example.com.yaml"));
		assertThat(database).contains("scope: Namespaced").contains("maxLength: 256").contains("name: v1alpha1");
		assertThat(Files.readString(crds.resolve("regions.shop.example.com.yaml"))).contains("scope: Cluster");
		assertThat(crds.resolve("invoices.billing.example.com.yaml")).exists();

		Path testSources = project.resolve("src/test/java/com/example/shop");
		List<Path> tests = Stream
			.concat(Stream.of("Database", "Region")
				.flatMap((kind) -> Stream.of(kind + "ReconcilerTests.java", kind + "ValidatorTests.java",
						kind + "DefaulterTests.java")),
					Stream.of("InvoiceReconcilerTests.java"))
			.map(testSources::resolve)
			.toList();
		compile(tests, this.directory.resolve("test-classes"),
				List.of("-proc:none", "-cp", classes + File.pathSeparator + System.getProperty("java.class.path")));
	}

	private static void scaffold(Path project, ApiScaffold.Options options) {
		new ApiScaffold(options).plan(ProjectSources.read(project)).plan().apply();
	}

	private static void webhooks(Path project, String kind) {
		new WebhookScaffold(new WebhookScaffold.Options(kind, null, true, true)).plan(ProjectSources.read(project))
			.plan()
			.apply();
	}

	private static void compile(List<Path> sources, Path output, List<String> options) throws IOException {
		Files.createDirectories(output);
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT,
				StandardCharsets.UTF_8)) {
			List<String> arguments = Stream
				.concat(Stream.of("-d", output.toString(), "-Xlint:all", "-parameters"), options.stream())
				.collect(Collectors.toList());
			if (!arguments.contains("-cp")) {
				arguments.addAll(List.of("-cp", System.getProperty("java.class.path"), "-processorpath",
						System.getProperty("java.class.path")));
			}
			boolean compiled = javac
				.getTask(null, files, diagnostics, arguments, null, files.getJavaFileObjectsFromPaths(sources))
				.call();
			List<String> problems = diagnostics.getDiagnostics()
				.stream()
				.filter((diagnostic) -> diagnostic.getKind() == Diagnostic.Kind.ERROR
						|| diagnostic.getKind() == Diagnostic.Kind.WARNING)
				// the fixture's own files are not this test's business, nor is javac's
				// note that no
				// processor claimed Spring's annotations
				.filter((diagnostic) -> diagnostic.getSource() != null)
				.filter((diagnostic) -> diagnostic.getSource().getName().contains("Database")
						|| diagnostic.getSource().getName().contains("Region")
						|| diagnostic.getSource().getName().contains("Invoice"))
				.map((diagnostic) -> diagnostic.getKind() + " " + diagnostic.getSource() + ":"
						+ diagnostic.getLineNumber() + " " + diagnostic.getMessage(Locale.ROOT))
				.toList();
			assertThat(problems).as("what javac said of the scaffolded files").isEmpty();
			assertThat(compiled).isTrue();
		}
	}

	private static List<Path> javaFiles(Path directory) throws IOException {
		try (Stream<Path> files = Files.walk(directory)) {
			return files.filter((file) -> file.toString().endsWith(".java")).sorted().toList();
		}
	}

}
