package io.kubeboot.operator.maven;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreeScanner;
import io.kubeboot.operator.maven.ProjectSources.KindSource;
import io.kubeboot.operator.maven.ProjectSources.Use;

/**
 * Plans {@code operator:create-version}: a new version of an existing kind, served beside
 * the storage version, which stays the storage version and the hub (kubebuilder's
 * multiversion layout). The new version is a spoke: its model class says
 * {@code storage = false} and implements {@code Convertible} of the hub, its spec and
 * status classes (and the same-package types they use) are copies of the hub's, and its
 * conversion copies them through JSON, refusing to drop a field once the versions differ.
 * <p>
 * The kind's {@code Conversion} bean is created, or the hub's existing
 * {@code Conversion.hub(X.class).spokes(...)} call gets one more class; a conversion bean
 * of another shape is refused with what to add by hand. {@code pom.xml} gets the compiler
 * options that point the CRD's conversion webhook at the manifests' Service when it lacks
 * them ({@link PomEdits}).
 */
final class VersionScaffold {

	// the class annotations that describe one version's columns, scale and selectable
	// fields: the new version has the same fields, so the same ones
	private static final Set<String> COPIED_ANNOTATIONS = Set.of("PrinterColumn", "PrinterColumns", "Scale",
			"SelectableField", "SelectableFields");

	// imported by the template itself
	private static final List<String> SPOKE_IMPORTS = List.of("com.google.gson.Gson", "com.google.gson.JsonElement",
			"com.google.gson.JsonObject", "io.kubeboot.operator.model.KubernetesKind",
			"io.kubeboot.operator.webhook.ConversionException", "io.kubeboot.operator.webhook.Convertible",
			"io.kubernetes.client.openapi.JSON");

	private static final Pattern WORD = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

	private final Options options;

	VersionScaffold(Options options) {
		this.options = options;
	}

	/**
	 * Plans the files and edits.
	 * @param sources the project
	 * @return the plan, not yet checked against the files that exist
	 * @throws ScaffoldException if an option is wrong, the kind or the version is unknown
	 * or exists, or an edit cannot be made
	 */
	Scaffold plan(ProjectSources sources) {
		String kindName = Names.kind(this.options.kind());
		String basePackage = sources.application().packageName();
		if (this.options.apiVersion() == null || this.options.apiVersion().isBlank()) {
			throw new ScaffoldException("Pass -DapiVersion: the new version of " + kindName + ", such as v1");
		}
		KindSource hub = hub(sources.kinds(), kindName);
		String version = Names.version(this.options.apiVersion().contains("/")
				? this.options.apiVersion().substring(this.options.apiVersion().indexOf('/') + 1)
				: this.options.apiVersion());
		for (KindSource existing : sources.kinds()) {
			if (existing.kind().equals(kindName) && existing.group().equals(hub.group())
					&& existing.version().equals(version)) {
				throw new ScaffoldException(kindName + " has " + version + " already: " + existing.file());
			}
		}
		SourceIndex.Type hubType = sources.type(hub.className());
		String hubPackage = hub.packageName();
		String spokePackage = hubPackage.endsWith("." + hub.version())
				? hubPackage.substring(0, hubPackage.length() - hub.version().length()) + version
				: hubPackage + "." + version;
		String spokeClass = spokePackage + "." + kindName;

		ParameterizedTypeTree superclass = customResource(hubType, kindName);
		List<String> typeArguments = superclass.getTypeArguments()
			.stream()
			.map((argument) -> sources.typeName(hubType, argument.toString()))
			.toList();
		Set<String> kindClasses = sources.kinds().stream().map(KindSource::className).collect(Collectors.toSet());
		Map<Path, SourceIndex.Unit> copied = copiedUnits(sources, hubPackage, typeArguments, kindClasses);
		Set<String> copiedNames = new TreeSet<>();
		for (SourceIndex.Unit unit : copied.values()) {
			for (Tree declaration : unit.tree().getTypeDecls()) {
				if (declaration instanceof com.sun.source.tree.ClassTree tree) {
					copiedNames.add(tree.getSimpleName().toString());
				}
			}
		}

		String annotations = copiedAnnotations(hubType);
		String superclassText = rewrite(hubType.unit().text(superclass), hubPackage, spokePackage, copiedNames);
		Map<String, Object> values = new LinkedHashMap<>();
		values.put("spokePackage", spokePackage);
		values.put("imports", imports(hubType, annotations + " " + superclassText));
		values.put("kind", kindName);
		values.put("group", hub.group());
		values.put("version", version);
		values.put("plural", hub.plural());
		values.put("hubVersion", hub.version());
		values.put("hubClass", hub.className());
		values.put("attributes", attributes(sources, hubType, hub));
		values.put("annotations", annotations);
		values.put("superclass", superclassText);
		values.put("hubSpec", typeArguments.get(0));
		values.put("hubStatus", typeArguments.get(1));
		values.put("spec",
				spokeType(superclass.getTypeArguments().get(0), hubType, hubPackage, spokePackage, copiedNames));
		values.put("status",
				spokeType(superclass.getTypeArguments().get(1), hubType, hubPackage, spokePackage, copiedNames));

		Path model = ProjectSources.MAIN_JAVA.resolve(spokePackage.replace('.', '/'));
		Path base = ProjectSources.MAIN_JAVA.resolve(basePackage.replace('.', '/'));
		Path tests = Path.of("src", "test", "java").resolve(basePackage.replace('.', '/'));
		ScaffoldPlan plan = new ScaffoldPlan(sources.root());
		List<String> summary = new ArrayList<>();
		summary.add(kindName + ": " + version + " served beside " + hub.version() + "; " + hub.version()
				+ " stays the storage version and the hub, " + version + " converts to and from it, in "
				+ spokePackage);
		plan.create(model.resolve(kindName + ".java"),
				render("version/Kind.java.tmpl", values, "spokePackage", "imports", "kind", "group", "version",
						"plural", "hubVersion", "hubClass", "attributes", "annotations", "superclass", "hubSpec",
						"hubStatus", "spec", "status"),
				"move it");
		for (SourceIndex.Unit unit : copied.values()) {
			plan.create(model.resolve(unit.file().getFileName()), copy(unit, hubPackage, spokePackage, copiedNames),
					"move it");
		}
		if (!copied.isEmpty()) {
			summary.add("Copied from " + hub.version() + ": "
					+ copied.values()
						.stream()
						.map((unit) -> unit.file().getFileName().toString().replace(".java", ""))
						.sorted()
						.collect(Collectors.joining(", ")));
		}

		if (this.options.conversion()) {
			conversionBean(sources, plan, hub, spokeClass, basePackage, base, kindName);
		}
		Example example = example(sources.root(), hub);
		Map<String, Object> testValues = new LinkedHashMap<>();
		String testClass = testClass(sources.root(), tests, kindName, version);
		testValues.put("package", basePackage);
		testValues.put("testClass", testClass);
		testValues.put("kind", kindName);
		testValues.put("version", version);
		testValues.put("hubVersion", hub.version());
		testValues.put("group", hub.group());
		testValues.put("hubClass", hub.className());
		testValues.put("hubName", ProjectSources.simpleName(hub.className()));
		testValues.put("spokeClass", spokeClass);
		testValues.put("cluster", hub.cluster());
		testValues.put("example", example != null);
		testValues.put("exampleFile", (example != null) ? example.file() : "");
		plan.create(tests.resolve(testClass + ".java"),
				Templates.render("version/KindConversionTests.java.tmpl", testValues), "move it");

		PomEdits.Edit pom = PomEdits.plan(sources.root());
		if (pom.changed()) {
			plan.edit(PomEdits.POM, pom.before(), pom.after());
		}
		summary.add(pom.summary());
		String next = "Next: change " + version + "'s " + kindName + "Spec as the new version needs, and " + kindName
				+ ".convertTo/convertFrom with it (" + testClass + " fails while a field is lost), "
				+ "then mvn verify; commit deploy/ with the code.";
		return new Scaffold(summary, plan, next);
	}

	private KindSource hub(List<KindSource> kinds, String name) {
		List<KindSource> named = kinds.stream().filter((kind) -> kind.kind().equals(name)).toList();
		for (KindSource kind : named) {
			if (kind.problem() != null) {
				throw new ScaffoldException(kind.problem() + ": make it a constant to add a version to " + name);
			}
		}
		if (named.isEmpty()) {
			throw new ScaffoldException("No kind " + name + " in src/main/java: the project's kinds are "
					+ (kinds.isEmpty() ? "none"
							: kinds.stream()
								.map((kind) -> kind.kind() + " (" + kind.apiVersion() + ")")
								.collect(Collectors.joining(", "))));
		}
		String apiVersion = this.options.apiVersion();
		if (apiVersion.contains("/")) {
			String group = Names.group(apiVersion.substring(0, apiVersion.indexOf('/')));
			named = named.stream().filter((kind) -> kind.group().equals(group)).toList();
			if (named.isEmpty()) {
				throw new ScaffoldException("No kind " + name + " in " + group
						+ ": add it with mvn operator:create-api " + "-Dkind=" + name + " -DapiVersion=" + apiVersion);
			}
		}
		List<String> groups = named.stream().map(KindSource::group).distinct().sorted().toList();
		if (groups.size() > 1) {
			throw new ScaffoldException(
					"Pass -DapiVersion=<group>/<version>: " + name + " is in " + String.join(" and ", groups));
		}
		List<KindSource> storage = named.stream().filter(KindSource::storage).toList();
		if (storage.size() != 1) {
			throw new ScaffoldException(name + " has " + storage.size() + " storage versions ("
					+ named.stream().map(KindSource::file).map(Path::toString).collect(Collectors.joining(", "))
					+ "): the new version converts to the storage version, so exactly one says storage = true");
		}
		return storage.get(0);
	}

	private static ParameterizedTypeTree customResource(SourceIndex.Type hub, String kind) {
		Tree extended = hub.tree().getExtendsClause();
		if (extended instanceof ParameterizedTypeTree parameterized
				&& ProjectSources.simpleName(parameterized.getType().toString()).equals("CustomResource")
				&& parameterized.getTypeArguments().size() == 2) {
			return parameterized;
		}
		throw new ScaffoldException(hub.unit().position((extended != null) ? extended : hub.tree()) + ": " + kind
				+ " does not extend "
				+ "CustomResource<Spec, Status>, whose spec and status this goal copies: write the new version's "
				+ "class by hand, implementing Convertible<" + hub.name() + ">");
	}

	// the files of the spec, the status and the same-package types they use,
	// transitively;
	// other kinds stay where they are
	private static Map<Path, SourceIndex.Unit> copiedUnits(ProjectSources sources, String hubPackage,
			List<String> roots, Set<String> kindClasses) {
		Map<Path, SourceIndex.Unit> units = new LinkedHashMap<>();
		Deque<String> pending = new ArrayDeque<>(roots);
		Set<String> seen = new LinkedHashSet<>();
		while (!pending.isEmpty()) {
			String name = pending.removeFirst();
			SourceIndex.Type type = sources.type(name);
			if (!seen.add(name) || type == null || type.enclosing() != null || !type.packageName().equals(hubPackage)
					|| kindClasses.contains(name)) {
				continue;
			}
			if (units.putIfAbsent(type.unit().file(), type.unit()) != null) {
				continue;
			}
			for (String used : namesIn(type.unit())) {
				String candidate = used.startsWith(hubPackage + ".") ? used : hubPackage + "." + used;
				if (sources.type(candidate) != null && sources.type(candidate).enclosing() == null) {
					pending.add(candidate);
				}
			}
		}
		return units;
	}

	private static Set<String> namesIn(SourceIndex.Unit unit) {
		Set<String> names = new LinkedHashSet<>();
		new TreeScanner<Void, Void>() {

			@Override
			public Void visitIdentifier(IdentifierTree identifier, Void nothing) {
				names.add(identifier.getName().toString());
				return null;
			}

			@Override
			public Void visitMemberSelect(MemberSelectTree select, Void nothing) {
				names.add(select.toString());
				return super.visitMemberSelect(select, nothing);
			}

			@Override
			public Void visitImport(ImportTree imported, Void nothing) {
				return null;
			}

		}.scan(unit.tree().getTypeDecls(), null);
		return names;
	}

	// a copied file in the new package: its package line, and the names of the copied
	// types
	// written with the old package
	private static String copy(SourceIndex.Unit unit, String hubPackage, String spokePackage, Set<String> copied) {
		String content = unit.content();
		Tree packageTree = unit.tree().getPackage();
		int start = (int) unit.start(packageTree);
		int end = (int) unit.end(packageTree);
		content = content.substring(0, start) + "package " + spokePackage + ";" + content.substring(end);
		return rewrite(content, hubPackage, spokePackage, copied);
	}

	private static String rewrite(String text, String hubPackage, String spokePackage, Set<String> copied) {
		for (String name : copied) {
			text = text.replaceAll(Pattern.quote(hubPackage + "." + name) + "\\b",
					Matcher.quoteReplacement(spokePackage + "." + name));
		}
		return text;
	}

	// the spoke's spec or status class as its own code names it
	private static String spokeType(Tree argument, SourceIndex.Type hub, String hubPackage, String spokePackage,
			Set<String> copied) {
		String text = rewrite(hub.unit().text(argument), hubPackage, spokePackage, copied);
		return text.replaceAll("<.*>", "");
	}

	// @PrinterColumn and the like as written, with the line comments between them
	private static String copiedAnnotations(SourceIndex.Type hub) {
		List<String> lines = new ArrayList<>();
		long previousEnd = -1;
		for (AnnotationTree annotation : hub.tree().getModifiers().getAnnotations()) {
			boolean copy = COPIED_ANNOTATIONS
				.contains(ProjectSources.simpleName(annotation.getAnnotationType().toString()));
			if (copy && previousEnd >= 0) {
				String gap = hub.unit().content().substring((int) previousEnd, (int) hub.unit().start(annotation));
				gap.lines().map(String::strip).filter((line) -> line.startsWith("//")).forEach(lines::add);
			}
			if (copy) {
				lines.add(hub.unit().text(annotation));
			}
			previousEnd = hub.unit().end(annotation);
		}
		return String.join("\n", lines);
	}

	// scope, singular, shortNames and categories: one CRD has them once, so every version
	// declares the hub's, evaluated (the hub's constants are not the spoke's)
	private static String attributes(ProjectSources sources, SourceIndex.Type hubType, KindSource hub) {
		StringBuilder attributes = new StringBuilder();
		if (hub.cluster()) {
			attributes.append("scope = KubernetesKind.Scope.CLUSTER, ");
		}
		for (AnnotationTree annotation : hubType.tree().getModifiers().getAnnotations()) {
			if (!ProjectSources.simpleName(annotation.getAnnotationType().toString()).equals("KubernetesKind")) {
				continue;
			}
			for (ExpressionTree argument : annotation.getArguments()) {
				if (argument instanceof AssignmentTree assignment && List.of("singular", "shortNames", "categories")
					.contains(assignment.getVariable().toString())) {
					attributes.append(assignment.getVariable())
						.append(" = ")
						.append(literal(sources, hubType, assignment.getExpression()))
						.append(", ");
				}
			}
		}
		return attributes.toString();
	}

	private static String literal(ProjectSources sources, SourceIndex.Type where, ExpressionTree expression) {
		try {
			if (expression instanceof NewArrayTree array) {
				List<String> elements = new ArrayList<>();
				for (ExpressionTree element : array.getInitializers()) {
					elements.add(quote(sources.constants().string(element, where)));
				}
				return "{ " + String.join(", ", elements) + " }";
			}
			return quote(sources.constants().string(expression, where));
		}
		catch (Constants.Unreadable ex) {
			throw new ScaffoldException("Cannot read " + ex.location() + ": not a constant; every version of a kind "
					+ "declares the same names, so make it one");
		}
	}

	private static String quote(String value) {
		return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
	}

	// the template's imports, and the hub's imports that the copied text uses
	private static String imports(SourceIndex.Type hub, String copiedText) {
		Set<String> words = new LinkedHashSet<>();
		Matcher matcher = WORD.matcher(copiedText);
		while (matcher.find()) {
			words.add(matcher.group());
		}
		Set<String> imports = new TreeSet<>(SPOKE_IMPORTS);
		for (ImportTree imported : hub.unit().tree().getImports()) {
			String name = imported.getQualifiedIdentifier().toString();
			if (!imported.isStatic() && words.contains(ProjectSources.simpleName(name))) {
				imports.add(name);
			}
		}
		List<String> java = imports.stream().filter((name) -> name.startsWith("java.")).toList();
		List<String> others = imports.stream().filter((name) -> !name.startsWith("java.")).toList();
		StringBuilder lines = new StringBuilder();
		java.forEach((name) -> lines.append("import ").append(name).append(";\n"));
		if (!java.isEmpty()) {
			lines.append("\n");
		}
		others.forEach((name) -> lines.append("import ").append(name).append(";\n"));
		return lines.toString().strip();
	}

	private void conversionBean(ProjectSources sources, ScaffoldPlan plan, KindSource hub, String spokeClass,
			String basePackage, Path base, String kindName) {
		Set<String> kindClasses = sources.kinds()
			.stream()
			.filter((kind) -> kind.kind().equals(kindName) && kind.group().equals(hub.group()))
			.map(KindSource::className)
			.collect(Collectors.toSet());
		List<Use> conversions = sources.conversions()
			.stream()
			.filter((use) -> kindClasses.contains(use.type()))
			.toList();
		if (conversions.isEmpty()) {
			Map<String, Object> values = new LinkedHashMap<>();
			values.put("package", basePackage);
			values.put("kind", kindName);
			values.put("bean", Character.toLowerCase(kindName.charAt(0)) + kindName.substring(1));
			values.put("hubClass", hub.className());
			values.put("hubName", ProjectSources.simpleName(hub.className()));
			values.put("hubVersion", hub.version());
			values.put("spokeClass", spokeClass);
			plan.create(base.resolve(kindName + "Conversion.java"),
					Templates.render("version/KindConversion.java.tmpl", values),
					"move it, or pass -Dconversion=false and add " + spokeClass + ".class to the spokes of " + kindName
							+ "'s Conversion by hand");
			return;
		}
		Use conversion = conversions.get(0);
		String refusal = kindName + " converts in " + conversion.position() + ", which this goal cannot extend: add "
				+ spokeClass + ".class to its spokes(...) and run again with -Dconversion=false";
		if (conversions.size() > 1 || !conversion.type().equals(hub.className())) {
			throw new ScaffoldException(refusal);
		}
		MethodInvocationTree spokes = spokesCall(conversion);
		if (spokes == null || spokes.getArguments().isEmpty()
				|| !spokes.getArguments().stream().allMatch((argument) -> argument.toString().endsWith(".class"))) {
			throw new ScaffoldException(refusal);
		}
		SourceIndex.Unit unit = conversion.unit();
		int at = (int) unit.end(spokes.getArguments().get(spokes.getArguments().size() - 1));
		String after = unit.content().substring(0, at) + ", " + spokeClass + ".class" + unit.content().substring(at);
		plan.edit(unit.file(), unit.content(), after);
	}

	// the spokes(...) called on the Conversion.hub(X.class) found
	private static MethodInvocationTree spokesCall(Use conversion) {
		MethodInvocationTree[] found = new MethodInvocationTree[1];
		new TreeScanner<Void, Void>() {

			@Override
			public Void visitMethodInvocation(MethodInvocationTree invocation, Void nothing) {
				if (invocation.getMethodSelect() instanceof MemberSelectTree select
						&& select.getIdentifier().contentEquals("spokes")
						&& select.getExpression() == conversion.tree()) {
					found[0] = invocation;
				}
				return super.visitMethodInvocation(invocation, nothing);
			}

		}.scan(conversion.unit().tree(), null);
		return found[0];
	}

	// the test is <Kind>ConversionTests, or <Kind><Version>ConversionTests beside an
	// earlier version's
	private static String testClass(Path root, Path tests, String kind, String version) {
		String first = kind + "ConversionTests";
		if (!Files.exists(root.resolve(tests).resolve(first + ".java"))) {
			return first;
		}
		return kind + Character.toUpperCase(version.charAt(0)) + version.substring(1) + "ConversionTests";
	}

	// an example of the hub under examples/, which the conversion test converts
	private static Example example(Path root, KindSource hub) {
		Path examples = root.resolve("examples");
		if (!Files.isDirectory(examples)) {
			return null;
		}
		try (Stream<Path> files = Files.list(examples)) {
			for (Path file : files.filter((file) -> file.toString().endsWith(".yaml")).sorted().toList()) {
				String content = Files.readString(file, StandardCharsets.UTF_8);
				if (!content.contains("\n---") && content.lines().anyMatch(("kind: " + hub.kind())::equals)
						&& content.lines().anyMatch(("apiVersion: " + hub.apiVersion())::equals)) {
					return new Example(root.relativize(file).toString().replace('\\', '/'));
				}
			}
		}
		catch (IOException ex) {
			throw new ScaffoldException("Cannot read examples/: " + ex.getMessage(), ex);
		}
		return null;
	}

	private static String render(String template, Map<String, Object> values, String... names) {
		Map<String, Object> given = new LinkedHashMap<>();
		for (String name : names) {
			given.put(name, values.get(name));
		}
		return Templates.render(template, given);
	}

	private record Example(String file) {

	}

	/**
	 * The goal's parameters, as given.
	 *
	 * @param kind {@code -Dkind}, an existing kind
	 * @param apiVersion {@code -DapiVersion}, the new version or {@code group/version}
	 * @param conversion {@code -Dconversion}: whether to create or extend the kind's
	 * {@code Conversion} bean
	 */
	record Options(String kind, String apiVersion, boolean conversion) {

	}

}
