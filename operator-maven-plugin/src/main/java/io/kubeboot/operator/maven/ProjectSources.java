package io.kubeboot.operator.maven;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;

/**
 * The project as its {@code src/main/java} says, parsed by javac's own parser: the
 * {@code @SpringBootApplication} class, the {@code @KubernetesKind} classes, and which
 * kinds have a reconciler, a validator, a defaulter and a conversion. The sources are the
 * only state the goals keep, so this view cannot drift from the code; tests are not read.
 * <p>
 * Only parsing happens, no attribution: names resolve through the parsed classes and the
 * imports, and attributes evaluate through {@link Constants}.
 */
final class ProjectSources {

	static final Path MAIN_JAVA = Path.of("src", "main", "java");

	private final Path root;

	private final SourceIndex index;

	private final Constants constants;

	private final List<SourceIndex.Type> applications = new ArrayList<>();

	private final List<KindSource> kinds = new ArrayList<>();

	private final List<Use> reconcilers = new ArrayList<>();

	private final List<Use> validators = new ArrayList<>();

	private final List<Use> defaulters = new ArrayList<>();

	private final List<Use> conversions = new ArrayList<>();

	private ProjectSources(Path root, SourceIndex index) {
		this.root = root;
		this.index = index;
		this.constants = new Constants(index);
		for (SourceIndex.Type type : index.types()) {
			read(type, this.constants);
		}
		for (SourceIndex.Unit unit : index.units()) {
			findConversions(unit);
		}
	}

	/**
	 * Parses a project's {@code src/main/java}.
	 * @param project the project's directory, that of its {@code pom.xml}
	 * @return the project's view
	 * @throws ScaffoldException if there is no Java compiler, or a source does not parse
	 */
	static ProjectSources read(Path project) {
		Path root = project.toAbsolutePath().normalize();
		Path main = root.resolve(MAIN_JAVA);
		List<Path> files;
		try (Stream<Path> walk = Files.isDirectory(main) ? Files.walk(main) : Stream.empty()) {
			files = walk.filter((file) -> file.toString().endsWith(".java")).sorted().toList();
		}
		catch (IOException ex) {
			throw new ScaffoldException("Cannot read " + MAIN_JAVA + ": " + ex.getMessage(), ex);
		}
		if (files.isEmpty()) {
			return new ProjectSources(root, new SourceIndex());
		}
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		if (javac == null) {
			throw new ScaffoldException("This Java runtime has no compiler, which the goals parse the sources with: "
					+ "run Maven on a JDK");
		}
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		try (StandardJavaFileManager fileManager = javac.getStandardFileManager(diagnostics, Locale.ROOT,
				StandardCharsets.UTF_8)) {
			JavacTask task = (JavacTask) javac.getTask(null, fileManager, diagnostics, List.of("-proc:none"), null,
					fileManager.getJavaFileObjectsFromPaths(files));
			Iterable<? extends CompilationUnitTree> parsed = task.parse();
			for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
				if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
					Path file = root.relativize(Path.of(diagnostic.getSource().toUri()));
					throw new ScaffoldException(
							file + ":" + diagnostic.getLineNumber() + ": " + diagnostic.getMessage(Locale.ROOT)
									+ ". The goals read the sources as javac does: " + "fix them first");
				}
			}
			SourcePositions positions = Trees.instance(task).getSourcePositions();
			SourceIndex index = new SourceIndex();
			for (CompilationUnitTree tree : parsed) {
				Path file = Path.of(tree.getSourceFile().toUri());
				SourceIndex.Unit unit = new SourceIndex.Unit(root.relativize(file), tree,
						tree.getSourceFile().getCharContent(true).toString(), positions);
				index.add(unit);
			}
			return new ProjectSources(root, index);
		}
		catch (IOException ex) {
			throw new ScaffoldException("Cannot read " + MAIN_JAVA + ": " + ex.getMessage(), ex);
		}
	}

	Path root() {
		return this.root;
	}

	/**
	 * The {@code @SpringBootApplication} class, whose package is the project's base
	 * package.
	 * @return the application class
	 * @throws ScaffoldException if there is none or several
	 */
	SourceIndex.Type application() {
		if (this.applications.isEmpty()) {
			throw new ScaffoldException("No @SpringBootApplication class in " + MAIN_JAVA
					+ ": run this goal in an operator project (operator-spring-boot-archetype)");
		}
		if (this.applications.size() > 1) {
			throw new ScaffoldException("Several @SpringBootApplication classes in " + MAIN_JAVA + " ("
					+ this.applications.stream().map(SourceIndex.Type::name).collect(Collectors.joining(", "))
					+ "): run this goal in the module of one operator");
		}
		return this.applications.get(0);
	}

	List<KindSource> kinds() {
		return Collections.unmodifiableList(this.kinds);
	}

	List<Use> reconcilers() {
		return Collections.unmodifiableList(this.reconcilers);
	}

	List<Use> validators() {
		return Collections.unmodifiableList(this.validators);
	}

	List<Use> defaulters() {
		return Collections.unmodifiableList(this.defaulters);
	}

	List<Use> conversions() {
		return Collections.unmodifiableList(this.conversions);
	}

	/**
	 * Whether a class of that qualified name is in {@code src/main/java}.
	 * @param name the qualified name
	 * @return whether it is declared there
	 */
	boolean declares(String name) {
		return this.index.declares(name);
	}

	/**
	 * The parsed class of a qualified name.
	 * @param name the qualified name
	 * @return the class, or {@code null} if it is not in {@code src/main/java}
	 */
	SourceIndex.Type type(String name) {
		return this.index.type(name);
	}

	/**
	 * Evaluates constant expressions over the project's classes.
	 * @return the evaluator
	 */
	Constants constants() {
		return this.constants;
	}

	/**
	 * The qualified name a type name written in a class means.
	 * @param where the class the name is written in
	 * @param written the name
	 * @return the qualified name, or the name as written if it is neither imported nor
	 * parsed
	 */
	String typeName(SourceIndex.Type where, String written) {
		return this.index.typeName(where, written);
	}

	private void read(SourceIndex.Type type, Constants constants) {
		for (AnnotationTree annotation : type.tree().getModifiers().getAnnotations()) {
			switch (simpleName(annotation.getAnnotationType().toString())) {
				case "SpringBootApplication" -> this.applications.add(type);
				case "KubernetesKind" -> this.kinds.add(kind(type, annotation, constants));
				case "Reconciles" -> {
					ExpressionTree value = attributes(annotation).get("value");
					if (value != null) {
						this.reconcilers.add(new Use(classLiteral(type, value), type.unit(), value));
					}
				}
				default -> {
				}
			}
		}
		for (Tree implemented : type.tree().getImplementsClause()) {
			addWebhook(type, implemented, implemented);
		}
		for (Tree member : type.tree().getMembers()) {
			if (member instanceof MethodTree method && method.getReturnType() != null && method.getModifiers()
				.getAnnotations()
				.stream()
				.anyMatch((annotation) -> simpleName(annotation.getAnnotationType().toString()).equals("Bean"))) {
				addWebhook(type, method.getReturnType(), method.getReturnType());
			}
		}
	}

	private void addWebhook(SourceIndex.Type type, Tree typeTree, Tree at) {
		if (typeTree instanceof ParameterizedTypeTree parameterized && parameterized.getTypeArguments().size() == 1) {
			String target = this.index.typeName(type, parameterized.getTypeArguments().get(0).toString());
			switch (simpleName(parameterized.getType().toString())) {
				case "AdmissionValidator" -> this.validators.add(new Use(target, type.unit(), at));
				case "Defaulter" -> this.defaulters.add(new Use(target, type.unit(), at));
				default -> {
				}
			}
		}
	}

	// Conversion.hub(X.class) anywhere, in a @Bean method or not: the builder is what the
	// framework reads, and a later goal extends its spokes(...)
	private void findConversions(SourceIndex.Unit unit) {
		new TreeScanner<Void, SourceIndex.Type>() {

			@Override
			public Void visitClass(ClassTree tree, SourceIndex.Type enclosing) {
				SourceIndex.Type type = ProjectSources.this.index.declared(tree);
				return super.visitClass(tree, (type != null) ? type : enclosing);
			}

			@Override
			public Void visitMethodInvocation(MethodInvocationTree invocation, SourceIndex.Type where) {
				if (invocation.getMethodSelect() instanceof MemberSelectTree select
						&& select.getIdentifier().contentEquals("hub")
						&& simpleName(select.getExpression().toString()).equals("Conversion")
						&& invocation.getArguments().size() == 1 && where != null) {
					ExpressionTree argument = invocation.getArguments().get(0);
					ProjectSources.this.conversions.add(new Use(classLiteral(where, argument), unit, invocation));
				}
				return super.visitMethodInvocation(invocation, where);
			}

		}.scan(unit.tree(), null);
	}

	private KindSource kind(SourceIndex.Type type, AnnotationTree annotation, Constants constants) {
		Map<String, ExpressionTree> attributes = attributes(annotation);
		List<String> problems = new ArrayList<>();
		String group = attribute(type, attributes, "group", "", constants, problems);
		String version = attribute(type, attributes, "version", "", constants, problems);
		String kind = attribute(type, attributes, "kind", "", constants, problems);
		String plural = attribute(type, attributes, "plural", "", constants, problems);
		if (plural.isEmpty() && !kind.isEmpty()) {
			plural = Names.pluralOf(kind); // as operator-crd-generator derives it
		}
		ExpressionTree scope = attributes.get("scope");
		boolean cluster = scope != null && Constants.enumConstant(scope).equals("CLUSTER");
		boolean storage = true;
		ExpressionTree storageTree = attributes.get("storage");
		if (storageTree != null) {
			try {
				storage = constants.bool(storageTree, type);
			}
			catch (Constants.Unreadable ex) {
				problems.add(unreadable("storage", type, storageTree));
			}
		}
		return new KindSource(type.name(), type.unit().file(), type.packageName(), kind, group, version, plural,
				cluster, storage, problems.isEmpty() ? null : problems.get(0));
	}

	private String attribute(SourceIndex.Type type, Map<String, ExpressionTree> attributes, String name,
			String otherwise, Constants constants, List<String> problems) {
		ExpressionTree expression = attributes.get(name);
		if (expression == null) {
			return otherwise;
		}
		try {
			return constants.string(expression, type);
		}
		catch (Constants.Unreadable ex) {
			problems.add(unreadable(name, type, expression));
			return otherwise;
		}
	}

	private static String unreadable(String attribute, SourceIndex.Type type, ExpressionTree expression) {
		return "Cannot read the " + attribute + " of " + type.unit().position(expression) + " (" + attribute + " = "
				+ type.unit().text(expression) + "): not a constant";
	}

	private String classLiteral(SourceIndex.Type where, ExpressionTree expression) {
		String text = expression.toString();
		return text.endsWith(".class") ? this.index.typeName(where, text.substring(0, text.length() - 6)) : text;
	}

	private static Map<String, ExpressionTree> attributes(AnnotationTree annotation) {
		Map<String, ExpressionTree> attributes = new LinkedHashMap<>();
		for (ExpressionTree argument : annotation.getArguments()) {
			if (argument instanceof AssignmentTree assignment) {
				attributes.put(assignment.getVariable().toString(), assignment.getExpression());
			}
			else {
				attributes.put("value", argument);
			}
		}
		return attributes;
	}

	static String simpleName(String name) {
		return name.substring(name.lastIndexOf('.') + 1);
	}

	/**
	 * A class annotated {@code @KubernetesKind}, with its attributes evaluated.
	 *
	 * @param className its qualified name
	 * @param file its source, relative to the project
	 * @param packageName its package
	 * @param kind the kind
	 * @param group the API group
	 * @param version the version
	 * @param plural the plural, derived from the kind when the annotation has none
	 * @param cluster whether it is cluster-scoped
	 * @param storage whether it is the storage version
	 * @param problem why an attribute could not be read, or {@code null}
	 */
	record KindSource(String className, Path file, String packageName, String kind, String group, String version,
			String plural, boolean cluster, boolean storage, String problem) {

		String apiVersion() {
			return this.group + "/" + this.version;
		}

	}

	/**
	 * A class that a reconciler, a webhook or a conversion is for, and where it says so.
	 *
	 * @param type the class's qualified name, or its name as written when it is not in
	 * {@code src/main/java} and not imported
	 * @param unit the source
	 * @param tree the expression or declaration that says it
	 */
	record Use(String type, SourceIndex.Unit unit, Tree tree) {

		String position() {
			return this.unit.position(this.tree);
		}

	}

}
