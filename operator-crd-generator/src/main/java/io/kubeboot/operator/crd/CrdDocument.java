package io.kubeboot.operator.crd;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The CustomResourceDefinition of one kind: every class declaring a version of it,
 * checked to agree with each other, written as one YAML document with the versions in
 * Kubernetes' order (GA before beta before alpha, higher first) and, with more than one,
 * the {@link Conversion} between them.
 */
final class CrdDocument {

	/**
	 * Where the file goes in the class output, relative to its root.
	 */
	static final String DIRECTORY = "META-INF/kubeboot/crds/";

	private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

	/**
	 * Kubernetes' order of versions: GA before beta before alpha, higher first.
	 */
	static final Comparator<String> VERSION_PRIORITY = Comparator.comparingInt(CrdDocument::stability)
		.thenComparing(Comparator.comparingInt((String version) -> number(version, 1)).reversed())
		.thenComparing(Comparator.comparingInt((String version) -> number(version, 3)).reversed())
		.thenComparing(Comparator.naturalOrder());

	private final List<KindVersion> versions;

	private final Conversion conversion;

	CrdDocument(List<KindVersion> versions, Conversion conversion) {
		this.versions = versions.stream()
			.sorted(Comparator.comparing(KindVersion::version, VERSION_PRIORITY))
			.collect(Collectors.toList());
		this.conversion = conversion;
	}

	/**
	 * Whether the CRD sends conversions to the webhook: it has several versions, and the
	 * options leave the conversion strategy {@code Webhook}.
	 * @return whether it has a conversion webhook
	 */
	boolean convertsByWebhook() {
		return this.versions.size() > 1 && this.conversion.webhook();
	}

	/**
	 * The file's path in the class output:
	 * {@code META-INF/kubeboot/crds/<plural>.<group>.yaml}.
	 * @return the path
	 */
	String path() {
		return DIRECTORY + name() + ".yaml";
	}

	/**
	 * Checks that the versions can form one CustomResourceDefinition: no version twice,
	 * one names and scope, exactly one storage version.
	 * @param diagnostics where problems go
	 * @return whether the versions agree
	 */
	boolean check(Diagnostics diagnostics) {
		int errors = diagnostics.errors();
		KindVersion first = this.versions.get(0);
		String what = first.kind() + " (" + first.group() + ")";
		Map<String, KindVersion> byVersion = new LinkedHashMap<>();
		for (KindVersion version : this.versions) {
			KindVersion other = byVersion.putIfAbsent(version.version(), version);
			if (other != null) {
				diagnostics.error(version.type(),
						"Version " + version.version() + " of " + what + " is declared twice, by "
								+ other.type().getQualifiedName() + " and " + version.type().getQualifiedName());
			}
			if (!version.names().equals(first.names())) {
				diagnostics.error(version.type(),
						"The versions of " + what + " share one CustomResourceDefinition and must declare the same "
								+ "plural, singular, shortNames, categories and scope: "
								+ first.type().getQualifiedName() + " declares " + first.names() + "; "
								+ version.type().getQualifiedName() + " declares " + version.names());
			}
		}
		List<KindVersion> storage = this.versions.stream().filter(KindVersion::storage).toList();
		if (storage.size() != 1) {
			String classes = this.versions.stream()
				.map((version) -> version.type().getQualifiedName() + " (" + version.version() + ", storage = "
						+ version.storage() + ")")
				.collect(Collectors.joining(", "));
			diagnostics.error(first.type(), what + " needs exactly one storage version, and has " + storage.size()
					+ ": " + classes + "; set storage = false on @KubernetesKind of all but one");
		}
		return diagnostics.errors() == errors;
	}

	/**
	 * The CustomResourceDefinition as YAML, with a comment naming the classes it comes
	 * from.
	 * @return the YAML
	 */
	String yaml() {
		KindVersion first = this.versions.get(0);
		Map<String, Object> names = new LinkedHashMap<>();
		names.put("kind", first.kind());
		names.put("listKind", first.kind() + "List");
		names.put("plural", first.names().plural());
		names.put("singular", first.names().singular());
		if (!first.names().shortNames().isEmpty()) {
			names.put("shortNames", first.names().shortNames());
		}
		if (!first.names().categories().isEmpty()) {
			names.put("categories", first.names().categories());
		}
		Map<String, Object> spec = new LinkedHashMap<>();
		spec.put("group", first.group());
		spec.put("scope", first.names().scope());
		spec.put("names", names);
		if (convertsByWebhook()) {
			spec.put("conversion", this.conversion.toMap());
		}
		List<Map<String, Object>> versions = new ArrayList<>();
		for (KindVersion version : this.versions) {
			versions.add(version.toMap());
		}
		spec.put("versions", versions);
		Map<String, Object> crd = new LinkedHashMap<>();
		crd.put("apiVersion", "apiextensions.k8s.io/v1");
		crd.put("kind", "CustomResourceDefinition");
		Map<String, Object> metadata = new LinkedHashMap<>();
		metadata.put("name", name());
		if (convertsByWebhook() && !this.conversion.certificate().isEmpty()) {
			metadata.put("annotations", Map.of("cert-manager.io/inject-ca-from", this.conversion.certificate()));
		}
		crd.put("metadata", metadata);
		crd.put("spec", spec);
		String classes = this.versions.stream()
			.map((version) -> version.type().getQualifiedName().toString())
			.collect(Collectors.joining(", "));
		return new YamlWriter().comment("Generated by operator-crd-generator from " + classes + ".")
			.comment("Change the model classes, not this file: the build writes it again.")
			.document(crd)
			.toString();
	}

	private String name() {
		KindVersion first = this.versions.get(0);
		return first.names().plural() + "." + first.group();
	}

	/** 0 for GA, 1 for beta, 2 for alpha, 3 for a name that is no Kubernetes version. */
	private static int stability(String version) {
		Matcher matcher = KUBE_VERSION.matcher(version);
		if (!matcher.matches()) {
			return 3;
		}
		if (matcher.group(2) == null) {
			return 0;
		}
		return matcher.group(2).equals("beta") ? 1 : 2;
	}

	private static int number(String version, int group) {
		Matcher matcher = KUBE_VERSION.matcher(version);
		return (matcher.matches() && matcher.group(group) != null) ? Integer.parseInt(matcher.group(group)) : 0;
	}

}
