package io.kubeboot.operator.autoconfigure.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

import io.kubeboot.operator.autoconfigure.docs.JavaSnippet.Marker;

/**
 * Reads the {@code ```java} blocks of Markdown files and compiles them against the class
 * path of the test.
 */
final class JavaSnippets {

	private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,}|~{3,})\\s*([^\\s`]*).*$");

	private JavaSnippets() {
	}

	/**
	 * The Markdown files of the documentation: those at the root of the project
	 * ({@code README.md}, {@code ARCHITECTURE.md}, ...) and every one under {@code docs}.
	 * @param root the root of the project
	 * @return the files, relative to the root, in a stable order
	 * @throws IOException if the files cannot be listed
	 */
	static List<Path> documentation(Path root) throws IOException {
		List<Path> files = new ArrayList<>();
		try (Stream<Path> top = Files.list(root); Stream<Path> docs = Files.walk(root.resolve("docs"))) {
			Stream.concat(top, docs)
				.filter((file) -> file.getFileName().toString().endsWith(".md") && Files.isRegularFile(file))
				.map(root::relativize)
				.sorted()
				.forEach(files::add);
		}
		return files;
	}

	/**
	 * The {@code ```java} blocks of the documentation.
	 * @param root the root of the project
	 * @return the blocks
	 * @throws IOException if a file cannot be read
	 */
	static List<JavaSnippet> in(Path root) throws IOException {
		List<JavaSnippet> snippets = new ArrayList<>();
		for (Path file : documentation(root)) {
			String name = file.toString().replace('\\', '/');
			snippets.addAll(read(name, Files.readString(root.resolve(file), StandardCharsets.UTF_8)));
		}
		return snippets;
	}

	/**
	 * The {@code ```java} blocks of one Markdown file, each with the marker on the line
	 * right before its fence.
	 * @param file the name of the file, for the locations
	 * @param markdown the content of the file
	 * @return the blocks
	 * @throws IllegalArgumentException if a marker is not right before a {@code ```java}
	 * fence, does not read or does not fit its block, or a fence is not closed
	 */
	static List<JavaSnippet> read(String file, String markdown) {
		List<String> lines = markdown.lines().toList();
		List<JavaSnippet> snippets = new ArrayList<>();
		String previousPackage = null;
		int i = 0;
		while (i < lines.size()) {
			String line = lines.get(i);
			if (line.strip().startsWith(Marker.PREFIX) && !isJavaFence(lines, i + 1)) {
				throw new IllegalArgumentException(
						file + ":" + (i + 1) + ": a snippet marker must be right before a ```java fence");
			}
			Matcher fence = FENCE.matcher(line);
			if (!fence.matches()) {
				i++;
				continue;
			}
			int close = closingFence(lines, i, fence.group(2));
			if (close < 0) {
				throw new IllegalArgumentException(file + ":" + (i + 1) + ": the fence is not closed");
			}
			if (fence.group(3).toLowerCase(Locale.ROOT).equals("java")) {
				Marker marker = (i > 0 && lines.get(i - 1).strip().startsWith(Marker.PREFIX))
						? Marker.parse(lines.get(i - 1)) : Marker.NONE;
				if (marker.continues() && previousPackage == null) {
					throw new IllegalArgumentException(
							file + ":" + (i + 1) + ": 'continues' needs a previous ```java block in the file");
				}
				String packageName = marker.continues() ? previousPackage : packageName(file, i + 1);
				String code = String.join("\n", unindent(lines.subList(i + 1, close)));
				JavaSnippet snippet = new JavaSnippet(file, i + 1, code, marker, packageName);
				if (!marker.given().isEmpty() && snippet.context() == JavaSnippet.Context.FILE) {
					throw new IllegalArgumentException(snippet.location()
							+ ": 'given' declares members of the class that wraps a block, and this block is a file");
				}
				snippets.add(snippet);
				previousPackage = packageName;
			}
			i = close + 1;
		}
		return snippets;
	}

	private static boolean isJavaFence(List<String> lines, int index) {
		if (index >= lines.size()) {
			return false;
		}
		Matcher fence = FENCE.matcher(lines.get(index));
		return fence.matches() && fence.group(3).toLowerCase(Locale.ROOT).equals("java");
	}

	private static int closingFence(List<String> lines, int open, String fence) {
		for (int i = open + 1; i < lines.size(); i++) {
			String line = lines.get(i).strip();
			if (line.startsWith(fence) && line.chars().allMatch((c) -> c == fence.charAt(0))) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * The lines without the indentation they all share, as in a list item.
	 */
	private static List<String> unindent(List<String> lines) {
		int indent = lines.stream()
			.filter((line) -> !line.isBlank())
			.mapToInt((line) -> line.length() - line.stripLeading().length())
			.min()
			.orElse(0);
		return lines.stream().map((line) -> line.isBlank() ? "" : line.substring(indent)).toList();
	}

	/**
	 * A package of its own for each block, so that blocks may declare the same types.
	 */
	private static String packageName(String file, int line) {
		return "snippet." + file.replaceAll("[^A-Za-z0-9]", "_").toLowerCase(Locale.ROOT) + "_line" + line;
	}

	/**
	 * Compiles the blocks against the class path of the test and returns the errors of
	 * each, located in its Markdown file. All blocks are compiled in one go; when that
	 * fails they are compiled again package by package (a block and those that continue
	 * it), so that an error in one block, a syntax error above all, does not keep the
	 * compiler from checking the others.
	 * @param snippets the blocks
	 * @param output the directory for the class files
	 * @return the errors of each block, {@code file:line: message} followed by the line;
	 * every block is a key
	 */
	static Map<JavaSnippet, List<String>> compile(List<JavaSnippet> snippets, Path output) {
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		try (StandardJavaFileManager files = compiler.getStandardFileManager(null, Locale.ROOT,
				StandardCharsets.UTF_8)) {
			files.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(Files.createDirectories(output)));
			Map<JavaSnippet, List<String>> errors = compile(compiler, files, snippets);
			if (errors.values().stream().allMatch(List::isEmpty)) {
				return errors;
			}
			Map<String, List<JavaSnippet>> packages = new LinkedHashMap<>();
			snippets.forEach((snippet) -> packages.computeIfAbsent(snippet.packageName(), (name) -> new ArrayList<>())
				.add(snippet));
			Map<JavaSnippet, List<String>> separately = new LinkedHashMap<>();
			packages.values().forEach((together) -> separately.putAll(compile(compiler, files, together)));
			return separately;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Map<JavaSnippet, List<String>> compile(JavaCompiler compiler, StandardJavaFileManager files,
			List<JavaSnippet> snippets) {
		Map<JavaSnippet, List<String>> errors = new LinkedHashMap<>();
		Map<URI, JavaSnippet> units = new LinkedHashMap<>();
		List<JavaFileObject> sources = new ArrayList<>();
		for (JavaSnippet snippet : snippets) {
			errors.put(snippet, new ArrayList<>());
			Unit unit = new Unit(snippet);
			units.put(unit.toUri(), snippet);
			sources.add(unit);
		}
		List<String> options = List.of("--release", "17", "-proc:none", "-nowarn", "-classpath",
				System.getProperty("java.class.path"));
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		compiler.getTask(null, files, diagnostics, options, null, sources).call();
		for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
			if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
				JavaSnippet snippet = (diagnostic.getSource() != null) ? units.get(diagnostic.getSource().toUri())
						: null;
				if (snippet != null) {
					errors.get(snippet).add(error(snippet, diagnostic));
				}
				else {
					errors.values().forEach((each) -> each.add(diagnostic.getMessage(Locale.ROOT)));
				}
			}
		}
		return errors;
	}

	private static String error(JavaSnippet snippet, Diagnostic<? extends JavaFileObject> diagnostic) {
		List<String> code = snippet.code().lines().toList();
		int index = (int) diagnostic.getLineNumber() - 2;
		String line = (index >= 0 && index < code.size()) ? "\n    " + code.get(index).strip() : "";
		return snippet.file() + ":" + snippet.fileLine(diagnostic.getLineNumber()) + ": "
				+ diagnostic.getMessage(Locale.ROOT) + line;
	}

	/**
	 * A block as a source file whose name fits any class, so that a block may declare
	 * several public types.
	 */
	private static final class Unit extends SimpleJavaFileObject {

		private final String source;

		Unit(JavaSnippet snippet) {
			super(URI.create("string:///" + snippet.packageName().replace('.', '/') + "/" + snippet.className()
					+ JavaFileObject.Kind.SOURCE.extension), JavaFileObject.Kind.SOURCE);
			this.source = snippet.compilationUnit();
		}

		@Override
		public CharSequence getCharContent(boolean ignoreEncodingErrors) {
			return this.source;
		}

		@Override
		public boolean isNameCompatible(String simpleName, JavaFileObject.Kind kind) {
			return kind == JavaFileObject.Kind.SOURCE;
		}

	}

}
