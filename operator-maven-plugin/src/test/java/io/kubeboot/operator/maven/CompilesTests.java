package io.kubeboot.operator.maven;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the goals write compiles against this repository's library, with the CRD generator
 * as the annotation processor, as in a generated project's build: the class path is this
 * module's test class path, which has the starter, the test support and the generator.
 */
class CompilesTests {

	private static final List<String> SCAFFOLDED = List.of("Database", "Region", "Invoice");

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
		compile(javaFiles(project.resolve("src/main/java")), classes, List.of("-processor", PROCESSOR), SCAFFOLDED);
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
				List.of("-proc:none", "-cp", classes + File.pathSeparator + System.getProperty("java.class.path")),
				SCAFFOLDED);
	}

	@Test
	void aScaffoldedVersionCompilesAndItsCrdConvertsByWebhook() throws IOException {
		Path project = Projects.copy(Projects.SHOP, this.directory.resolve("shop"));
		new VersionScaffold(new VersionScaffold.Options("Website", "v1", true)).plan(ProjectSources.read(project))
			.plan()
			.apply();
		// a third version extends the Conversion bean the first one created
		new VersionScaffold(new VersionScaffold.Options("Website", "v2", true)).plan(ProjectSources.read(project))
			.plan()
			.apply();
		assertThat(project.resolve("src/main/java/com/example/shop/WebsiteConversion.java")).content()
			.contains(".spokes(com.example.shop.v1.Website.class, com.example.shop.v2.Website.class);");
		new VersionScaffold(new VersionScaffold.Options("Shelf", "v1beta1", true)).plan(ProjectSources.read(project))
			.plan()
			.apply();
		// the options the goal wrote into pom.xml, as maven-compiler-plugin passes them
		String pom = Files.readString(project.resolve("pom.xml"));
		List<String> options = new ArrayList<>(List.of("-processor", PROCESSOR));
		Matcher args = Pattern.compile("<arg>(-Akubeboot[^<]*)</arg>").matcher(pom);
		while (args.find()) {
			options.add(args.group(1));
		}
		assertThat(options).hasSize(5);

		Path classes = this.directory.resolve("classes");
		List<String> versions = List.of("/v1/", "/v2/", "/v1beta1/", "Conversion");
		compile(javaFiles(project.resolve("src/main/java")), classes, options, versions);
		String crd = Files.readString(classes.resolve("META-INF/kubeboot/crds/websites.shop.example.com.yaml"));
		Map<String, Object> document = new Yaml().load(crd);
		assertThat((Object) value(document, "metadata", "annotations"))
			.isEqualTo(Map.of("cert-manager.io/inject-ca-from", "shop-operator/shop-operator-webhook"));
		List<Map<String, Object>> served = value(document, "spec", "versions");
		assertThat(served).extracting((version) -> version.get("name"))
			.containsExactlyInAnyOrder("v1alpha1", "v1", "v2");
		assertThat(served).filteredOn((version) -> Boolean.TRUE.equals(version.get("storage")))
			.extracting((version) -> version.get("name"))
			.containsExactly("v1alpha1");
		assertThat(served).filteredOn((version) -> "v1".equals(version.get("name")))
			.extracting((version) -> value(version, "additionalPrinterColumns"))
			.asString()
			.contains("Ready", "Reason");
		assertThat((Object) value(document, "spec", "conversion", "strategy")).isEqualTo("Webhook");
		assertThat((Object) value(document, "spec", "conversion", "webhook", "clientConfig", "service")).isEqualTo(
				Map.of("name", "shop-operator-webhook", "namespace", "shop-operator", "path", "/convert", "port", 443));
		assertThat(Files.readString(classes.resolve("META-INF/kubeboot/crds/shelves.shop.example.com.yaml")))
			.contains("scope: Cluster")
			.contains("name: v1beta1");

		Path testSources = project.resolve("src/test/java/com/example/shop");
		compile(List.of(testSources.resolve("WebsiteConversionTests.java"),
				testSources.resolve("WebsiteV2ConversionTests.java"), testSources.resolve("ShelfConversionTests.java")),
				this.directory.resolve("test-classes"),
				List.of("-proc:none", "-cp", classes + File.pathSeparator + System.getProperty("java.class.path")),
				versions);
	}

	@SuppressWarnings("unchecked")
	private static <T> T value(Map<String, Object> map, String... path) {
		Object node = map;
		for (String key : path) {
			node = ((Map<String, Object>) node).get(key);
		}
		return (T) node;
	}

	private static void scaffold(Path project, ApiScaffold.Options options) {
		new ApiScaffold(options).plan(ProjectSources.read(project)).plan().apply();
	}

	private static void webhooks(Path project, String kind) {
		new WebhookScaffold(new WebhookScaffold.Options(kind, null, true, true)).plan(ProjectSources.read(project))
			.plan()
			.apply();
	}

	private static void compile(List<Path> sources, Path output, List<String> options, List<String> scaffolded)
			throws IOException {
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
				.filter((diagnostic) -> scaffolded.stream()
					.anyMatch((name) -> diagnostic.getSource().toUri().getPath().contains(name)))
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
