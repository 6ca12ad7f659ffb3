package io.kubeboot.operator.crd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
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
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Compiles model sources in a test with the processor, as Maven's compiler plugin would
 * with the processor on its processor path, and reads what it wrote.
 *
 * @param output the class output directory
 * @param diagnostics what the compiler reported
 * @param success whether the compilation succeeded
 */
record Compilation(Path output, List<Diagnostic<? extends JavaFileObject>> diagnostics, boolean success) {

	/**
	 * Compiles sources, each given as its text (the class name is read from the package
	 * and the first {@code class}, {@code record} or {@code enum} declaration).
	 * @param directory the directory for the class output
	 * @param sources the sources
	 * @return the compilation
	 */
	static Compilation compile(Path directory, String... sources) {
		return compile(directory, List.of(), sources);
	}

	/**
	 * Compiles sources with options for the processor.
	 * @param directory the directory for the class output
	 * @param options the processor's options, such as {@code kubeboot.webhook.port=8443}
	 * (given to javac as {@code -A...})
	 * @param sources the sources
	 * @return the compilation
	 */
	static Compilation compile(Path directory, List<String> options, String... sources) {
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT,
				StandardCharsets.UTF_8)) {
			Path output = Files.createDirectories(directory.resolve("classes"));
			files.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(output));
			List<JavaFileObject> units = Stream.of(sources).map(Compilation::source).collect(Collectors.toList());
			List<String> arguments = new ArrayList<>(List.of("-classpath", System.getProperty("java.class.path")));
			options.forEach((option) -> arguments.add("-A" + option));
			JavaCompiler.CompilationTask task = compiler.getTask(null, files, diagnostics, arguments, null, units);
			task.setProcessors(List.of(new CustomResourceDefinitionProcessor()));
			boolean success = task.call();
			return new Compilation(output, diagnostics.getDiagnostics(), success);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The file written for a CustomResourceDefinition.
	 * @param name the CRD's name, {@code <plural>.<group>}
	 * @return the YAML
	 */
	String crd(String name) {
		Path file = this.output.resolve("META-INF/kubeboot/crds/" + name + ".yaml");
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new AssertionError("No " + file + "; the compiler said: " + messages(), ex);
		}
	}

	/**
	 * The file written for a CustomResourceDefinition, read as maps and lists.
	 * @param name the CRD's name
	 * @return the document
	 */
	Map<String, Object> crdDocument(String name) {
		return new Yaml(new SafeConstructor(new LoaderOptions())).load(crd(name));
	}

	/**
	 * The file written for the admission policies of a kind.
	 * @param name the kind's CRD's name, {@code <plural>.<group>}
	 * @return the YAML
	 */
	String policies(String name) {
		Path file = this.output.resolve("META-INF/kubeboot/policies/" + name + ".yaml");
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new AssertionError("No " + file + "; the compiler said: " + messages(), ex);
		}
	}

	/**
	 * The documents of the file written for the admission policies of a kind, read as
	 * maps and lists.
	 * @param name the kind's CRD's name
	 * @return the policies and their bindings
	 */
	@SuppressWarnings("unchecked")
	List<Map<String, Object>> policyDocuments(String name) {
		List<Map<String, Object>> documents = new ArrayList<>();
		for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(policies(name))) {
			documents.add((Map<String, Object>) document);
		}
		return documents;
	}

	/**
	 * The names of the files written under {@code META-INF/kubeboot/crds}.
	 * @return the file names
	 */
	List<String> crdFiles() {
		return files("crds");
	}

	/**
	 * The names of the files written under {@code META-INF/kubeboot/policies}.
	 * @return the file names
	 */
	List<String> policyFiles() {
		return files("policies");
	}

	private List<String> files(String kind) {
		Path directory = this.output.resolve("META-INF/kubeboot/" + kind);
		if (!Files.isDirectory(directory)) {
			return List.of();
		}
		try (Stream<Path> files = Files.list(directory)) {
			return files.map((file) -> file.getFileName().toString()).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The errors reported, with the line of the source they were reported on.
	 * @return the errors
	 */
	List<String> errors() {
		return of(Diagnostic.Kind.ERROR);
	}

	List<String> of(Diagnostic.Kind kind) {
		List<String> messages = new ArrayList<>();
		for (Diagnostic<? extends JavaFileObject> diagnostic : this.diagnostics) {
			if (diagnostic.getKind() == kind) {
				messages.add(diagnostic.getMessage(Locale.ROOT));
			}
		}
		return messages;
	}

	/**
	 * The errors with the source line each was reported on:
	 * {@code Name.java:12: message}.
	 * @return the errors
	 */
	List<String> errorsWithLines() {
		List<String> messages = new ArrayList<>();
		for (Diagnostic<? extends JavaFileObject> diagnostic : this.diagnostics) {
			if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
				String file = (diagnostic.getSource() != null)
						? Path.of(diagnostic.getSource().toUri().getPath()).getFileName().toString() : "?";
				messages.add(file + ":" + diagnostic.getLineNumber() + ": " + diagnostic.getMessage(Locale.ROOT));
			}
		}
		return messages;
	}

	String messages() {
		return this.diagnostics.stream()
			.map((diagnostic) -> diagnostic.getKind() + " " + diagnostic.getMessage(Locale.ROOT))
			.collect(Collectors.joining("\n"));
	}

	private static JavaFileObject source(String text) {
		String packageName = find(text, "package\\s+([\\w.]+)\\s*;");
		String className = find(text, "(?:class|record|enum|interface)\\s+(\\w+)");
		String path = ((packageName != null) ? packageName.replace('.', '/') + "/" : "") + className + ".java";
		return new SimpleJavaFileObject(URI.create("string:///" + path), JavaFileObject.Kind.SOURCE) {

			@Override
			public CharSequence getCharContent(boolean ignoreEncodingErrors) {
				return text;
			}

		};
	}

	private static String find(String text, String regex) {
		Matcher matcher = Pattern.compile(regex).matcher(text);
		return matcher.find() ? matcher.group(1) : null;
	}

}
