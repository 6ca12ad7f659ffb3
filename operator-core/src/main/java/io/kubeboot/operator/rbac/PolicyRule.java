package io.kubeboot.operator.rbac;

import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One rule of a Role or ClusterRole, as Kubernetes' {@code PolicyRule}, with where it
 * goes and why: {@link PolicyRules} makes these from the {@link Permission permissions}
 * an operator needs, with kinds resolved to their API group and resource, and rules that
 * differ only in their verbs merged.
 *
 * @param role the role suffix: empty for the operator's own roles, else the roles named
 * {@code <name>-<role>} hold the rule (see {@link Permission#inRole(String)})
 * @param namespace the namespace of the Role holding the rule, or {@code null} for a
 * ClusterRole (all namespaces, or a cluster-scoped resource)
 * @param apiGroup the API group, empty for the core group
 * @param resource the resource, with its subresource after a slash
 * ({@code storagebuckets/status})
 * @param resourceNames the names of the objects the rule is restricted to, empty for all
 * @param verbs the verbs, in Kubernetes' usual order ({@code get}, {@code list},
 * {@code watch}, {@code create}, {@code update}, {@code patch}, {@code delete},
 * {@code deletecollection}, then any other)
 * @param reasons why the operator needs the rule, one line each, sorted
 * @param grantedPerNamespace whether the rule's ClusterRole is bound namespace by
 * namespace, with RoleBindings, instead of cluster-wide (see
 * {@link Permission#grantedPerNamespace()}); always {@code false} for a Role
 */
public record PolicyRule(String role, @Nullable String namespace, String apiGroup, String resource,
		List<String> resourceNames, List<String> verbs, List<String> reasons, boolean grantedPerNamespace) {

	public PolicyRule {
		Objects.requireNonNull(role, "role must not be null");
		Objects.requireNonNull(apiGroup, "apiGroup must not be null");
		Objects.requireNonNull(resource, "resource must not be null");
		resourceNames = List.copyOf(resourceNames);
		verbs = List.copyOf(verbs);
		reasons = List.copyOf(reasons);
		if (grantedPerNamespace && (namespace != null || role.isEmpty())) {
			throw new IllegalArgumentException("Only a ClusterRole of its own (a role suffix, no namespace) is granted "
					+ "per namespace: " + role + " " + namespace + " " + resource);
		}
	}

	/**
	 * Creates a rule bound where its role is placed: a Role in its namespace, a
	 * ClusterRole cluster-wide.
	 * @param role the role suffix
	 * @param namespace the namespace, or {@code null} for a ClusterRole
	 * @param apiGroup the API group
	 * @param resource the resource, with its subresource after a slash
	 * @param resourceNames the names, empty for all
	 * @param verbs the verbs
	 * @param reasons the reasons
	 */
	public PolicyRule(String role, @Nullable String namespace, String apiGroup, String resource,
			List<String> resourceNames, List<String> verbs, List<String> reasons) {
		this(role, namespace, apiGroup, resource, resourceNames, verbs, reasons, false);
	}

	/**
	 * Returns the resource without its subresource.
	 * @return the plural resource name
	 */
	public String plural() {
		int slash = this.resource.indexOf('/');
		return (slash >= 0) ? this.resource.substring(0, slash) : this.resource;
	}

	/**
	 * Returns the subresource.
	 * @return the subresource, empty for none
	 */
	public String subresource() {
		int slash = this.resource.indexOf('/');
		return (slash >= 0) ? this.resource.substring(slash + 1) : "";
	}

	/**
	 * Describes what the rule allows on what, for a person: the verbs, the resource as
	 * {@code kubectl} names it ({@code storagebuckets.storage.kubeboot.io/status}), the
	 * names and the namespace.
	 * @param verbs the verbs to name
	 * @return the description, such as
	 * {@code patch storagebuckets.storage.kubeboot.io/status in all namespaces}
	 */
	public String describe(List<String> verbs) {
		String qualified = this.apiGroup.isEmpty() ? plural() : plural() + "." + this.apiGroup;
		String sub = subresource();
		return String.join(", ", verbs) + " " + qualified + (sub.isEmpty() ? "" : "/" + sub)
				+ (this.resourceNames.isEmpty() ? "" : " named '" + String.join("', '", this.resourceNames) + "'")
				+ ((this.namespace != null) ? " in namespace '" + this.namespace + "'"
						: this.grantedPerNamespace ? " in the namespaces that grant it" : " in all namespaces");
	}

}
