package io.kubeboot.operator.autoconfigure.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A {@code ```java} block of the documentation, and the compilation unit it is compiled
 * as. The block is compiled as it is written when it is a whole file, inside a class when
 * it is members of one, or inside a method of a class when it is statements; the
 * compilation unit's first line holds the package, the {@link #PREAMBLE imports} and the
 * opening of the class and method, so that line {@code n} of the block is line
 * {@code n + 1} of the unit.
 *
 * @param file the Markdown file, relative to the root of the project
 * @param fenceLine the line of the opening fence in the file, from 1
 * @param code the lines between the fences
 * @param marker what the HTML comment on the line before the fence says
 * @param packageName the package the block is compiled in
 */
record JavaSnippet(String file, int fenceLine, String code, Marker marker, String packageName) {

	/**
	 * What every block sees without importing it: the project's public API, the
	 * Kubernetes models, the JDK's usual packages, the user's types the documentation
	 * talks about ({@code StorageBucket}, {@code Widget}, ...) and the Spring, test and
	 * Micrometer annotations and types the examples use. A type the block declares hides
	 * an imported one of the same name.
	 */
	static final List<String> PREAMBLE = List.of("java.io.*", "java.net.URI", "java.nio.charset.StandardCharsets",
			"java.nio.file.*", "java.time.*", "java.util.*", "java.util.function.*",
			"io.kubeboot.operator.annotation.*", "io.kubeboot.operator.cache.*", "io.kubeboot.operator.client.*",
			"io.kubeboot.operator.controller.*", "io.kubeboot.operator.events.*", "io.kubeboot.operator.handler.*",
			"io.kubeboot.operator.healthz.*", "io.kubeboot.operator.leaderelection.*", "io.kubeboot.operator.manager.*",
			"io.kubeboot.operator.model.*", "io.kubeboot.operator.predicate.*", "io.kubeboot.operator.rbac.*",
			"io.kubeboot.operator.reconcile.*", "io.kubeboot.operator.sharding.*", "io.kubeboot.operator.source.*",
			"io.kubeboot.operator.tracing.*", "io.kubeboot.operator.webhook.*", "io.kubeboot.operator.cluster.*",
			"io.kubeboot.operator.autoconfigure.*", "io.kubeboot.operator.autoconfigure.test.*",
			"io.kubeboot.operator.test.*", "io.kubeboot.operator.autoconfigure.docs.model.*",
			"io.kubernetes.client.common.KubernetesObject", "io.kubernetes.client.openapi.ApiClient",
			"io.kubernetes.client.openapi.ApiException", "io.kubernetes.client.openapi.models.*",
			"io.micrometer.core.instrument.Counter", "io.micrometer.core.instrument.MeterRegistry",
			"org.junit.jupiter.api.Test", "org.springframework.beans.factory.annotation.Autowired",
			"org.springframework.boot.SpringApplication",
			"org.springframework.boot.autoconfigure.SpringBootApplication",
			"org.springframework.boot.test.context.SpringBootTest",
			"org.springframework.boot.test.context.SpringBootTest.WebEnvironment",
			"org.springframework.boot.test.context.TestConfiguration",
			"org.springframework.boot.testcontainers.service.connection.ServiceConnection",
			"org.springframework.context.annotation.Bean", "org.springframework.context.annotation.Configuration",
			"org.springframework.stereotype.Component", "org.springframework.web.bind.annotation.*",
			"org.testcontainers.junit.jupiter.Container", "org.testcontainers.junit.jupiter.Testcontainers",
			"org.testcontainers.k3s.K3sContainer", "org.testcontainers.utility.DockerImageName",
			"static org.assertj.core.api.Assertions.*", "static org.awaitility.Awaitility.*");

	private static final Pattern TYPE_DECLARATION = Pattern.compile(
			"^((public|protected|private|abstract|final|static|sealed|non-sealed|strictfp)\\s+)*(class|interface|enum|record|@interface)\\s.*");

	/**
	 * How the block is compiled.
	 */
	enum Context {

		/** As a whole compilation unit: it has imports or starts with a type. */
		FILE("a file"),

		/** As the body of a class: it has an annotation at the start of a line. */
		CLASS("the body of a class"),

		/** As the body of a method of a class: statements. */
		METHOD("the body of a method");

		private final String description;

		Context(String description) {
			this.description = description;
		}

		@Override
		public String toString() {
			return this.description;
		}

	}

	/**
	 * Where the block is, as {@code file:line} of its opening fence.
	 * @return the location
	 */
	String location() {
		return this.file + ":" + this.fenceLine;
	}

	/**
	 * The name of the class that wraps a block compiled as members or statements.
	 * @return the simple name
	 */
	String className() {
		return "Snippet" + this.fenceLine;
	}

	/**
	 * How the block is compiled: as the marker says, else as a file when a line starts
	 * with {@code package} or {@code import} or the first line that is not indented, a
	 * comment or an annotation declares a type, as the body of a class when a line starts
	 * with an annotation, and as statements otherwise.
	 * @return the context
	 */
	Context context() {
		if (this.marker.context() != null) {
			return this.marker.context();
		}
		List<String> lines = this.code.lines().toList();
		if (lines.stream().anyMatch((line) -> line.startsWith("package ") || line.startsWith("import "))) {
			return Context.FILE;
		}
		String first = lines.stream()
			.filter((line) -> !line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && !line.startsWith("//")
					&& !line.startsWith("/*") && !line.startsWith("*") && !line.startsWith("@"))
			.findFirst()
			.orElse("");
		if (TYPE_DECLARATION.matcher(first).matches()) {
			return Context.FILE;
		}
		if (lines.stream().anyMatch((line) -> line.startsWith("@"))) {
			return Context.CLASS;
		}
		return Context.METHOD;
	}

	/**
	 * The compilation unit: the block, with the package, the imports and the wrapping
	 * class and method on a first line of their own and the closing braces on a last one.
	 * A block that declares its own package is compiled exactly as it is written.
	 * @return the source
	 */
	String compilationUnit() {
		if (this.code.lines().anyMatch((line) -> line.startsWith("package "))) {
			return "\n" + this.code + "\n";
		}
		Context context = context();
		StringBuilder header = new StringBuilder("package ").append(this.packageName).append(";");
		List<String> imports = new ArrayList<>(PREAMBLE);
		imports.addAll(this.marker.imports());
		imports.forEach((type) -> header.append(" import ").append(type).append(";"));
		if (context == Context.FILE) {
			return header + "\n" + this.code + "\n";
		}
		header.append(" class ").append(className()).append(" {");
		for (String declaration : this.marker.given()) {
			String body = declaration.endsWith(")") ? " { throw new UnsupportedOperationException(); }" : ";";
			header.append(" ").append(declaration).append(body);
		}
		if (context == Context.METHOD) {
			header.append(" void snippet() throws Exception {");
		}
		return header + "\n" + this.code + "\n" + ((context == Context.METHOD) ? "}}" : "}") + "\n";
	}

	/**
	 * The line of the Markdown file that a line of the compilation unit comes from.
	 * @param unitLine the line in the compilation unit, from 1
	 * @return the line in the file
	 */
	long fileLine(long unitLine) {
		return this.fenceLine + Math.max(unitLine, 1) - 1;
	}

	/**
	 * The HTML comment right before a fence, invisible to the readers:
	 * {@code <!-- snippet: item; item -->} where an item is one of
	 * <ul>
	 * <li>{@code skip (why)}: the block is not compiled, for the reason given;</li>
	 * <li>{@code context=file|class|method}: how the block is compiled, when guessing is
	 * wrong;</li>
	 * <li>{@code imports=a.b.C, a.d.*}: imports beyond the preamble;</li>
	 * <li>{@code given=Type name, Type method(Type name)}: what the block uses without
	 * declaring it, declared in the class that wraps it: fields, and methods whose body
	 * throws;</li>
	 * <li>{@code continues}: the block is compiled in the package of the file's previous
	 * block, and sees its types.</li>
	 * </ul>
	 *
	 * @param skip why the block is not compiled, or {@code null}
	 * @param context how the block is compiled, or {@code null} to guess
	 * @param imports the imports beyond the preamble
	 * @param given the declarations of the fields and methods the block uses
	 * @param continues whether the block continues the previous one
	 */
	record Marker(String skip, Context context, List<String> imports, List<String> given, boolean continues) {

		static final String PREFIX = "<!-- snippet:";

		static final Marker NONE = new Marker(null, null, List.of(), List.of(), false);

		/**
		 * Reads a marker line.
		 * @param line the line, {@code <!-- snippet: ... -->}
		 * @return the marker
		 * @throws IllegalArgumentException if the line does not read as a marker
		 */
		static Marker parse(String line) {
			String text = line.strip();
			if (!text.startsWith(PREFIX) || !text.endsWith("-->")) {
				throw new IllegalArgumentException("not a snippet marker: " + line);
			}
			String body = text.substring(PREFIX.length(), text.length() - "-->".length()).strip();
			if (body.startsWith("skip")) {
				String reason = body.substring("skip".length()).strip();
				if (reason.startsWith("(") && reason.endsWith(")")) {
					reason = reason.substring(1, reason.length() - 1).strip();
				}
				if (reason.isEmpty()) {
					throw new IllegalArgumentException("a skipped snippet needs a reason: " + line);
				}
				return new Marker(reason, null, List.of(), List.of(), false);
			}
			Context context = null;
			List<String> imports = new ArrayList<>();
			List<String> given = new ArrayList<>();
			boolean continues = false;
			for (String item : body.split(";")) {
				String entry = item.strip();
				if (entry.isEmpty()) {
					continue;
				}
				if (entry.equals("continues")) {
					continues = true;
					continue;
				}
				int equals = entry.indexOf('=');
				if (equals < 0) {
					throw new IllegalArgumentException("unknown item '" + entry + "' in " + line);
				}
				String key = entry.substring(0, equals).strip();
				String value = entry.substring(equals + 1).strip();
				switch (key) {
					case "context" -> context = Context.valueOf(value.toUpperCase(Locale.ROOT));
					case "imports" -> imports.addAll(split(value));
					case "given" -> given.addAll(split(value));
					default -> throw new IllegalArgumentException("unknown item '" + entry + "' in " + line);
				}
			}
			return new Marker(null, context, List.copyOf(imports), List.copyOf(given), continues);
		}

		/**
		 * Splits at the commas outside brackets, so that
		 * {@code Map<String, String> labels} and
		 * {@code List<Request> appsOf(String namespace, String name)} stay one
		 * declaration each.
		 */
		private static List<String> split(String value) {
			List<String> parts = new ArrayList<>();
			int depth = 0;
			int start = 0;
			for (int i = 0; i < value.length(); i++) {
				char c = value.charAt(i);
				if (c == '<' || c == '(') {
					depth++;
				}
				else if (c == '>' || c == ')') {
					depth--;
				}
				else if (c == ',' && depth == 0) {
					parts.add(value.substring(start, i).strip());
					start = i + 1;
				}
			}
			parts.add(value.substring(start).strip());
			return parts.stream().filter((part) -> !part.isEmpty()).toList();
		}

	}

}
