package io.kubeboot.operator.maven;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import javax.lang.model.SourceVersion;

import io.kubeboot.operator.maven.ProjectSources.KindSource;

/**
 * Plans {@code operator:create-api}: a kind's model (the kind, its spec and its status),
 * its reconciler and the reconciler's test against a local control plane, and an example.
 * <p>
 * Defaults come from the project: the group is the one group of its kinds, the version
 * the one version they share in that group (else {@code v1alpha1}), the package that of
 * the kinds of the same group and version (else {@code <base>.<version>}, or
 * {@code <base>.<first label of the group>.<version>} for a second group, as
 * kubebuilder's multigroup layout). The reconciler and its test go in the base package,
 * that of the {@code @SpringBootApplication} class, where component scanning finds them.
 */
final class ApiScaffold {

	static final String DEFAULT_VERSION = "v1alpha1";

	private final Options options;

	ApiScaffold(Options options) {
		this.options = options;
	}

	/**
	 * Plans the files.
	 * @param sources the project
	 * @return the plan, not yet checked against the files that exist
	 * @throws ScaffoldException if an option is wrong or the kind exists
	 */
	Scaffold plan(ProjectSources sources) {
		String basePackage = sources.application().packageName();
		Coordinates api = coordinates(Names.kind(this.options.kind()), sources.kinds(), basePackage);
		String kind = api.kind();
		Map<String, Object> values = new LinkedHashMap<>();
		values.put("package", basePackage);
		values.put("modelPackage", api.modelPackage());
		values.put("kind", kind);
		values.put("group", api.group());
		values.put("version", api.version());
		values.put("plural", api.plural());
		values.put("cluster", api.cluster());
		String exampleReconciler = exampleReconciler(sources);
		values.put("example", exampleReconciler != null);
		values.put("exampleReconciler", (exampleReconciler != null) ? exampleReconciler : "");
		String example = kind.toLowerCase(Locale.ROOT) + ".yaml";
		values.put("exampleFile", example);

		Path model = ProjectSources.MAIN_JAVA.resolve(api.modelPackage().replace('.', '/'));
		Path base = ProjectSources.MAIN_JAVA.resolve(basePackage.replace('.', '/'));
		Path tests = Path.of("src", "test", "java").resolve(basePackage.replace('.', '/'));
		ScaffoldPlan plan = new ScaffoldPlan(sources.root());
		plan.create(model.resolve(kind + ".java"),
				render("api/Kind.java.tmpl", values, "modelPackage", "kind", "group", "version", "plural", "cluster"),
				"move it");
		plan.create(model.resolve(kind + "Spec.java"), render("api/KindSpec.java.tmpl", values, "modelPackage", "kind"),
				"move it");
		plan.create(model.resolve(kind + "Status.java"),
				render("api/KindStatus.java.tmpl", values, "modelPackage", "kind"), "move it");
		if (this.options.reconciler()) {
			String reconciler = "move it, or pass -Dreconciler=false";
			plan.create(base.resolve(kind + "Reconciler.java"), render("api/KindReconciler.java.tmpl", values,
					"package", "modelPackage", "kind", "example", "exampleReconciler"), reconciler);
			plan.create(tests.resolve(kind + "ReconcilerTests.java"),
					render("api/KindReconcilerTests.java.tmpl", values, "package", "modelPackage", "kind", "cluster"),
					reconciler);
		}
		plan.create(Path.of("examples", example),
				render("api/example.yaml.tmpl", values, "exampleFile", "plural", "group", "version", "kind"),
				"move it");

		List<String> summary = List.of(kind + ": " + api.group() + "/" + api.version() + api.groupReason() + ", plural "
				+ api.plural() + ", " + (api.cluster() ? "Cluster" : "Namespaced") + ", in " + api.modelPackage());
		String next = "Next: give " + kind + "Spec its fields"
				+ (this.options.reconciler() ? " and " + kind + "Reconciler.reconcile its work" : "")
				+ ", then mvn verify; commit deploy/ with the code.";
		return new Scaffold(summary, plan, next);
	}

	// the options, with the defaults the project's kinds give, checked against those
	// kinds
	private Coordinates coordinates(String kind, List<KindSource> kinds, String basePackage) {
		String explicitGroup = this.options.group();
		String explicitVersion = this.options.apiVersion();
		if (explicitVersion != null && explicitVersion.contains("/")) {
			String group = explicitVersion.substring(0, explicitVersion.indexOf('/'));
			if (explicitGroup != null && !explicitGroup.equals(group)) {
				throw new ScaffoldException("-DapiVersion=" + explicitVersion + " and -Dgroup=" + explicitGroup
						+ " name different groups: pass one of them");
			}
			explicitGroup = group;
			explicitVersion = explicitVersion.substring(explicitVersion.indexOf('/') + 1);
		}
		List<String> groups = groups(kinds);
		String group = (explicitGroup != null) ? Names.group(explicitGroup) : inferredGroup(kinds, groups);
		String groupReason = (explicitGroup != null) ? "" : " (the group of " + kindsOf(kinds, group) + ")";
		for (KindSource existing : kinds) {
			if (existing.kind().equals(kind) && existing.group().equals(group)) {
				throw new ScaffoldException(kind + " exists: " + existing.file() + " (" + existing.apiVersion()
						+ "). To add a version: mvn operator:create-version -Dkind=" + kind + " -DapiVersion="
						+ (existing.version().equals("v1") ? "v2" : "v1"));
			}
			if (existing.kind().equals(kind)) {
				throw new ScaffoldException(kind + " exists in " + existing.group() + ": " + existing.file()
						+ ". Two kinds of one name would need two " + kind + "Reconciler classes in " + basePackage
						+ ": choose another name");
			}
		}
		String version = (explicitVersion != null) ? Names.version(explicitVersion) : inferredVersion(kinds, group);
		String plural = Names.plural((this.options.plural() != null) ? this.options.plural() : Names.pluralOf(kind),
				group);
		for (KindSource existing : kinds) {
			if (existing.plural().equals(plural) && existing.group().equals(group)) {
				throw new ScaffoldException(plural + "." + group + " is the CRD of " + existing.kind() + " already ("
						+ existing.file() + "): pass another -Dplural");
			}
		}
		return new Coordinates(kind, group, groupReason, version, plural, cluster(this.options.scope()),
				modelPackage(kinds, groups, basePackage, group, version));
	}

	// each template gets the values it names, no more: Templates refuses unused ones
	private static String render(String template, Map<String, Object> values, String... names) {
		Map<String, Object> given = new LinkedHashMap<>();
		for (String name : names) {
			given.put(name, values.get(name));
		}
		return Templates.render(template, given);
	}

	private static List<String> groups(List<KindSource> kinds) {
		return kinds.stream()
			.filter((kind) -> kind.problem() == null)
			.map(KindSource::group)
			.distinct()
			.sorted()
			.toList();
	}

	private static String inferredGroup(List<KindSource> kinds, List<String> groups) {
		for (KindSource kind : kinds) {
			if (kind.problem() != null) {
				throw new ScaffoldException(kind.problem() + "; pass -Dgroup");
			}
		}
		if (groups.isEmpty()) {
			throw new ScaffoldException("No @KubernetesKind class in src/main/java to take the group from: pass "
					+ "-Dgroup, such as -Dgroup=shop.example.com");
		}
		if (groups.size() > 1) {
			throw new ScaffoldException("Pass -Dgroup: the project's kinds are in " + groups.stream()
				.map((group) -> group + " (" + kindsOf(kinds, group) + ")")
				.collect(Collectors.joining(" and ")));
		}
		return groups.get(0);
	}

	private static String kindsOf(List<KindSource> kinds, String group) {
		return kinds.stream()
			.filter((kind) -> group.equals(kind.group()))
			.map(KindSource::kind)
			.collect(Collectors.joining(", "));
	}

	private static String inferredVersion(List<KindSource> kinds, String group) {
		List<String> versions = kinds.stream()
			.filter((kind) -> kind.problem() == null && kind.group().equals(group) && kind.storage())
			.map(KindSource::version)
			.distinct()
			.toList();
		return (versions.size() == 1) ? versions.get(0) : DEFAULT_VERSION;
	}

	private static boolean cluster(String scope) {
		if (scope == null || scope.equalsIgnoreCase("Namespaced")) {
			return false;
		}
		if (scope.equalsIgnoreCase("Cluster")) {
			return true;
		}
		throw new ScaffoldException("-Dscope=" + scope + " is no scope: Namespaced (the default) or Cluster");
	}

	private static String modelPackage(List<KindSource> kinds, List<String> groups, String basePackage, String group,
			String version) {
		List<String> packages = new ArrayList<>();
		for (KindSource kind : kinds) {
			if (kind.problem() == null && kind.group().equals(group) && kind.version().equals(version)
					&& !packages.contains(kind.packageName())) {
				packages.add(kind.packageName());
			}
		}
		if (!packages.isEmpty()) {
			return packages.stream().sorted().findFirst().get();
		}
		boolean mainGroup = groups.isEmpty() || (groups.size() == 1 && groups.get(0).equals(group));
		String label = group.substring(0, group.indexOf('.')).replace("-", "");
		String name = mainGroup ? basePackage + "." + version : basePackage + "." + label + "." + version;
		if (!SourceVersion.isName(name)) {
			throw new ScaffoldException("The group " + group + " gives no Java package (" + name
					+ "): choose a group whose first label is a Java identifier");
		}
		return name;
	}

	// the archetype's first reconciler writes a ConfigMap: the example the new one points
	// at
	private static String exampleReconciler(ProjectSources sources) {
		return sources.reconcilers()
			.stream()
			.map((use) -> use.unit().file().getFileName().toString().replace(".java", ""))
			.sorted()
			.findFirst()
			.orElse(null);
	}

	/**
	 * Where the new kind goes.
	 *
	 * @param kind the kind
	 * @param group its group
	 * @param groupReason why that group, when the goal chose it, such as
	 * {@code  (the group of Website)}; empty when given
	 * @param version its version
	 * @param plural its plural
	 * @param cluster whether it is cluster-scoped
	 * @param modelPackage the package of its model classes
	 */
	private record Coordinates(String kind, String group, String groupReason, String version, String plural,
			boolean cluster, String modelPackage) {

	}

	/**
	 * The goal's parameters, as given.
	 *
	 * @param kind {@code -Dkind}
	 * @param apiVersion {@code -DapiVersion}, a version or {@code group/version}, or
	 * {@code null}
	 * @param group {@code -Dgroup}, or {@code null}
	 * @param plural {@code -Dplural}, or {@code null}
	 * @param scope {@code -Dscope}, {@code Namespaced} or {@code Cluster}, or
	 * {@code null}
	 * @param reconciler {@code -Dreconciler}: whether to write a reconciler and its test
	 */
	record Options(String kind, String apiVersion, String group, String plural, String scope, boolean reconciler) {

	}

}
