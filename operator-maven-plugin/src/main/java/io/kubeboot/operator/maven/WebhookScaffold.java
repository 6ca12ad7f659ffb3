package io.kubeboot.operator.maven;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.kubeboot.operator.maven.ProjectSources.KindSource;
import io.kubeboot.operator.maven.ProjectSources.Use;

/**
 * Plans {@code operator:create-webhook}: a validator, a defaulter or both for an existing
 * kind, each with its test against a local control plane. They go in the base package,
 * where component scanning finds them; the webhook is for the kind's storage version
 * unless {@code -DapiVersion} names another. The starter refuses a second validator or
 * defaulter of a kind at start-up, so the goal refuses first.
 */
final class WebhookScaffold {

	private final Options options;

	WebhookScaffold(Options options) {
		this.options = options;
	}

	/**
	 * Plans the files.
	 * @param sources the project
	 * @return the plan, not yet checked against the files that exist
	 * @throws ScaffoldException if no webhook is asked for, the kind is unknown, or it
	 * has the webhook already
	 */
	Scaffold plan(ProjectSources sources) {
		if (!this.options.validating() && !this.options.defaulting()) {
			throw new ScaffoldException("Say which webhook: -Dvalidating, -Ddefaulting or both");
		}
		String kindName = Names.kind(this.options.kind());
		String basePackage = sources.application().packageName();
		KindSource kind = kind(sources.kinds(), kindName);
		List<KindSource> versions = sources.kinds()
			.stream()
			.filter((other) -> other.kind().equals(kind.kind()) && other.group().equals(kind.group()))
			.toList();
		if (this.options.validating()) {
			refuseExisting(sources.validators(), kind, versions, "a validator");
		}
		if (this.options.defaulting()) {
			refuseExisting(sources.defaulters(), kind, versions, "a defaulter");
		}
		Map<String, Object> values = new LinkedHashMap<>();
		values.put("package", basePackage);
		values.put("kind", kind.kind());
		values.put("kindClass", kind.className());
		values.put("group", kind.group());
		values.put("version", kind.version());
		values.put("plural", kind.plural());
		values.put("cluster", kind.cluster());
		Path base = ProjectSources.MAIN_JAVA.resolve(basePackage.replace('.', '/'));
		Path tests = Path.of("src", "test", "java").resolve(basePackage.replace('.', '/'));
		ScaffoldPlan plan = new ScaffoldPlan(sources.root());
		List<String> webhooks = new ArrayList<>();
		if (this.options.validating()) {
			webhooks.add("a validating");
			plan.create(base.resolve(kind.kind() + "Validator.java"),
					render("webhook/KindValidator.java.tmpl", values, "package", "kind", "kindClass", "group"),
					"move it");
			plan.create(
					tests.resolve(kind.kind() + "ValidatorTests.java"), render("webhook/KindValidatorTests.java.tmpl",
							values, "package", "kind", "kindClass", "group", "version", "plural", "cluster"),
					"move it");
		}
		if (this.options.defaulting()) {
			webhooks.add("a defaulting");
			plan.create(base.resolve(kind.kind() + "Defaulter.java"), render("webhook/KindDefaulter.java.tmpl", values,
					"package", "kind", "kindClass", "group", "plural"), "move it");
			plan.create(
					tests.resolve(kind.kind() + "DefaulterTests.java"), render("webhook/KindDefaulterTests.java.tmpl",
							values, "package", "kind", "kindClass", "group", "version", "plural", "cluster"),
					"move it");
		}
		List<String> summary = List.of(
				kind.kind() + " (" + kind.apiVersion() + "): " + String.join(" and ", webhooks) + " webhook",
				"In a cluster the webhooks need cert-manager (deploy/README.md); tests and spring-boot:test-run serve "
						+ "them with a self-signed certificate.");
		List<String> classes = new ArrayList<>();
		if (this.options.validating()) {
			classes.add(kind.kind() + "Validator");
		}
		if (this.options.defaulting()) {
			classes.add(kind.kind() + "Defaulter");
		}
		String next = "Next: replace the owner label rule of " + String.join(" and ", classes) + " with " + kind.kind()
				+ "'s own, then mvn verify; commit deploy/ with the code.";
		return new Scaffold(summary, plan, next);
	}

	private KindSource kind(List<KindSource> kinds, String name) {
		List<KindSource> named = kinds.stream().filter((kind) -> kind.kind().equals(name)).toList();
		for (KindSource kind : named) {
			if (kind.problem() != null) {
				throw new ScaffoldException(kind.problem() + ": make it a constant to add a webhook to " + name);
			}
		}
		if (named.isEmpty()) {
			throw new ScaffoldException("No kind " + name + " in src/main/java: the project's kinds are "
					+ (kinds.isEmpty() ? "none"
							: kinds.stream()
								.map((kind) -> kind.kind() + " (" + kind.apiVersion() + ")")
								.collect(Collectors.joining(", "))));
		}
		String version = this.options.apiVersion();
		if (version == null) {
			return named.stream()
				.filter(KindSource::storage)
				.findFirst()
				.orElseThrow(() -> new ScaffoldException(
						name + " has no storage version (storage = true): pass -DapiVersion to choose one"));
		}
		String wanted = version.contains("/") ? version : named.get(0).group() + "/" + version;
		return named.stream()
			.filter((kind) -> kind.apiVersion().equals(wanted))
			.findFirst()
			.orElseThrow(() -> new ScaffoldException(name + " has no version " + wanted + ": it has "
					+ named.stream().map(KindSource::apiVersion).collect(Collectors.joining(", "))));
	}

	// one per kind and version for the starter, one per kind for the manifests: the API
	// server converts the other versions' requests to the webhook's (matchPolicy
	// Equivalent)
	private static void refuseExisting(List<Use> uses, KindSource kind, List<KindSource> versions, String what) {
		for (Use use : uses) {
			if (use.type().equals(kind.className())) {
				throw new ScaffoldException(kind.kind() + " has " + what + " already: " + use.position()
						+ ". A kind has one (the starter refuses a second at start-up): add the checks there");
			}
			for (KindSource version : versions) {
				if (use.type().equals(version.className())) {
					throw new ScaffoldException(kind.kind() + " has " + what + " already, for " + version.apiVersion()
							+ ": " + use.position() + ". A kind has one, of one version, which gets the requests "
							+ "for every version (the API server converts them, matchPolicy Equivalent): add the "
							+ "checks there");
				}
			}
		}
	}

	private static String render(String template, Map<String, Object> values, String... names) {
		Map<String, Object> given = new LinkedHashMap<>();
		for (String name : names) {
			given.put(name, values.get(name));
		}
		return Templates.render(template, given);
	}

	/**
	 * The goal's parameters, as given.
	 *
	 * @param kind {@code -Dkind}, an existing kind
	 * @param apiVersion {@code -DapiVersion}, a version or {@code group/version}, or
	 * {@code null} for the storage version
	 * @param validating {@code -Dvalidating}
	 * @param defaulting {@code -Ddefaulting}
	 */
	record Options(String kind, String apiVersion, boolean validating, boolean defaulting) {

	}

}
