package io.kubeboot.operator.rbac.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.rbac.PolicyRule;
import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * Turns permissions into rules: resolves each kind to its group, resource and scope,
 * places it (a cluster-scoped kind, and anything for all namespaces, in a ClusterRole),
 * and merges the permissions that differ only in verbs and reasons into one rule. The
 * result is sorted, so the same permissions always give the same rules.
 */
public final class RuleResolver {

	/** Kubernetes' usual order of verbs; others follow in the order first seen. */
	private static final List<String> VERB_ORDER = List.of("get", "list", "watch", "create", "update", "patch",
			"delete", "deletecollection");

	private static final Comparator<PolicyRule> ORDER = Comparator.comparing(PolicyRule::role)
		.thenComparing((rule) -> (rule.namespace() != null) ? rule.namespace() : "",
				Comparator.comparing((String namespace) -> !namespace.isEmpty())
					.thenComparing(Comparator.naturalOrder()))
		.thenComparing(PolicyRule::apiGroup)
		.thenComparing(PolicyRule::resource)
		.thenComparing((rule) -> String.join(",", rule.resourceNames()));

	private RuleResolver() {
	}

	/**
	 * Resolves and merges permissions.
	 * @param permissions the permissions; one not placed yet is taken as for all
	 * namespaces
	 * @param names how kinds are named
	 * @return the rules, sorted by role, namespace (the cluster first), group, resource
	 * and names
	 * @throws ApiException if naming a kind needed the API server and failed
	 */
	public static List<PolicyRule> resolve(List<Permission> permissions, KindNames names) throws ApiException {
		Map<Key, Merged> merged = new LinkedHashMap<>();
		for (Permission permission : permissions) {
			String group;
			String plural;
			boolean namespaced;
			if (permission.kind() != null) {
				KindNames.Name name = names.resolve(permission.kind());
				group = name.group();
				plural = name.plural();
				namespaced = name.namespaced();
			}
			else {
				group = permission.group();
				plural = permission.resource();
				namespaced = true;
			}
			String resource = permission.subresource().isEmpty() ? plural : plural + "/" + permission.subresource();
			String namespace = (namespaced && !permission.isInAllNamespaces()) ? permission.namespace() : null;
			// granted per namespace matters only for a ClusterRole: a Role is bound in
			// its namespace anyway
			boolean perNamespace = permission.isGrantedPerNamespace() && namespace == null && namespaced;
			if (perNamespace && permission.role().isEmpty()) {
				throw new IllegalArgumentException("A permission granted per namespace needs a role of its own "
						+ "(inRole, @RbacRule(role = ...)): " + permission);
			}
			Key key = new Key(permission.role(), namespace, group, resource, permission.resourceNames(), perNamespace);
			Merged rule = merged.computeIfAbsent(key, (k) -> new Merged());
			rule.verbs.addAll(permission.verbs());
			if (!permission.reason().isEmpty()) {
				rule.reasons.add(permission.reason());
			}
		}
		List<PolicyRule> rules = new ArrayList<>();
		merged.forEach((key, rule) -> rules.add(new PolicyRule(key.role(), key.namespace(), key.group(), key.resource(),
				key.names(), ordered(rule.verbs), List.copyOf(rule.reasons), key.perNamespace())));
		requireOneBindingPerRole(rules);
		rules.sort(ORDER);
		return rules;
	}

	/**
	 * Fails if a ClusterRole would hold rules granted per namespace and rules granted
	 * cluster-wide: it is bound one way or the other.
	 */
	private static void requireOneBindingPerRole(List<PolicyRule> rules) {
		Map<String, Boolean> perNamespace = new LinkedHashMap<>();
		for (PolicyRule rule : rules) {
			if (rule.namespace() == null) {
				Boolean before = perNamespace.putIfAbsent(rule.role(), rule.grantedPerNamespace());
				if (before != null && before != rule.grantedPerNamespace()) {
					throw new IllegalArgumentException("Role '" + rule.role() + "' holds rules granted per namespace "
							+ "and rules for all namespaces; give the ones granted per namespace a role of their own");
				}
			}
		}
	}

	/**
	 * Returns verbs in Kubernetes' usual order.
	 * @param verbs the verbs
	 * @return the verbs, {@code get} to {@code deletecollection} first, others after them
	 * as given
	 */
	static List<String> ordered(Set<String> verbs) {
		List<String> ordered = new ArrayList<>();
		VERB_ORDER.stream().filter(verbs::contains).forEach(ordered::add);
		verbs.stream().filter((verb) -> !VERB_ORDER.contains(verb)).forEach(ordered::add);
		return ordered;
	}

	/**
	 * What makes two permissions one rule; the names sorted.
	 */
	private record Key(String role, @Nullable String namespace, String group, String resource, List<String> names,
			boolean perNamespace) {

		Key {
			names = List.copyOf(new TreeSet<>(names));
		}

	}

	private static final class Merged {

		private final Set<String> verbs = new LinkedHashSet<>();

		private final Set<String> reasons = new TreeSet<>();

	}

}
