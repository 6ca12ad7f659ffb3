package io.kubeboot.operator.rbac;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Renders rules as the YAML {@code kubectl apply} takes: a ClusterRole named after the
 * operator with the rules for all namespaces and cluster-scoped kinds, a Role of the same
 * name in each namespace with rules there, and for the rules of a
 * {@link Permission#inRole(String) role of their own} (leader election's) the same again
 * named {@code <name>-<role>}. Each rule is preceded by its reasons as comments. With a
 * {@link Builder#serviceAccount ServiceAccount}, the ServiceAccount and a binding of
 * every role to it are rendered too, except for the ClusterRole of rules
 * {@link Permission#grantedPerNamespace() granted per namespace}, which is rendered with
 * a comment saying so and left for RoleBindings in the namespaces that grant it.
 *
 * <pre class="code">
 * String yaml = RbacManifest.builder("shop-operator")
 *     .serviceAccount("shop", "shop-operator")
 *     .render(PolicyRules.of(manager.requiredPermissions()));
 * </pre>
 *
 * The output depends on nothing but the arguments, not even their order: the same rules
 * give the same bytes, so a build can compare it with the copy checked in.
 */
public final class RbacManifest {

	private static final String RBAC_API = "rbac.authorization.k8s.io";

	private static final Pattern DNS_SUBDOMAIN = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	private static final Pattern PLAIN = Pattern.compile("[a-z][-a-z0-9.]*");

	private static final Set<String> YAML_WORDS = Set.of("y", "n", "yes", "no", "true", "false", "on", "off", "null");

	private static final int WIDTH = 110;

	private static final Comparator<PolicyRule> ORDER = Comparator.comparing(PolicyRule::apiGroup)
		.thenComparing(PolicyRule::resource)
		.thenComparing((rule) -> String.join(",", rule.resourceNames()));

	private RbacManifest() {
	}

	/**
	 * Starts rendering the roles of an operator.
	 * @param name the name of its roles, usually the application's name
	 * @return the builder
	 * @throws IllegalArgumentException if the name is no lowercase RFC 1123 subdomain
	 */
	public static Builder builder(String name) {
		return new Builder(requireName(name, "name"));
	}

	private static String requireName(@Nullable String value, String what) {
		if (value == null || !DNS_SUBDOMAIN.matcher(value).matches() || value.length() > 253) {
			throw new IllegalArgumentException(what + " '" + value + "' must be a lowercase RFC 1123 subdomain");
		}
		return value;
	}

	/**
	 * Renders the manifest of an operator. Not thread-safe.
	 */
	public static final class Builder {

		private final String name;

		private final List<String> header = new ArrayList<>();

		private @Nullable String serviceAccountNamespace;

		private @Nullable String serviceAccountName;

		private Builder(String name) {
			this.name = name;
		}

		/**
		 * Adds comment lines at the top, such as how the file was made and how to refresh
		 * it.
		 * @param lines the lines, without {@code #}
		 * @return this builder
		 */
		public Builder header(String... lines) {
			this.header.addAll(Arrays.asList(lines));
			return this;
		}

		/**
		 * Renders a ServiceAccount too, and binds every role to it.
		 * @param namespace the ServiceAccount's namespace
		 * @param name the ServiceAccount's name
		 * @return this builder
		 */
		public Builder serviceAccount(String namespace, String name) {
			this.serviceAccountNamespace = requireName(namespace, "namespace");
			this.serviceAccountName = requireName(name, "ServiceAccount name");
			return this;
		}

		/**
		 * Renders the rules.
		 * @param rules the rules
		 * @return the YAML, documents separated by {@code ---}, ending with a newline
		 */
		public String render(List<PolicyRule> rules) {
			List<String> documents = new ArrayList<>();
			if (this.serviceAccountName != null) {
				documents
					.add("apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: " + scalar(this.serviceAccountName)
							+ "\n  namespace: " + scalar(this.serviceAccountNamespace) + "\n");
			}
			for (Role role : roles(this.name, rules)) {
				StringBuilder document = new StringBuilder();
				if (role.grantedPerNamespace()) {
					comment(document, "", "Not bound here: granted namespace by namespace, by a RoleBinding of this "
							+ "ClusterRole to the ServiceAccount in each namespace that needs it");
				}
				documents.add(document.append(role(role.name(), role.namespace(), role.rules())).toString());
				if (this.serviceAccountName != null && !role.grantedPerNamespace()) {
					documents.add(binding(role.name(), role.namespace()));
				}
			}
			StringBuilder yaml = new StringBuilder();
			for (String line : this.header) {
				yaml.append(line.isBlank() ? "#" : "# " + line.strip()).append('\n');
			}
			yaml.append(String.join("---\n", documents));
			return yaml.toString();
		}

		private String role(String roleName, @Nullable String namespace, List<PolicyRule> rules) {
			StringBuilder yaml = new StringBuilder();
			yaml.append("apiVersion: ").append(RBAC_API).append("/v1\n");
			yaml.append("kind: ").append((namespace != null) ? "Role" : "ClusterRole").append('\n');
			yaml.append("metadata:\n  name: ").append(scalar(roleName)).append('\n');
			if (namespace != null) {
				yaml.append("  namespace: ").append(scalar(namespace)).append('\n');
			}
			yaml.append("rules:\n");
			for (PolicyRule rule : rules) {
				for (String reason : new TreeSet<>(rule.reasons())) {
					comment(yaml, "  ", reason);
				}
				yaml.append("  - apiGroups: ").append(list(List.of(rule.apiGroup()))).append('\n');
				yaml.append("    resources: ").append(list(List.of(rule.resource()))).append('\n');
				if (!rule.resourceNames().isEmpty()) {
					yaml.append("    resourceNames: ").append(list(rule.resourceNames())).append('\n');
				}
				yaml.append("    verbs: ").append(list(rule.verbs())).append('\n');
			}
			return yaml.toString();
		}

		private String binding(String roleName, @Nullable String namespace) {
			String kind = (namespace != null) ? "Role" : "ClusterRole";
			StringBuilder yaml = new StringBuilder();
			yaml.append("apiVersion: ").append(RBAC_API).append("/v1\n");
			yaml.append("kind: ").append(kind).append("Binding\n");
			yaml.append("metadata:\n  name: ").append(scalar(roleName)).append('\n');
			if (namespace != null) {
				yaml.append("  namespace: ").append(scalar(namespace)).append('\n');
			}
			yaml.append("roleRef:\n  apiGroup: ").append(RBAC_API).append("\n  kind: ").append(kind);
			yaml.append("\n  name: ").append(scalar(roleName)).append('\n');
			yaml.append("subjects:\n  - kind: ServiceAccount\n    name: ").append(scalar(this.serviceAccountName));
			yaml.append("\n    namespace: ").append(scalar(this.serviceAccountNamespace)).append('\n');
			return yaml.toString();
		}

	}

	/**
	 * Groups rules into the roles that hold them, as {@link Builder#render} renders them:
	 * a ClusterRole named after the operator for the rules of all namespaces and
	 * cluster-scoped kinds, a Role of that name in each namespace with rules there, the
	 * same again named {@code <name>-<role>} for the rules of a role of their own. For
	 * renderers of other manifests, such as a Helm chart's.
	 * @param name the name of the operator's roles
	 * @param rules the rules
	 * @return the roles: by role, the ClusterRole before the namespaces, each one's rules
	 * sorted by group, resource and names
	 * @throws IllegalArgumentException if the name or a namespace is no lowercase RFC
	 * 1123 subdomain, or a ClusterRole mixes rules granted per namespace with others
	 */
	public static List<Role> roles(String name, List<PolicyRule> rules) {
		requireName(name, "name");
		Objects.requireNonNull(rules, "rules must not be null");
		Map<String, Map<String, List<PolicyRule>>> grouped = new TreeMap<>();
		for (PolicyRule rule : rules) {
			String namespace = (rule.namespace() != null) ? requireName(rule.namespace(), "namespace") : "";
			grouped.computeIfAbsent(rule.role(), (role) -> new TreeMap<>())
				.computeIfAbsent(namespace, (ns) -> new ArrayList<>())
				.add(rule);
		}
		List<Role> roles = new ArrayList<>();
		grouped.forEach((role, byNamespace) -> byNamespace.forEach((namespace, inRole) -> {
			String roleName = role.isEmpty() ? name : requireName(name + "-" + role, "role name");
			boolean perNamespace = inRole.stream().anyMatch(PolicyRule::grantedPerNamespace);
			if (perNamespace && inRole.stream().anyMatch((rule) -> !rule.grantedPerNamespace())) {
				throw new IllegalArgumentException("ClusterRole " + roleName + " mixes rules granted per "
						+ "namespace with rules for all namespaces");
			}
			roles.add(new Role(roleName, namespace.isEmpty() ? null : namespace, inRole.stream().sorted(ORDER).toList(),
					perNamespace));
		}));
		return roles;
	}

	/**
	 * A Role or ClusterRole and its rules.
	 *
	 * @param name the role's name
	 * @param namespace the Role's namespace, or {@code null} for a ClusterRole
	 * @param rules its rules, sorted
	 * @param grantedPerNamespace whether it is a ClusterRole bound namespace by
	 * namespace, with RoleBindings, instead of cluster-wide
	 */
	public record Role(String name, @Nullable String namespace, List<PolicyRule> rules, boolean grantedPerNamespace) {

		public Role {
			rules = List.copyOf(rules);
		}

	}

	/**
	 * Writes a comment, wrapped at word boundaries.
	 */
	private static void comment(StringBuilder yaml, String indent, String text) {
		String prefix = indent + "# ";
		StringBuilder line = new StringBuilder(prefix);
		for (String word : text.strip().split("\\s+")) {
			if (line.length() > prefix.length() && line.length() + 1 + word.length() > WIDTH) {
				yaml.append(line).append('\n');
				line = new StringBuilder(prefix);
			}
			if (line.length() > prefix.length()) {
				line.append(' ');
			}
			line.append(word);
		}
		yaml.append(line).append('\n');
	}

	private static String list(List<String> values) {
		return "[" + String.join(", ", values.stream().map(RbacManifest::quoted).toList()) + "]";
	}

	private static String scalar(@Nullable String value) {
		String text = String.valueOf(value);
		return (PLAIN.matcher(text).matches() && !YAML_WORDS.contains(text)) ? text : quoted(text);
	}

	private static String quoted(String value) {
		StringBuilder quoted = new StringBuilder("\"");
		for (char c : value.toCharArray()) {
			switch (c) {
				case '"' -> quoted.append("\\\"");
				case '\\' -> quoted.append("\\\\");
				case '\n' -> quoted.append("\\n");
				case '\t' -> quoted.append("\\t");
				default -> quoted.append(c);
			}
		}
		return quoted.append('"').toString();
	}

}
